/// A recursive-descent parser for X's search syntax over an array of characters, so columns are what a person counts.
///
/// Grammar (AND binds tighter than OR):
///     query := or
///     or    := and ("OR" and)*
///     and   := unary+
///     unary := "-" term | "(" or ")" | term
struct QueryParser {
    /// Deeper nesting is refused rather than risking the stack on hostile input.
    static let maximumDepth = 64

    private let chars: [Character]
    private let target: QueryTarget
    private var pos = 0
    private var depth = 0

    init(_ text: String, target: QueryTarget = .local) {
        self.chars = Self.characters(of: text)
        self.target = target
    }

    /// The text's characters, with whitespace, parentheses and quotes always characters of their own. Unicode joins a
    /// prepended concatenation mark (U+0600–U+0605, U+06DD, U+0890…) and the character after it, even a space, into
    /// one grapheme cluster: split by cluster alone, `؄ ORS` read as one word, and a printed query (its terms joined
    /// by spaces) did not read back as the query it was printed from.
    static func characters(of text: String) -> [Character] {
        var result: [Character] = []
        for character in text {
            let scalars = character.unicodeScalars
            guard scalars.count > 1, scalars.contains(where: isSeparator) else {
                result.append(character)
                continue
            }
            var run = String.UnicodeScalarView()
            for scalar in scalars {
                guard isSeparator(scalar) else {
                    run.append(scalar)
                    continue
                }
                result.append(contentsOf: String(run))
                run = String.UnicodeScalarView()
                result.append(Character(scalar))
            }
            result.append(contentsOf: String(run))
        }
        return result
    }

    /// Whether printing `text` bare would end it early: it holds a scalar that ends a term wherever it stands, even
    /// inside a character (`(` with a combining mark after it).
    static func holdsSeparator(_ text: some StringProtocol) -> Bool {
        text.unicodeScalars.contains(where: isSeparator)
    }

    /// The scalars that end a term wherever they stand.
    private static func isSeparator(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || scalar == "(" || scalar == ")" || scalar == "\""
    }

    mutating func parseQuery() throws(QueryParseError) -> QueryExpression {
        skipSpace()
        if atEnd { throw fail(pos, "expected a search term") }
        let expression = try parseOr()
        skipSpace()
        if !atEnd { throw fail(pos, "expected a search term or OR, found ')' with no matching '('") }
        return expression
    }

    // MARK: Grammar

    private mutating func parseOr() throws(QueryParseError) -> QueryExpression {
        var parts = [try parseAnd()]
        while true {
            skipSpace()
            guard atOR else { break }
            pos += 2
            skipSpace()
            if atEnd || chars[pos] == ")" || atOR { throw fail(pos, "expected a search term after OR") }
            parts.append(try parseAnd())
        }
        return .any(parts)
    }

    private mutating func parseAnd() throws(QueryParseError) -> QueryExpression {
        var parts: [QueryExpression] = []
        while true {
            skipSpace()
            if atEnd || chars[pos] == ")" || atOR { break }
            parts.append(try parseUnary())
        }
        if parts.isEmpty {
            if atEnd { throw fail(pos, "expected a search term") }
            if atOR { throw fail(pos, "expected a search term before OR") }
            if depth == 0 { throw fail(pos, "expected a search term, found ')' with no matching '('") }
            throw fail(pos, "expected a search term before ')'")
        }
        return .all(parts)
    }

    private mutating func parseUnary() throws(QueryParseError) -> QueryExpression {
        let start = pos
        switch chars[pos] {
        case "-":
            pos += 1
            if atEnd || chars[pos].isWhitespace || chars[pos] == ")" || chars[pos] == "-" {
                throw fail(pos, "expected a term right after '-'")
            }
            if chars[pos] == "(" {
                throw fail(
                    start, "expected a term after '-': a group in parentheses cannot be negated, negate each term")
            }
            if atOR { throw fail(pos, "expected a term after '-', found the operator OR; write -\"OR\" for the word") }
            return .not(try parseTerm())
        case "(":
            if depth >= Self.maximumDepth {
                throw fail(start, "expected at most \(Self.maximumDepth) levels of parentheses")
            }
            pos += 1
            depth += 1
            let inner = try parseOr()
            skipSpace()
            guard !atEnd, chars[pos] == ")" else {
                throw fail(pos, "expected ')' to close the '(' at column \(start + 1)")
            }
            pos += 1
            depth -= 1
            return inner
        default:
            let term = try parseTerm()
            if case .xOnly(name: "is", value: "nullcast") = term {
                throw fail(
                    start, "expected '-' before is:nullcast: X takes it only negated, to leave out promoted posts")
            }
            return .term(term)
        }
    }

