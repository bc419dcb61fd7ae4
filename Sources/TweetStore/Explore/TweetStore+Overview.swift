import Foundation
import TweetKit

extension TweetStore {
    /// The overview `stats` shows for a collection (nil: the searchable tweets, as a search without `--in` sees them),
    /// in one pass over the rows; entities are decoded only for rows whose flags say they have hashtags or links.
    public func overview(collection: String?) async throws -> CollectionOverview {
        try await database.run { connection in
            var request = SearchRequest(query: "")
            request.collection = collection
            let scope = try MatchScope.build(connection, query: nil, request: request, needsRow: true)
            var totals = CollectionOverview(volume: CountSeries(query: "", granularity: .day, buckets: []))
            // Counted by UTC day during the pass (consecutive rows mostly share a day), widened to weeks or months at
            // the end: no array of a million times to keep and sort.
            var days = BucketCounter(granularity: .day)
            var firstTime = Int64.max
            var lastTime = Int64.min
            var langCounts: [String: Int] = [:]
            var authorCounts: [Int64: Int] = [:]
            var hashtags = TopCounter(kind: .hashtags)
            var domains = TopCounter(kind: .domains)
            var liked = TopScores(limit: 5)
            var retweeted = TopScores(limit: 5)
            let entityFlags = TweetFlags.hashtags.rawValue | TweetFlags.links.rawValue
            let sql = scope.select("t.id, t.author_id, t.created_at, t.lang, t.flags, t.likes, t.reposts, t.extra")
            try connection.withStatement(sql, scope.bindings) { row in
                while try row.step() {
                    let id = TweetID(UInt64(bitPattern: row.int64(0)))
                    let flags = TweetFlags(rawValue: row.int64(4))
                    totals.tweets += 1
                    if flags.contains(.retweet) { totals.retweets += 1 }
                    if flags.contains(.reply) { totals.replies += 1 }
                    if flags.contains(.quote) { totals.quotes += 1 }
                    if flags.isDisjoint(with: [.retweet, .reply, .quote]) { totals.originals += 1 }
                    if let author = row.optionalInt64(1) { authorCounts[author, default: 0] += 1 }
                    if let lang = row.optionalText(3) { langCounts[lang, default: 0] += 1 }
                    if let time = TweetTime.milliseconds(fromSnowflake: id) ?? row.optionalInt64(2) {
                        days.add(time)
                        firstTime = min(firstTime, time)
                        lastTime = max(lastTime, time)
                    }
                    if !flags.contains(.retweet) {
                        liked.offer(row.int(5), id)
                        retweeted.offer(row.int(6), id)
                    }
                    if flags.rawValue & entityFlags != 0 {
                        var tweet = Tweet(id: id, text: "")
                        try TweetRecord.decodeExtra(row.blob(7), into: &tweet)
                        hashtags.add(tweet, author: nil)
                        domains.add(tweet, author: nil)
                    }
                }
            }
            totals.authors = authorCounts.count
            if firstTime <= lastTime {
                totals.firstTime = firstTime
                totals.lastTime = lastTime
                let granularity = CollectionOverview.sparklineGranularity(first: firstTime, last: lastTime)
                var counter = BucketCounter(granularity: granularity)
                for day in try days.buckets() where day.count > 0 {
                    counter.add(bucketStart: day.start, count: day.count)
                }
                totals.volume = CountSeries(query: "", granularity: granularity, buckets: try counter.buckets())
            }
            var langs = TopCounter(kind: .langs)
            for (lang, count) in langCounts { langs.add(key: lang.lowercased(), count: count) }
            totals.languages = langs.ranked(limit: 10)
            totals.topHashtags = hashtags.ranked(limit: 5)
            totals.topDomains = domains.ranked(limit: 5)
            let topAuthors = authorCounts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                .prefix(5)
            totals.topAuthors = try topAuthors.map { id, count in
                let name = try connection.rows("SELECT username FROM users WHERE id = ?", [.integer(id)]) {
                    $0.text(0)
                }.first
                return TopRow(key: name ?? String(UInt64(bitPattern: id)), count: count)
            }
            totals.mostLiked = liked.entries.map(\.id)
            totals.mostRetweeted = retweeted.entries.map(\.id)
            return totals
        }
    }
}
