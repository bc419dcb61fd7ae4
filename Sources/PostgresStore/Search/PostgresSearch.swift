import Foundation
import TweetKit
import TweetStore

/// Runs one page of a search: newest first, keyset paging by tweet id (`t.id < $n`, never OFFSET), so every page is
/// an index range scan however deep it goes, and every query carries an id bound (which keeps it on the partitions or
/// shards that hold the range; docs/scaling.md).
///
/// Relevance order is answered in recency order: PostgreSQL's `ts_rank` is not FTS5's bm25, and a different order
/// under the same name would surprise more than the plain one (docs/store.md).
struct PostgresSearch {
    let connection: PGConnection
    let countLimit: Int

    /// The cursor of the page after the one ending at `id`, in the SQLite store's form (`r<id>`).
    static func cursor(before id: Int64) -> String { "r\(id)" }

    func search(_ query: SearchQuery, request: SearchRequest, cursor token: String?) throws -> Page {
        let reader = PostgresReader(connection: connection)
        var conditions = try self.conditions(query, request: request)
        let shared = conditions
        if let token {
            guard token.hasPrefix("r"), let id = Int64(token.dropFirst()) else {
                throw PostgresError(
                    .invalidRequest, address: connection.address,
                    detail: "'\(token.prefix(40))' is not a cursor of a search in this store")
            }
            conditions.add("t.id < \(conditions.bind(.integer(id)))")
        }
        let pageSize = max(1, min(request.pageSize, 1_000))
        let limit = conditions.bind(.integer(Int64(pageSize + 1)))
        var tweets = try connection.rows(
            "SELECT \(TweetRow.selected) FROM tweets t WHERE \(conditions.sql) ORDER BY t.id DESC LIMIT \(limit)",
            conditions.parameters, doing: "searching", TweetRow.tweet(from:))
        var next: String?
        if tweets.count > pageSize {
            tweets.removeLast()
            next = Self.cursor(before: Int64(bitPattern: tweets[tweets.count - 1].id.rawValue))
        }
        var page = try reader.page(with: tweets)
        page.nextToken = next
        if token == nil {
            page.resultCount = next == nil ? tweets.count : try count(shared, pageSize: pageSize)
        }
        return page
    }

    /// The conditions a tweet must meet to match `query` under `request`'s bounds and collection, over `tweets t`;
    /// searches add the cursor and the limit, counts read every match.
    func conditions(_ query: SearchQuery, request: SearchRequest) throws -> PostgresConditions {
        let reader = PostgresReader(connection: connection)
        let terms = QueryCompiler(resolveUser: reader.userIDs(matching:))
        var conditions = PostgresConditions()
        conditions.addBase("(t.flags & \(TweetFlags.includedOnly.rawValue)) = 0")
        try PostgresQueryCompiler(terms: terms)
            .compile(query, prefixLastWord: request.prefixLastWord, into: &conditions)
        if let id = request.sinceID {
            conditions.add("t.id > \(conditions.bind(.integer(Int64(bitPattern: id.rawValue))))")
        }
        if let id = request.untilID {
            conditions.add("t.id < \(conditions.bind(.integer(Int64(bitPattern: id.rawValue))))")
        }
        if let time = request.startTime {
            conditions.add(
                "coalesce(t.created_at >= \(conditions.bind(.integer(TweetRecord.milliseconds(time)))), FALSE)")
        }
        if let time = request.endTime {
            conditions.add(
                "coalesce(t.created_at < \(conditions.bind(.integer(TweetRecord.milliseconds(time)))), FALSE)")
        }
        if let collection = request.collection {
            let name = conditions.bind(.text(collection))
            conditions.add(
                "EXISTS (SELECT 1 FROM collection_tweets m WHERE m.collection = \(name) AND m.tweet_id = t.id)")
        }
        return conditions
    }

    /// The number of matches when it is cheap to know, by the SQLite store's rule (so both stores report the same
    /// counts): a query of text terms alone counts up to `countLimit`, one with other conditions (flags aside, which
    /// are index terms here) up to ten pages' worth; nil beyond that, or when counting is off.
    private func count(_ conditions: PostgresConditions, pageSize: Int) throws -> Int? {
        guard countLimit > 0 else { return nil }
        let countLimit = conditions.isTextOnly ? self.countLimit : min(self.countLimit, 10 * pageSize)
        // Counting a common term's first thousand matches makes PostgreSQL build the bitmap of all of them (tens of
        // milliseconds at a million tweets), only to report no count. When the planner expects many times the limit,
        // the count would be capped anyway, so it is not run.
        if let estimate = try estimatedMatches(conditions), estimate > Self.skipFactor * countLimit { return nil }
        var bounded = conditions
        let limit = bounded.bind(.integer(Int64(countLimit)))
        let sql = "SELECT count(*) FROM (SELECT 1 FROM tweets t WHERE \(bounded.sql) LIMIT \(limit)) AS matches"
        let count = Int(try connection.scalar(sql, bounded.parameters, doing: "counting") ?? 0)
        return count < countLimit ? count : nil
    }

    /// A count is skipped when the planner expects more than this many times its limit: far enough beyond the limit
    /// that a misestimate rarely hides a count SQLite would show (and then it only hides it: results are unchanged).
    static let skipFactor = 5

    /// The planner's estimate of the matches, from `EXPLAIN` (planning only, nothing is read).
    private func estimatedMatches(_ conditions: PostgresConditions) throws -> Int? {
        let plan = try connection.rows(
            "EXPLAIN (FORMAT JSON) SELECT 1 FROM tweets t WHERE \(conditions.sql)", conditions.parameters,
            doing: "counting"
        ) { $0.text(0) }.joined()
        return Self.planRows(plan)
    }

    /// The first `"Plan Rows"` of an `EXPLAIN (FORMAT JSON)` answer: the top node's estimate.
    static func planRows(_ plan: String) -> Int? {
        guard let key = plan.range(of: "\"Plan Rows\":") else { return nil }
        let digits = plan[key.upperBound...].drop { $0 == " " }.prefix { $0.isNumber }
        return Int(digits)
    }
}
