import Foundation

/// Where a query will be evaluated, which decides the operators it may hold.
///
/// The local stores evaluate a subset of X's syntax. X evaluates more: a query for X keeps those operators as
/// written (`QueryTerm.xOnly`), and the same text for a local store is refused at the operator's column rather than
/// searched as words or silently dropped.
public enum QueryTarget: Hashable, Sendable {
    /// A local store, SQLite or PostgreSQL: only the operators tweetsh evaluates itself.
    case local
    /// X's search and counts endpoints: also the operators only X can evaluate (`place_country:`, `is:verified`, …).
    case xSearch
    /// X's filtered-stream rules: search's operators and the ones X takes only in rules (`bio:`, `sample:`, …).
    case xRules
}

/// An operator X evaluates and the local stores cannot: its canonical name, how its value reads, and where X takes it.
struct XOperator {
    /// How the value after the colon is read and checked.
    enum Value {
        /// A handle (with or without `@`) or a numeric user id, as `from:` takes it.
        case user
        /// A tweet id.
        case tweetID
        /// A numeric id of something other than a tweet (a List).
        case digits
        /// Any text; quote it when it has spaces.
        case text
        /// An ISO 3166-1 alpha-2 country code, printed in capitals.
        case country
        /// `domain.entity` or `domain.*`, both numeric.
        case context
        /// A whole percentage, 1 to 100.
        case percent
        /// A whole number.
        case count
        /// A whole number or a range `low..high`.
        case countRange
        /// `[longitude latitude radius]`, the radius in km or mi.
        case pointRadius
        /// `[west south east north]` in decimal degrees.
        case boundingBox
    }

    /// The name as printed, lowercased.
    let name: String
    /// What the value must be.
    let value: Value
    /// False for the operators X takes only in filtered-stream rules.
    let inSearch: Bool
    /// X refuses a query made only of conjunction-required operators (`sample:` among them).
    let conjunctionRequired: Bool

    /// Every such operator, by each name it is read under (aliases included). Sources: X's v2 operator lists for
    /// search and for filtered-stream rules.
    static let byName: [String: XOperator] = {
        func op(_ name: String, _ value: Value, search: Bool = true, conjunction: Bool = false) -> XOperator {
            XOperator(name: name, value: value, inSearch: search, conjunctionRequired: conjunction)
        }
        let all: [(XOperator, [String])] = [
            (op("retweets_of", .user), []),
            (op("in_reply_to_tweet_id", .tweetID), ["in_reply_to_status_id"]),
            (op("retweets_of_tweet_id", .tweetID), ["retweets_of_status_id"]),
            (op("quotes_of_tweet_id", .tweetID), ["quotes_of_status_id"]),
            (op("context", .context), []),
            (op("entity", .text), []),
            (op("list", .digits), []),
            (op("place", .text), []),
            (op("place_country", .country), []),
            (op("point_radius", .pointRadius), []),
            (op("bounding_box", .boundingBox), ["geo_bounding_box"]),
            (op("bio", .text, search: false), []),
            (op("bio_name", .text, search: false), []),
            (op("bio_location", .text, search: false), []),
            (op("source", .text, search: false), []),
            (op("url_title", .text, search: false), []),
            (op("url_description", .text, search: false), []),
            (op("url_contains", .text, search: false), []),
            (op("from_affiliate_of", .user, search: false), []),
            (op("to_affiliate_of", .user, search: false), []),
            (op("sample", .percent, search: false, conjunction: true), []),
            (op("min_followers", .count, search: false), []),
            (op("followers_count", .countRange, search: false), []),
            (op("tweets_count", .countRange, search: false), []),
            (op("following_count", .countRange, search: false), []),
            (op("listed_count", .countRange, search: false), []),
        ]
        var table: [String: XOperator] = [:]
        for (spec, aliases) in all {
            for name in [spec.name] + aliases { table[name] = spec }
        }
        return table
    }()

    /// The `is:` values only X evaluates. `nullcast` must be negated (X takes only `-is:nullcast`).
    static let isValues: Set<String> = ["verified", "nullcast"]

    /// The `has:` values only X evaluates, by each name they are read under.
    static let hasValues: [String: String] = [
        "cashtags": "cashtags", "images": "images", "video_link": "video_link", "videos": "video_link", "geo": "geo",
    ]

    /// Whether `target` takes this operator; nil when it does, else what to say.
    func refusal(for target: QueryTarget) -> String? {
        switch target {
        case .local: return XOperator.localRefusal("\(name):")
        case .xSearch:
            return inSearch ? nil : "'\(name):' works only in filtered-stream rules (rules add), not in X's search"
        case .xRules: return nil
        }
    }

