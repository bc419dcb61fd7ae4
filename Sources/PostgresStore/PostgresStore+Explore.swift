import Foundation
import TweetKit
import TweetStore

/// `top` and `stats` on the server, giving what the SQLite store gives for the same data.
///
/// Authors and languages are grouped by the server; hashtags, mentions, domains and words are counted here from the
/// rows' entities and text, streamed from a server-side cursor in batches (never the whole match set at once), with
/// the same key rules as the SQLite store (`TopCounter.keys`), so both stores rank the same keys the same way.
extension PostgresStore {
    /// Rows read per batch when the matches are walked.
    static let exploreBatch = 5_000

    /// Ranks the `kind` keys of the tweets matching `query` (nil: every searchable tweet), `limit` rows, most first.
    public func topList(
        _ kind: TopKind, query: SearchQuery?, request: SearchRequest, limit: Int
    ) async throws -> TopList {
        let countLimit = self.countLimit
        let counter = try await withCancellableConnection { connection -> TopCounter in
            try Self.requireCollection(connection, request.collection)
            var unbounded = request
            unbounded.prefixLastWord = false
            let conditions = try PostgresSearch(connection: connection, countLimit: countLimit)
                .conditions(query ?? SearchQuery(.and([])), request: unbounded)
            var counter = TopCounter(kind: kind)
            switch kind {
            case .authors, .langs:
                try Self.group(kind, connection: connection, conditions: conditions, into: &counter)
            case .hashtags, .mentions, .domains, .words:
                let columns = kind == .words ? "t.id, t.text, t.lang, NULL" : "t.id, '', NULL, t.extra"
                try Self.forEachMatch(connection, conditions, columns: columns) { row in
                    var tweet = Tweet(id: 0, text: row.text(1), lang: row.optionalText(2))
                    if !row.isNull(3) { try TweetRecord.decodeExtra(row.bytes(3), into: &tweet) }
                    counter.add(tweet, author: nil)
                }
            }
            return counter
        }
        return TopList(kind: kind, query: request.query, rows: counter.ranked(limit: limit), tweets: counter.tweets)
    }

    /// Authors or languages counted by the server; authors are named by their stored username (else the id).
    private static func group(
        _ kind: TopKind, connection: PGConnection, conditions: PostgresConditions, into counter: inout TopCounter
    ) throws {
        let column = kind == .authors ? "t.author_id" : "t.lang"
        let grouped = try connection.rows(
            "SELECT \(column), count(*) FROM tweets t WHERE \(conditions.sql) GROUP BY \(column)",
            conditions.parameters, doing: "ranking"
        ) { row in (row.optionalText(0), Int(row.int64(1))) }
        var authors: [(Int64, Int)] = []
        for (value, count) in grouped {
            counter.addTweets(count)
            guard let value else { continue }
            if kind == .langs {
                counter.add(key: value.lowercased(), count: count)
            } else if let id = Int64(value) {
                authors.append((id, count))
            }
        }
        let names = try usernames(connection, authors.map(\.0))
        for (id, count) in authors {
            counter.add(key: (names[id] ?? String(UInt64(bitPattern: id))).lowercased(), count: count)
        }
    }