    private mutating func parseTerm() throws(QueryParseError) -> QueryTerm {
        if chars[pos] == "\"" {
            return .phrase(try parseQuoted(what: "words"))
        }
        let start = pos
        let word = readWord()
        let first = word.first!
        if first == "#" {
            guard word.count > 1 else { throw fail(start + 1, "expected a hashtag after '#'") }
            return .hashtag(String(word.dropFirst()))
        }
        if first == "@" {
            guard word.count > 1 else { throw fail(start + 1, "expected a username after '@'") }
            return .mention(String(word.dropFirst()))
        }
        if first == "$", word.count > 1, word[word.index(after: word.startIndex)].isLetter {
            return .cashtag(String(word.dropFirst()))
        }
        if let colon = word.firstIndex(of: ":"), colon != word.startIndex {
            let name = word[..<colon].lowercased()
            if let term = try parseOperator(name, start: start, word: word, colon: colon) { return term }
        }
        return .keyword(word)
    }

    /// The term for a `name:value` word, nil when `name` is not an operator (so the word is a keyword, like `12:30`).
    private mutating func parseOperator(
        _ name: String, start: Int, word: String, colon: String.Index
    ) throws(QueryParseError) -> QueryTerm? {
        let kind = QueryOperator(rawValue: name)
        let remote = XOperator.byName[name]
        if kind == nil, remote == nil {
            if QueryOperator.unsupported.contains(name) {
                let instead = name == "min_faves" ? " (min_likes: is)" : ""
                throw fail(start, "expected a supported operator; '\(name):' is not supported by X's v2 API\(instead)")
            }
            return nil
        }
        if let remote, let refusal = remote.refusal(for: target) { throw fail(start, refusal) }
        let valueColumn = start + word.distance(from: word.startIndex, to: colon) + 1
        var value = String(word[word.index(after: colon)...])
        if value.isEmpty, !atEnd, chars[pos] == "\"" {
            value = try parseQuoted(what: "a value")
        } else if let remote, remote.isBracketed, value.hasPrefix("["), !value.contains("]") {
            value = try readBracketed(after: value, openedAt: valueColumn)
        }
        let expectation = remote?.expectation ?? kind!.expectation
        if value.isEmpty { throw fail(valueColumn, "expected \(expectation) after '\(name):'") }
        if let remote {
            guard let read = remote.read(value) else {
                throw fail(valueColumn, "expected \(expectation) after '\(name):', found '\(value)'")
            }
            return .xOnly(name: remote.name, value: read)
        }
        if let term = kind!.term(value) { return term }
        if kind == .is || kind == .has {
            let lowered = value.lowercased()
            let xValue =
                kind == .is ? (XOperator.isValues.contains(lowered) ? lowered : nil) : XOperator.hasValues[lowered]
            if let xValue {
                if target == .local { throw fail(start, XOperator.localRefusal("\(name):\(xValue)")) }
                return .xOnly(name: name, value: xValue)
            }
        }
        var expected = expectation
        if target != .local, kind == .is {
            expected += ", " + XOperator.isValues.sorted().joined(separator: ", ")
        } else if target != .local, kind == .has {
            expected += ", " + Set(XOperator.hasValues.values).sorted().joined(separator: ", ")
        }
        throw fail(valueColumn, "expected \(expected) after '\(name):', found '\(value)'")
    }

    /// A bracketed value that spans spaces (`point_radius:[2.35 48.86 16km]`): `head` is its part up to the first
    /// space, `pos` just after it. Reads through the closing `]`, which must end the term.
    private mutating func readBracketed(after head: String, openedAt open: Int) throws(QueryParseError) -> String {
        guard let close = chars[pos...].firstIndex(of: "]") else {
            throw fail(chars.count, "expected ']' to close the '[' at column \(open + 1)")
        }
        let value = head + String(chars[pos...close])
        pos = close + 1
        if !atEnd, !Self.endsWord(chars[pos]) { throw fail(pos, "expected a space after ']'") }
        return value
    }

    // MARK: Lexing

    /// A quoted string's content; `pos` is at the opening quote.
    private mutating func parseQuoted(what: String) throws(QueryParseError) -> String {
        let open = pos
        pos += 1
        guard let close = chars[pos...].firstIndex(of: "\"") else {
            throw fail(chars.count, "expected a closing '\"' for the quote at column \(open + 1)")
        }
        let content = String(chars[pos..<close])
        pos = close + 1
        if content.allSatisfy(\.isWhitespace) { throw fail(open, "expected \(what) between the quotes") }
        return content
    }

