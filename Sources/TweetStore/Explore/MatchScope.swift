import Foundation
import TweetKit

/// The FROM and WHERE of "every tweet matching a query" for the explore commands (count, top, stats), which read
/// all matches at once instead of a page.
///
/// A query made only of words is answered by the full-text index alone: the ids come from `tweets_fts` without
/// touching a row, which is what makes a count of a common word fast. Anything else joins the rows, as a search does.
struct MatchScope {
    var from: String
    var conditions: [String]
    var bindings: [SQLValue]
    /// The column holding the tweet id in `from`.
    var idColumn: String
    /// True when `from` is the index alone (no `t.` columns can be read).
    var indexOnly: Bool

    /// The scope for `query` (nil: every searchable tweet) within the request's collection and time bounds.
    ///
    /// Time bounds become id bounds here (snowflake ids grow with time), which the index can seek; callers still check
    /// each tweet's time exactly, since pre-snowflake ids carry none.
    static func build(
        _ connection: Connection, query: SearchQuery?, request: SearchRequest, needsRow: Bool
    ) throws -> MatchScope {
        let reader = Reader(connection: connection)
        let compiled = try query.map { try QueryCompiler(resolveUser: reader.userIDs(matching:)).compile($0) }
        let collection = try CollectionMembership.scope(connection, collection: request.collection)
        var scope: MatchScope
        if let compiled, let match = compiled.match, compiled.conditions.isEmpty, !needsRow {
            scope = MatchScope(
                from: "tweets_fts", conditions: ["tweets_fts MATCH ?"], bindings: [.text(match)],
                idColumn: "tweets_fts.rowid", indexOnly: true)
        } else if let compiled, let match = compiled.match {
            scope = MatchScope(
                from: "tweets_fts CROSS JOIN tweets t ON t.id = tweets_fts.rowid",
                conditions: ["tweets_fts MATCH ?"] + compiled.conditions, bindings: [.text(match)] + compiled.bindings,
                idColumn: "tweets_fts.rowid", indexOnly: false)
        } else {
            scope = MatchScope(
                from: "tweets t",
                conditions: ["(t.flags & \(TweetFlags.includedOnly.rawValue)) = 0"] + (compiled?.conditions ?? []),
                bindings: compiled?.bindings ?? [], idColumn: "t.id", indexOnly: false)
        }
        if let (condition, binding) = collection {
            let text = scope.indexOnly ? condition.replacingOccurrences(of: "t.id", with: scope.idColumn) : condition
            scope.add("(\(text))", [binding])
        }
        // Only bounds after the snowflake epoch can be seeks: earlier ones would cut off pre-snowflake ids, whose
        // times are checked one by one instead.
        let seekable = TweetTime.snowflakeEpochMilliseconds + 60_000
        if let since = request.startTime.map(TweetRecord.milliseconds), since > seekable {
            scope.add(
                "\(scope.idColumn) >= ?", [.integer(Int64(bitPattern: TweetTime.firstID(atOrAfter: since).rawValue))])
        }
        if let until = request.endTime.map(TweetRecord.milliseconds), until > seekable {
            scope.add(
                "\(scope.idColumn) < ?", [.integer(Int64(bitPattern: TweetTime.firstID(atOrAfter: until).rawValue))])
        }
        return scope
    }

    mutating func add(_ condition: String, _ values: [SQLValue]) {
        conditions.append(condition)
        bindings += values
    }

    /// `SELECT <columns> FROM … WHERE …`.
    func select(_ columns: String, extra: [String] = []) -> String {
        "SELECT \(columns) FROM \(from) WHERE \((conditions + extra).joined(separator: " AND "))"
    }
}

/// A request's time bounds in milliseconds, checked against each tweet's time.
struct TimeWindow {
    var since: Int64?
    var until: Int64?

    init(_ request: SearchRequest) {
        since = request.startTime.map(TweetRecord.milliseconds)
        until = request.endTime.map(TweetRecord.milliseconds)
    }

    /// Whether a tweet at `time` is inside; an unknown time is inside only when there are no bounds.
    func contains(_ time: Int64?) -> Bool {
        guard let time else { return since == nil && until == nil }
        if let since, time < since { return false }
        if let until, time >= until { return false }
        return true
    }
}