    /// The message for an X-only operator in a local query.
    static func localRefusal(_ shown: String) -> String {
        "'\(shown)' is matched by X only, not by the local store; search X with --source x"
    }

    /// The canonical value, or nil when `text` is not one this operator takes.
    func read(_ text: String) -> String? {
        switch value {
        case .user: return QueryOperator.user(text)
        case .tweetID: return TweetID(text)?.description
        case .digits: return Self.digits(text, upTo: 19)
        case .text: return text
        case .country:
            guard text.utf8.count == 2, text.utf8.allSatisfy({ QueryOperator.isASCIIAlphanumeric($0) && $0 > 64 })
            else { return nil }
            return text.uppercased()
        case .context:
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, let domain = Self.digits(parts[0], upTo: 19),
                let entity = parts[1] == "*" ? "*" : Self.digits(parts[1], upTo: 19)
            else { return nil }
            return domain + "." + entity
        case .percent:
            guard let n = QueryOperator.count(text), (1...100).contains(n) else { return nil }
            return String(n)
        case .count: return QueryOperator.count(text).map(String.init)
        case .countRange:
            let parts = text.components(separatedBy: "..")
            guard (1...2).contains(parts.count) else { return nil }
            let numbers = parts.compactMap(QueryOperator.count)
            guard numbers.count == parts.count, numbers.first! <= numbers.last! else { return nil }
            return numbers.map(String.init).joined(separator: "..")
        case .pointRadius: return Self.pointRadius(text)
        case .boundingBox: return Self.boundingBox(text)
        }
    }

    /// What `read` expects, for the error message.
    var expectation: String {
        switch value {
        case .user: return "a username (letters, digits, _; at most 15) or a user id"
        case .tweetID: return "a tweet id (digits)"
        case .digits: return "a numeric id"
        case .text: return "a value (quote it if it has spaces)"
        case .country: return "a two-letter country code such as US"
        case .context: return "domain.entity ids such as 10.799022225751871488, or domain.*"
        case .percent: return "a whole percentage from 1 to 100"
        case .count: return "a whole number"
        case .countRange: return "a whole number or a range such as 1000..10000"
        case .pointRadius: return "[longitude latitude radius] with the radius in km or mi, at most 25 mi"
        case .boundingBox: return "[west south east north] in decimal degrees"
        }
    }

    /// Whether the value is written in square brackets, spaces inside.
    var isBracketed: Bool {
        switch value {
        case .pointRadius, .boundingBox: return true
        default: return false
        }
    }

    private static func digits(_ text: some StringProtocol, upTo length: Int) -> String? {
        guard (1...length).contains(text.utf8.count), text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return String(text)
    }

    /// The numbers between the brackets, or nil when the text is not `[…]` with `count` parts.
    private static func bracketParts(_ text: String, count: Int) -> [Substring]? {
        guard text.hasPrefix("["), text.hasSuffix("]"), text.count >= 2 else { return nil }
        let parts = text.dropFirst().dropLast().split(whereSeparator: \.isWhitespace)
        return parts.count == count ? parts : nil
    }

    private static func degrees(_ text: some StringProtocol, limit: Double) -> Double? {
        guard text.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }),
            let value = Double(text), abs(value) <= limit
        else { return nil }
        return value
    }

    private static func pointRadius(_ text: String) -> String? {
        guard let parts = bracketParts(text, count: 3), degrees(parts[0], limit: 180) != nil,
            degrees(parts[1], limit: 90) != nil
        else { return nil }
        let radius = parts[2].lowercased()
        let unit = radius.suffix(2)
        guard unit == "km" || unit == "mi", let amount = degrees(radius.dropLast(2), limit: .infinity), amount > 0,
            (unit == "mi" ? amount : amount / 1.609_344) <= 25
        else { return nil }
        return "[" + [String(parts[0]), String(parts[1]), radius].joined(separator: " ") + "]"
    }

    private static func boundingBox(_ text: String) -> String? {
        guard let parts = bracketParts(text, count: 4), let west = degrees(parts[0], limit: 180),
            let south = degrees(parts[1], limit: 90), let east = degrees(parts[2], limit: 180),
            let north = degrees(parts[3], limit: 90), west < east, south < north
        else { return nil }
        return "[" + parts.map(String.init).joined(separator: " ") + "]"
    }
}

extension QueryParseError {
    /// The error of a local store given a query parsed for X that holds `term`, an operator only X evaluates. The
    /// parsed tree keeps no columns, so it points at the query's start; text parsed for a local store fails earlier,
    /// at the operator's own column.
    public static func matchedByXOnly(name: String, value: String) -> QueryParseError {
        let shown = name == "is" || name == "has" ? "\(name):\(value)" : "\(name):"
        return QueryParseError(column: 1, message: XOperator.localRefusal(shown))
    }
}