    /// The characters up to whitespace, a parenthesis or a quote; never empty because callers stop before those.
    private mutating func readWord() -> String {
        let start = pos
        while !atEnd, !Self.endsWord(chars[pos]) { pos += 1 }
        return String(chars[start..<pos])
    }

    static func endsWord(_ c: Character) -> Bool {
        c.isWhitespace || c == "(" || c == ")" || c == "\""
    }

    private var atEnd: Bool { pos >= chars.count }

    /// `OR` in capitals standing alone (lowercase `or` is an ordinary word, as on X).
    private var atOR: Bool {
        guard pos + 1 < chars.count, chars[pos] == "O", chars[pos + 1] == "R" else { return false }
        return pos + 2 == chars.count || chars[pos + 2].isWhitespace || chars[pos + 2] == "(" || chars[pos + 2] == ")"
            || chars[pos + 2] == "\""
    }

    private mutating func skipSpace() {
        while !atEnd, chars[pos].isWhitespace { pos += 1 }
    }

    private func fail(_ index: Int, _ message: String) -> QueryParseError {
        QueryParseError(column: index + 1, message: message)
    }
}

/// The `name:` operators, with how each reads its value.
enum QueryOperator: String, CaseIterable {
    case from, to, lang, `is`, has, url, since, until
    case conversationID = "conversation_id"
    case minLikes = "min_likes"
    case minReposts = "min_reposts"
    case minRetweets = "min_retweets"
    case minReplies = "min_replies"

    /// Operator names of other Twitter APIs (v1.1, premium) that X's v2 does not take; refusing them beats silently
    /// searching for the word. The v2 operators tweetsh does not evaluate itself are in `XOperator`.
    static let unsupported: Set<String> = ["retweets_of_user_id", "min_faves"]

    var expectation: String {
        switch self {
        case .from, .to: return "a username (letters, digits, _; at most 15) or a user id"
        case .lang: return "a language code such as en or pt-br"
        case .is: return "one of " + QueryTerm.TweetKind.allCases.map(\.rawValue).joined(separator: ", ")
        case .has: return "one of " + QueryTerm.TweetFeature.allCases.map(\.rawValue).joined(separator: ", ")
        case .url: return "part of a URL"
        case .since, .until: return "a date as YYYY-MM-DD"
        case .conversationID: return "a tweet id (digits)"
        case .minLikes, .minReposts, .minRetweets, .minReplies: return "a whole number"
        }
    }

    func term(_ value: String) -> QueryTerm? {
        switch self {
        case .from: return Self.user(value).map(QueryTerm.from)
        case .to: return Self.user(value).map(QueryTerm.to)
        case .lang: return Self.isLanguage(value) ? .lang(value) : nil
        case .is: return QueryTerm.TweetKind(rawValue: value.lowercased()).map(QueryTerm.is)
        case .has:
            let lowered = value.lowercased()
            return QueryTerm.TweetFeature(rawValue: lowered == "media_link" ? "media" : lowered).map(QueryTerm.has)
        case .url: return .url(value)
        case .since: return QueryDate(value).map(QueryTerm.since)
        case .until: return QueryDate(value).map(QueryTerm.until)
        case .conversationID: return TweetID(value).map(QueryTerm.conversationID)
        case .minLikes: return Self.count(value).map(QueryTerm.minLikes)
        case .minReposts, .minRetweets: return Self.count(value).map(QueryTerm.minReposts)
        case .minReplies: return Self.count(value).map(QueryTerm.minReplies)
        }
    }

    /// A handle (`@` allowed in front) or a numeric id.
    static func user(_ value: String) -> String? {
        let name = value.hasPrefix("@") ? String(value.dropFirst()) : value
        if UserID(name) != nil { return name }
        guard (1...15).contains(name.utf8.count),
            name.utf8.allSatisfy({ isASCIIAlphanumeric($0) || $0 == UInt8(ascii: "_") })
        else { return nil }
        return name
    }

    static func isLanguage(_ value: String) -> Bool {
        let parts = value.split(separator: "-", omittingEmptySubsequences: false)
        guard let primary = parts.first, (2...3).contains(primary.utf8.count),
            primary.utf8.allSatisfy({ isASCIIAlphanumeric($0) && $0 > 64 })
        else { return false }
        return parts.dropFirst().allSatisfy {
            (1...8).contains($0.utf8.count) && $0.utf8.allSatisfy(isASCIIAlphanumeric)
        }
    }

    static func count(_ value: String) -> Int? {
        guard value.utf8.count <= 12, value.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return Int(value)
    }

    static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122)
    }
}
