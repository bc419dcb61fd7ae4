import Foundation

/// A query as the X search endpoints take it: the local-only `since:`/`until:` become `start_time`/`end_time`.
public struct APISearchQuery: Hashable, Sendable {
    /// The `query` parameter.
    public var query: String
    /// `start_time`, from a top-level `since:`.
    public var startTime: Date?
    /// `end_time`, from a top-level `until:`.
    public var endTime: Date?

    /// Creates an API query.
    public init(query: String, startTime: Date? = nil, endTime: Date? = nil) {
        self.query = query
        self.startTime = startTime
        self.endTime = endTime
    }
}

/// Why a query that is fine locally cannot be sent to X as it stands.
public struct QueryTranslationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What to change.
    public var message: String

    /// Creates an error.
    public init(message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}

extension SearchQuery {
    /// The query for the X API.
    ///
    /// `since:` and `until:` exist only locally; at the top level of the query they become the time bounds (the latest
    /// `since:` and earliest `until:` win). Anywhere else (inside OR, negated) X cannot express them, so this throws,
    /// as it does for a query X rejects for having only `is:`/`has:`/`lang:` operators.
    public func forAPI() throws(QueryTranslationError) -> APISearchQuery {
        let parts: [QueryExpression]
        if case .and(let children) = root { parts = children } else { parts = [root] }
        var kept: [QueryExpression] = []
        var start: QueryDate?
        var end: QueryDate?
        for part in parts {
            switch part {
            case .term(.since(let day)): start = max(start ?? day, day)
            case .term(.until(let day)): end = min(end ?? day, day)
            default:
                if part.terms.contains(where: {
                    if case .since = $0 { true } else if case .until = $0 { true } else { false }
                }) {
                    throw QueryTranslationError(
                        message: "since: and until: can be sent to X only as top-level terms, not inside OR or negated")
                }
                kept.append(part)
            }
        }
        if kept.isEmpty {
            throw QueryTranslationError(message: "X needs a search term besides since: and until:")
        }
        let standalone = kept.contains { part in
            part.terms.contains { term in
                switch term {
                case .is, .has, .lang: return false
                case .xOnly(let name, _):
                    return name != "is" && name != "has" && XOperator.byName[name]?.conjunctionRequired != true
                default: return true
                }
            }
        }
        if !standalone {
            throw QueryTranslationError(
                message: "X rejects a query made only of is:, has:, lang: and sample: operators; add a word or from:")
        }
        return APISearchQuery(
            query: QueryPrinter.render(.all(kept), insideAnd: false),
            startTime: start?.startOfDay, endTime: end?.startOfDay)
    }
}