    /// The stored usernames of these user ids.
    private static func usernames(_ connection: PGConnection, _ ids: [Int64]) throws -> [Int64: String] {
        guard !ids.isEmpty else { return [:] }
        let rows = try connection.rows(
            "SELECT id, username FROM users WHERE id = ANY($1::bigint[])",
            [.text("{" + ids.map(String.init).joined(separator: ",") + "}")], doing: "ranking"
        ) { row in (row.int64(0), row.text(1)) }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

    /// Calls `body` with every match's row, newest first, selecting `columns` (column 0 must be `t.id`), and
    /// `endOfBatch` after each batch of `batch` rows.
    ///
    /// The query runs once, as a server-side cursor (`DECLARE … CURSOR`, then `FETCH FORWARD batch`): the server
    /// streams the matches from one snapshot, memory holds one batch whatever the count, and no count is run. The
    /// cursor needs a transaction: a read-only one of its own, or the caller's (`ownTransaction: false`). Stops with
    /// `CancellationError` between batches when the task is cancelled.
    static func forEachMatch(
        _ connection: PGConnection, _ conditions: PostgresConditions, columns: String, batch: Int = exploreBatch,
        ownTransaction: Bool = true, endOfBatch: () throws -> Void = {}, _ body: (PGRow) throws -> Void
    ) throws {
        let batch = max(1, batch)
        func walk() throws {
            try connection.execute(
                "DECLARE tweetsh_matches NO SCROLL CURSOR FOR "
                    + "SELECT \(columns) FROM tweets t WHERE \(conditions.sql) ORDER BY t.id DESC",
                conditions.parameters, doing: "reading the matches")
            var read = batch
            // A stopped command ends at the next `FETCH` (`PGConnection.stopCheck`).
            while read == batch {
                read = 0
                _ = try connection.rows(
                    "FETCH FORWARD \(batch) FROM tweetsh_matches", doing: "reading the matches"
                ) { row in
                    read += 1
                    try body(row)
                }
                if read > 0 { try endOfBatch() }
            }
            try connection.execute("CLOSE tweetsh_matches", doing: "reading the matches")
        }
        if ownTransaction {
            try connection.transaction {
                try connection.execute("SET TRANSACTION READ ONLY", doing: "reading the matches")
                try walk()
            }
        } else {
            try walk()
        }
    }

    /// Throws the SQLite store's message for a collection that does not exist.
    static func requireCollection(_ connection: PGConnection, _ name: String?) throws {
        guard let name else { return }
        let exists = try connection.scalar(
            "SELECT count(*) FROM collections WHERE name = $1", [.text(name)], doing: "finding the collection")
        guard exists == 1 else { throw StoreError(message: "no collection named '\(name)'; 'collections' lists them") }
    }

    // MARK: stats

    /// The overview `stats` shows for a collection (nil: every searchable tweet), from one walk over the rows'
    /// leading columns and entities, inside one read-only snapshot so the figures agree while another shell imports.
    public func overview(collection: String?) async throws -> CollectionOverview {
        try await withCancellableConnection { connection in
            try Self.requireCollection(connection, collection)
            return try connection.transaction {
                try connection.execute(
                    "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", doing: "reading the collection")
                return try Self.overview(connection, collection)
            }
        }
    }

    private static func overview(_ connection: PGConnection, _ collection: String?) throws -> CollectionOverview {
        var conditions = PostgresConditions()
        conditions.add("(t.flags & \(TweetFlags.includedOnly.rawValue)) = 0")
        if let collection {
            let name = conditions.bind(.text(collection))
            conditions.add(
                "EXISTS (SELECT 1 FROM collection_tweets m WHERE m.collection = \(name) AND m.tweet_id = t.id)")
        }
        var totals = CollectionOverview(volume: CountSeries(query: "", granularity: .day, buckets: []))
        var days = BucketCounter(granularity: .day)
        var firstTime = Int64.max
        var lastTime = Int64.min
        var langs = TopCounter(kind: .langs)
        var hashtags = TopCounter(kind: .hashtags)
        var domains = TopCounter(kind: .domains)
        var authorCounts: [Int64: Int] = [:]
        var liked = TopScores(limit: 5)
        var retweeted = TopScores(limit: 5)
        let columns = "t.id, t.author_id, t.created_at, t.lang, t.flags, t.likes, t.reposts, t.extra"
        try forEachMatch(connection, conditions, columns: columns, ownTransaction: false) { row in
            let id = TweetID(UInt64(bitPattern: row.int64(0)))
            let flags = TweetFlags(rawValue: row.int64(4))
            totals.tweets += 1
            if flags.contains(.retweet) { totals.retweets += 1 }
            if flags.contains(.reply) { totals.replies += 1 }
            if flags.contains(.quote) { totals.quotes += 1 }
            if flags.isDisjoint(with: [.retweet, .reply, .quote]) { totals.originals += 1 }
            if let author = row.optionalInt64(1) { authorCounts[author, default: 0] += 1 }
            if let lang = row.optionalText(3) { langs.add(key: lang.lowercased(), count: 1) }
            if let time = TweetTime.milliseconds(fromSnowflake: id) ?? row.optionalInt64(2) {
                days.add(time)
                firstTime = min(firstTime, time)
                lastTime = max(lastTime, time)
            }
            if !flags.contains(.retweet) {
                liked.offer(Int(row.int64(5)), id)
                retweeted.offer(Int(row.int64(6)), id)
            }
            if !row.isNull(7) {
                var tweet = Tweet(id: id, text: "")
                try TweetRecord.decodeExtra(row.bytes(7), into: &tweet)
                if !tweet.entities.hashtags.isEmpty { hashtags.add(tweet, author: nil) }
                if !tweet.entities.urls.isEmpty { domains.add(tweet, author: nil) }
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
        totals.languages = langs.ranked(limit: 10)
        totals.topHashtags = hashtags.ranked(limit: 5)
        totals.topDomains = domains.ranked(limit: 5)
        let topAuthors = authorCounts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .prefix(5)
        let names = try usernames(connection, topAuthors.map(\.key))
        totals.topAuthors = topAuthors.map { id, count in
            TopRow(key: names[id] ?? String(UInt64(bitPattern: id)), count: count)
        }
        totals.mostLiked = liked.entries.map(\.id)
        totals.mostRetweeted = retweeted.entries.map(\.id)
        return totals
    }
}
