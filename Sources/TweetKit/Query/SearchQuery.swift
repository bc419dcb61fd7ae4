import Foundation

/// A parsed search in X's query syntax, plus the local-only `since:` and `until:`.
///
/// Parse with `SearchQuery(parsing:)`; `description` prints it back in the same syntax, so that parsing the printed form
/// gives an equal query. The store compiles it to FTS5 and SQL; `forAPI()` turns it into what the X API accepts.
public struct SearchQuery: Hashable, Sendable, CustomStringConvertible {
    /// The expression tree. Build it with `QueryExpression.all` and `.any` so that it stays in the flattened form the
    /// parser produces; only that form round-trips exactly.
    public var root: QueryExpression

    /// Wraps an expression tree.
    public init(_ root: QueryExpression) {
        self.root = root
    }

    /// Parses `text` for `target`; the error names the 1-based column (in characters) and what was expected there.
    ///
    /// For a local store (the default) an operator only X evaluates is an error at its column; for X it is kept as
    /// `QueryTerm.xOnly`, printed back as written.
    public init(parsing text: String, for target: QueryTarget = .local) throws(QueryParseError) {
        var parser = QueryParser(text, target: target)
        self.root = try parser.parseQuery()
    }

    /// The operators of the query that only X evaluates (`place_country:`, `is:verified`), as printed, in order.
    public var xOnlyOperators: [String] {
        root.terms.compactMap { term in
            if case .xOnly(let name, let value) = term { return name + ":" + value }
            return nil
        }
    }

    /// The query in X's syntax, operators lowercased, `OR` groups parenthesized only where needed.
    public var description: String { QueryPrinter.render(root, insideAnd: false) }
}

/// A node of the query tree.
///
/// Negation applies to single terms only, as X forbids negating a group; the type makes that rule impossible to break.
public indirect enum QueryExpression: Hashable, Sendable {
    /// A term that must match.
    case term(QueryTerm)
    /// A term that must not match (`-term`).
    case not(QueryTerm)
    /// Every part must match (terms separated by spaces). Holds at least two parts, none of them `and`.
    case and([QueryExpression])
    /// Any part may match (`OR`). Holds at least two parts, none of them `or`.
    case or([QueryExpression])

    /// The conjunction of `parts`, flattening nested conjunctions and unwrapping a single part.
    public static func all(_ parts: [QueryExpression]) -> QueryExpression {
        let flat = parts.flatMap { part -> [QueryExpression] in
            if case .and(let inner) = part { return inner }
            return [part]
        }
        return flat.count == 1 ? flat[0] : .and(flat)
    }

    /// The disjunction of `parts`, flattening nested disjunctions and unwrapping a single part.
    public static func any(_ parts: [QueryExpression]) -> QueryExpression {
        let flat = parts.flatMap { part -> [QueryExpression] in
            if case .or(let inner) = part { return inner }
            return [part]
        }
        return flat.count == 1 ? flat[0] : .or(flat)
    }

    /// Every term in the tree, negated or not, in order.
    public var terms: [QueryTerm] {
        switch self {
        case .term(let term), .not(let term): return [term]
        case .and(let parts), .or(let parts): return parts.flatMap(\.terms)
        }
    }
}

/// One search term or operator.
public enum QueryTerm: Hashable, Sendable {
    /// A bare word, matched as a token of the text.
    case keyword(String)
    /// `"exact phrase"`: the words in this order.
    case phrase(String)
    /// `#tag`, without the `#`; matches the tweet's hashtags.
    case hashtag(String)
    /// `$TAG`, without the `$`; matches the tweet's cashtags.
    case cashtag(String)
    /// `@user`, without the `@`; matches tweets that mention the user.
    case mention(String)
    /// `from:user`: the author's handle (without `@`) or numeric id.
    case from(String)
    /// `to:user`: the replied-to user's handle or numeric id.
    case to(String)
    /// `lang:xx`: the language X detected.
    case lang(String)
    /// `is:retweet`, `is:reply`, `is:quote`.
    case `is`(TweetKind)
    /// `has:links`, `has:media`, `has:mentions`, `has:hashtags`.
    case has(TweetFeature)
    /// `url:text`: matches the expanded URLs.
    case url(String)
    /// `conversation_id:id`: tweets of one thread.
    case conversationID(TweetID)
    /// `min_likes:n`.
    case minLikes(Int)
    /// `min_reposts:n` (also read as `min_retweets:`).
    case minReposts(Int)
    /// `min_replies:n`.
    case minReplies(Int)
    /// `since:YYYY-MM-DD` (local only): posted on or after that day, UTC.
    case since(QueryDate)
    /// `until:YYYY-MM-DD` (local only): posted before that day, UTC.
    case until(QueryDate)
    /// An operator X evaluates and the local stores cannot (`place_country:US`, `is:verified`, `has:geo`,
    /// `point_radius:[…]`), kept only in queries parsed for X. `name` is canonical and lowercased; `value` is checked
    /// and normalized (a country in capitals, a bracketed value with single spaces).
    case xOnly(name: String, value: String)

    /// What `is:` can ask about.
    public enum TweetKind: String, Hashable, Sendable, CaseIterable {
        /// The tweet is a retweet.
        case retweet
        /// The tweet replies to another.
        case reply
        /// The tweet quotes another.
        case quote
    }

    /// What `has:` can ask about.
    public enum TweetFeature: String, Hashable, Sendable, CaseIterable {
        /// At least one URL.
        case links
        /// Attached media.
        case media
        /// At least one @mention.
        case mentions
        /// At least one #hashtag.
        case hashtags
    }

    /// True for terms matched against the words of the tweet (the full-text index); false for metadata filters.
    public var isTextual: Bool {
        switch self {
        case .keyword, .phrase, .hashtag, .cashtag, .mention, .url: return true
        default: return false
        }
    }
}

/// A calendar day in UTC, as `since:` and `until:` take it.
public struct QueryDate: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The year, 1 to 9999.
    public let year: Int
    /// The month, 1 to 12.
    public let month: Int
    /// The day of the month.
    public let day: Int

    /// A valid day, or nil (February 30th is rejected, not rolled over).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1 else { return nil }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard day <= lengths[month - 1] else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses exactly `YYYY-MM-DD`.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }),
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2])
        else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// Midnight UTC at the start of the day.
    public var startOfDay: Date {
        // Days from the civil date, so no Calendar (and no time zone database) is involved.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return Date(timeIntervalSince1970: TimeInterval(days) * 86_400)
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    /// Calendar order.
    public static func < (lhs: QueryDate, rhs: QueryDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}

/// Why a query could not be parsed: where, and what was expected there.
public struct QueryParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The 1-based column, counted in characters; one past the end when the query ended too early.
    public var column: Int
    /// What was wrong, phrased as what was expected.
    public var message: String

    /// Creates an error.
    public init(column: Int, message: String) {
        self.column = column
        self.message = message
    }

    /// `column 7: expected ...`.
    public var description: String { "column \(column): \(message)" }
}
