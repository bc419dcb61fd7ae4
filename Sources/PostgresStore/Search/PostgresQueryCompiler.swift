import Foundation
import TweetKit
import TweetStore

/// SQL conditions on `tweets t` with their parameters, numbered `$1`, `$2`, … in the order they were added.
struct PostgresConditions {
    private(set) var conditions: [String] = []
    private(set) var parameters: [PGValue] = []
    /// Whether the conditions are one `tsquery` match alone (besides the rule that searches skip tweets stored only
    /// as references, which have no document): such a count reads the index, as the SQLite store's text-only count
    /// reads only FTS5.
    private(set) var textMatch: String?
    private(set) var otherConditions = 0

    /// The placeholder for a new parameter.
    mutating func bind(_ value: PGValue) -> String {
        parameters.append(value)
        return "$\(parameters.count)"
    }

    mutating func add(_ condition: String) {
        conditions.append(condition)
        otherConditions += 1
    }

    /// Notes a filter the `tsquery` answers (`is:`, `has:`, `lang:`) that SQLite answers with SQL, so the count
    /// follows SQLite's rule for a query with conditions.
    mutating func addFilterInMatch() { otherConditions += 1 }

    /// Adds the condition every search has (no tweet stored only as a reference), which counts as no filter.
    mutating func addBase(_ condition: String) { conditions.append(condition) }

    /// Adds the match of the query's text terms.
    mutating func addTextMatch(_ condition: String) {
        conditions.append(condition)
        textMatch = condition
    }

    /// True when the only condition besides the base one is the text match.
    var isTextOnly: Bool { textMatch != nil && otherConditions == 0 }

    /// The conditions joined by AND (TRUE when there are none).
    var sql: String { conditions.isEmpty ? "TRUE" : conditions.joined(separator: " AND ") }
}

/// Compiles the query tree into PostgreSQL: the text terms become one `tsquery` over `tweets.doc` (see
/// `SearchDocument`), everything else plain SQL conditions, with the same meaning as the SQLite store's
/// `QueryCompiler`, whose term mapping (columns, CJK bigrams, handles resolved to author tokens) it reuses.
///
/// Every value is a parameter; the `tsquery` is one too, cast with `::tsquery` so PostgreSQL does not normalize it
/// again (its parsers would split `#tag` or `x_y`).
struct PostgresQueryCompiler {
    /// The SQLite compiler, for how each term maps to index columns and phrases.
    let terms: QueryCompiler

    /// Adds the conditions of `query` to `conditions`; with `prefixLastWord`, a last top-level word, `#tag` or
    /// `@mention` also matches the lexemes that start with it.
    func compile(_ query: SearchQuery, prefixLastWord: Bool, into conditions: inout PostgresConditions) throws {
        let parts: [QueryExpression]
        if case .and(let children) = query.root { parts = children } else { parts = [query.root] }
        var texts: [String] = []
        var rest: [QueryExpression] = []
        for (index, part) in parts.enumerated() {
            if prefixLastWord, index == parts.count - 1, let text = Self.prefix(part) {
                texts.append(text)
            } else if let text = try tsquery(part) {
                texts.append(text)
            } else {
                rest.append(part)
            }
        }
        for part in parts where Self.holdsFilter(part) { conditions.addFilterInMatch() }
        if !texts.isEmpty {
            let text =
                texts.count > QueryCompiler.flatJoin
                ? QueryCompiler.balanced(texts[...], " & ") : texts.joined(separator: " & ")
            conditions.addTextMatch("t.doc @@ \(conditions.bind(.text(text)))::tsquery")
        }
        for part in rest { conditions.add(try condition(part, &conditions)) }
        // libpq sends at most 65,535 parameters with a statement, and the search adds its own.
        guard conditions.parameters.count <= Self.mostParameters else {
            throw QueryParseError(
                column: 1,
                message: "the query is too large for the store: it has \(conditions.parameters.count) conditions, "
                    + "and at most \(Self.mostParameters) fit one search")
        }
    }

    /// Parameters one query may bind: the protocol's 65,535, less room for the search's own.
    static let mostParameters = 65_000

    // MARK: tsquery

    /// A term as a `tsquery`, or nil when it is no index term (or holds nothing the tokenizer keeps).
    func tsquery(_ term: QueryTerm) throws -> String? {
        // Flags and languages are lexemes of the document too (`SearchDocument.filterLexemes`).
        switch term {
        case .is(let kind): return SearchDocument.flagLexeme(TweetFlags(kind)).map(SearchDocument.quoted)
        case .has(let feature): return SearchDocument.flagLexeme(TweetFlags(feature)).map(SearchDocument.quoted)
        case .lang(let code): return SearchDocument.quoted(SearchDocument.languageLexeme(code))
        case .conversationID: return nil  // a condition: the root has no lexeme (`condition`)
        default: break
        }
        guard let (column, phrases, prefix) = try terms.columnPhrases(of: term),
            let mark = SearchDocument.Column(fts5: column),
            phrases.allSatisfy({ $0.contains(where: { $0.isLetter || $0.isNumber || $0 == "_" }) })
        else { return nil }
        let quoted = phrases.map { Self.phrase(IndexTokenizer.tokens($0), mark: mark, prefix: prefix) }
        return quoted.count == 1 ? quoted[0] : "(" + quoted.joined(separator: " | ") + ")"
    }

    /// A whole subtree as one `tsquery`, when every leaf is an index term.
    func tsquery(_ expression: QueryExpression) throws -> String? {
        switch expression {
        case .term(let term):
            return try tsquery(term)
        case .not(let term):
            return try tsquery(term).map { "!" + $0 }
        case .and(let parts), .or(let parts):
            var texts: [String] = []
            for part in parts {
                guard let text = try tsquery(part) else { return nil }
                texts.append(text)
            }
            let joiner: String
            if case .and = expression { joiner = " & " } else { joiner = " | " }
            return QueryCompiler.balanced(texts[...], joiner)
        }
    }

