import Foundation
import TweetKit

extension TweetStore {
    /// Ranks the `kind` keys of the tweets matching `query` (nil: every searchable tweet), `limit` rows, most first.
    ///
    /// Authors and languages are grouped in SQL; hashtags, mentions and domains come from `tweet_keys` (a word
    /// query reads no row of `tweets`, see `ExploreKeys`); words read the text. Cancelling the task interrupts it.
    public func topList(
        _ kind: TopKind, query: SearchQuery?, request: SearchRequest, limit: Int
    ) async throws -> TopList {
        try await database.run { connection in
            if let column = ExploreKeys.column(kind) {
                let (tally, tweets) = try Self.tallyKeys(column, connection: connection, query: query, request: request)
                return TopList(kind: kind, query: request.query, rows: tally.ranked(limit: limit), tweets: tweets)
            }
            let counter = try Self.count(kind, connection: connection, query: query, request: request)
            return TopList(kind: kind, query: request.query, rows: counter.ranked(limit: limit), tweets: counter.tweets)
        }
    }

    /// Counts one `tweet_keys` column over the matches, and the matches: one pass of the match ids, each looked up in
    /// that small table (a left join, so a match without keys still counts as looked at).
    private static func tallyKeys(
        _ column: String, connection: Connection, query: SearchQuery?, request: SearchRequest
    ) throws -> (KeyTally, Int) {
        var scope = try MatchScope.build(connection, query: query, request: request, needsRow: false)
        scope.from += " LEFT JOIN tweet_keys k ON k.tweet = \(scope.idColumn)"
        var tally = KeyTally()
        var tweets = 0
        try connection.withStatement(scope.select("k.\(column)"), scope.bindings) { statement in
            while try statement.step() {
                tweets += 1
                statement.withBytes(0) { tally.add(encodedList: $0) }
            }
        }
        return (tally, tweets)
    }

    private static func count(
        _ kind: TopKind, connection: Connection, query: SearchQuery?, request: SearchRequest
    ) throws -> TopCounter {
        var counter = TopCounter(kind: kind)
        let scope = try MatchScope.build(connection, query: query, request: request, needsRow: true)
        switch kind {
        case .authors, .langs:
            let column = kind == .authors ? "t.author_id" : "t.lang"
            let sql = scope.select("\(column), count(*)") + " GROUP BY \(column)"
            var grouped: [(SQLValue?, Int)] = []
            try connection.withStatement(sql, scope.bindings) { statement in
                while try statement.step() {
                    let count = statement.int(1)
                    counter.addTweets(count)
                    if statement.isNull(0) { continue }
                    grouped.append((kind == .authors ? .integer(statement.int64(0)) : .text(statement.text(0)), count))
                }
            }
            for (value, count) in grouped {
                switch value {
                case .integer(let id)?:
                    let name = try connection.rows("SELECT username FROM users WHERE id = ?", [.integer(id)]) {
                        $0.text(0)
                    }.first
                    counter.add(key: (name ?? String(UInt64(bitPattern: id))).lowercased(), count: count)
                case .text(let lang)?: counter.add(key: lang.lowercased(), count: count)
                default: break
                }
            }
        case .hashtags, .mentions, .domains:
            // Counted from `tweet_keys` by `tallyKeys`.
            break
        case .words:
            try connection.withStatement(scope.select("t.text, t.lang"), scope.bindings) { statement in
                while try statement.step() {
                    let tweet = Tweet(id: 0, text: statement.text(0), lang: statement.optionalText(1))
                    counter.add(tweet, author: nil)
                }
            }
        }
        return counter
    }
}
