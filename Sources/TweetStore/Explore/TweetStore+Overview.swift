import Foundation
import TweetKit

extension TweetStore {
    /// The overview `stats` shows for a collection (nil: the searchable tweets, as a search without `--in` sees them),
    /// in one pass over the rows' leading columns (no text, entities or originals) and one over `tweet_keys` for the
    /// hashtags and domains. Languages are counted from SQLite's bytes, authors by id: no `String` per row.
    public func overview(collection: String?) async throws -> CollectionOverview {
        // One read transaction: the two passes see one snapshot, even while another shell imports.
        try await database.run { connection in
            try connection.readTransaction { try Self.overview(connection, collection) }
        }
    }

    private static func overview(_ connection: Connection, _ collection: String?) throws -> CollectionOverview {
        var request = SearchRequest(query: "")
        request.collection = collection
        let scope = try MatchScope.build(connection, query: nil, request: request, needsRow: true)
        var totals = CollectionOverview(volume: CountSeries(query: "", granularity: .day, buckets: []))
        // Counted by UTC day during the pass (consecutive rows mostly share a day), widened to weeks or months at
        // the end: no array of a million times to keep and sort.
        var days = BucketCounter(granularity: .day)
        var firstTime = Int64.max
        var lastTime = Int64.min
        var langCounts = KeyTally()
        var authorCounts: [Int64: Int] = [:]
        var liked = TopScores(limit: 5)
        var retweeted = TopScores(limit: 5)
        let sql = scope.select("t.id, t.author_id, t.created_at, t.lang, t.flags, t.likes, t.reposts")
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
                if !row.isNull(3) { row.withBytes(3) { langCounts.add($0) } }
                if let time = TweetTime.milliseconds(fromSnowflake: id) ?? row.optionalInt64(2) {
                    days.add(time)
                    firstTime = min(firstTime, time)
                    lastTime = max(lastTime, time)
                }
                if !flags.contains(.retweet) {
                    liked.offer(row.int(5), id)
                    retweeted.offer(row.int(6), id)
                }
            }
        }
        let (hashtags, domains) = try Self.tallyKeys(connection, collection: collection)
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
        for (lang, count) in langCounts.entries { langs.add(key: lang.lowercased(), count: count) }
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

    /// The hashtags and domains of the collection's results (nil: the searchable tweets), from `tweet_keys`, whose
    /// rows are the results that have keys.
    private static func tallyKeys(_ connection: Connection, collection: String?) throws -> (KeyTally, KeyTally) {
        var sql = "SELECT k.hashtags, k.domains FROM tweet_keys k"
        var bindings: [SQLValue] = []
        if let (condition, binding) = try CollectionMembership.scope(connection, collection: collection) {
            sql += " WHERE " + condition.replacingOccurrences(of: "t.id", with: "k.tweet")
            bindings.append(binding)
        }
        var hashtags = KeyTally()
        var domains = KeyTally()
        try connection.withStatement(sql, bindings) { row in
            while try row.step() {
                row.withBytes(0) { hashtags.add(encodedList: $0) }
                row.withBytes(1) { domains.add(encodedList: $0) }
            }
        }
        return (hashtags, domains)
    }
}