    /// Whether a subtree names a flag or a language anywhere.
    static func holdsFilter(_ expression: QueryExpression) -> Bool {
        switch expression {
        case .term(let term), .not(let term):
            switch term {
            case .is, .has, .lang: return true
            default: return false
            }
        case .and(let parts), .or(let parts): return parts.contains(where: holdsFilter)
        }
    }

    /// Consecutive tokens as a phrase (`'a' <-> 'b'`), the last one a prefix (`:*`) when asked. A phrase the
    /// tokenizer leaves empty (a lone combining mark) matches nothing, as an empty FTS5 phrase does.
    static func phrase(_ tokens: [String], mark: SearchDocument.Column, prefix: Bool) -> String {
        guard !tokens.isEmpty else { return "(!'' & '')" }
        let lexemes = tokens.enumerated().map { index, token in
            SearchDocument.quoted(mark.rawValue + token) + (prefix && index == tokens.count - 1 ? ":*" : "")
        }
        return lexemes.count == 1 ? lexemes[0] : "(" + lexemes.joined(separator: " <-> ") + ")"
    }

    /// The last word being typed as a prefix phrase, under the same rules as the SQLite store.
    static func prefix(_ expression: QueryExpression) -> String? {
        guard case .term(let term) = expression else { return nil }
        let mark: SearchDocument.Column
        let text: String
        switch term {
        case .keyword(let word): (mark, text) = (.body, ScriptNGrams.queryText(word).text)
        case .hashtag(let tag): (mark, text) = (.tags, tag)
        case .mention(let name): (mark, text) = (.mentions, name)
        default: return nil
        }
        guard text.count >= QueryCompiler.shortestPrefix,
            text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == " " }),
            text.contains(where: { $0 != " " })
        else { return nil }
        return phrase(IndexTokenizer.tokens(text), mark: mark, prefix: true)
    }

    // MARK: SQL

    func condition(_ expression: QueryExpression, _ conditions: inout PostgresConditions) throws -> String {
        switch expression {
        case .term(let term):
            return try condition(term, &conditions)
        case .not(let term):
            return "NOT " + (try condition(term, &conditions))
        case .and(let parts), .or(let parts):
            let joiner: String
            if case .and = expression { joiner = " AND " } else { joiner = " OR " }
            let sqls = try parts.map { try condition($0, &conditions) }
            return QueryCompiler.balanced(sqls[...], joiner)
        }
    }

    /// One term as a parenthesized condition that is never NULL.
    func condition(_ term: QueryTerm, _ conditions: inout PostgresConditions) throws -> String {
        if let text = try tsquery(term) { return "(t.doc @@ \(conditions.bind(.text(text)))::tsquery)" }
        func contains(_ needle: String) -> String {
            // PostgreSQL text holds no NUL; SQLite's instr would never find one in a tweet's text either.
            "(strpos(t.text, \(conditions.bind(.text(needle.replacingOccurrences(of: "\u{0}", with: ""))))::text) > 0)"
        }
        switch term {
        case .keyword(let text), .phrase(let text), .url(let text): return contains(text)
        case .hashtag(let tag): return contains("#" + tag)
        case .cashtag(let tag): return contains("$" + tag)
        case .mention(let name): return contains("@" + name)
        case .from, .to: return "(FALSE)"  // a handle nobody has
        case .conversationID(let id):
            // The documents inside the conversation carry `~c<id>`; its first tweet carries none (documents are made
            // without a root's own token, `CopyRows`) and is found by id, as SQLite's own token finds it: a NULL
            // `conversation_id` means the tweet starts its conversation. The planner ORs the two index scans.
            let lexeme = SearchDocument.quoted(
                SearchDocument.Column.refs.rawValue + TweetDocument.conversationToken(id.rawValue))
            let token = conditions.bind(.text(lexeme))
            let root = conditions.bind(.integer(Int64(bitPattern: id.rawValue)))
            return "((t.doc @@ \(token)::tsquery) OR (t.id = \(root) AND t.conversation_id IS NULL))"
        case .lang(let code):
            return "(coalesce(lower(t.lang) = lower(\(conditions.bind(.text(code)))::text), FALSE))"
        case .is(let kind): return "((t.flags & \(TweetFlags(kind).rawValue)) <> 0)"
        case .has(let feature): return "((t.flags & \(TweetFlags(feature).rawValue)) <> 0)"
        // No minimum, as in the SQLite store: every tweet, one with a negative count from its file too.
        case .minLikes(let n) where n <= 0, .minReposts(let n) where n <= 0, .minReplies(let n) where n <= 0:
            return "(TRUE)"
        case .minLikes(let n): return "(t.likes >= \(conditions.bind(.integer(Int64(n)))))"
        case .minReposts(let n): return "(t.reposts >= \(conditions.bind(.integer(Int64(n)))))"
        case .minReplies(let n): return "(t.replies >= \(conditions.bind(.integer(Int64(n)))))"
        case .since(let day):
            let bound = conditions.bind(.integer(TweetRecord.milliseconds(day.startOfDay)))
            return "(coalesce(t.created_at >= \(bound), FALSE))"
        case .until(let day):
            let bound = conditions.bind(.integer(TweetRecord.milliseconds(day.startOfDay)))
            return "(coalesce(t.created_at < \(bound), FALSE))"
        case .xOnly(let name, let value): throw QueryParseError.matchedByXOnly(name: name, value: value)
        }
    }
}
