import Foundation
import TweetKit

/// A query compiled for the store: one FTS5 expression that drives the search when the query has words to look up,
/// plus SQL conditions on the `tweets` row (alias `t`) for everything else.
struct CompiledQuery {
    /// The FTS5 MATCH expression, when the query's top level has at least one positive text term.
    var match: String?
    /// Conditions that must all hold; each is never NULL, so negating one is safe.
    var conditions: [String] = []
    /// Values for the `?` in `conditions`, in order.
    var bindings: [SQLValue] = []

    mutating func add(_ condition: String, _ values: [SQLValue] = []) {
        conditions.append(condition)
        bindings += values
    }
}

/// Turns the query tree into `CompiledQuery`.
///
/// Text terms of the top-level conjunction (and OR groups made only of text terms) become one FTS5 expression, so the
/// index answers them in id order and stops after a page. Anything mixing text with metadata inside OR, or a query of
/// negations only, falls back to `t.id IN (SELECT rowid ... MATCH ?)` sub-selects, which are correct but slower.
package struct QueryCompiler {
    /// Finds the user ids for a `from:`/`to:` handle.
    package var resolveUser: (String) throws -> [Int64]

    /// A compiler that resolves `from:`/`to:` handles with `resolveUser`.
    package init(resolveUser: @escaping (String) throws -> [Int64]) { self.resolveUser = resolveUser }

    /// The shortest unfinished word `prefixLastWord` widens: a one-letter prefix matches a large part of the index
    /// (150 ms at a million tweets), two letters stay around 30 ms, three and more a few milliseconds.
    package static let shortestPrefix = 2

    /// Compiles `query`; with `prefixLastWord`, a last top-level word, `#tag` or `@mention` also matches the index
    /// terms that start with it (FTS5's `"swi" *`), for results while the word is still being typed.
    func compile(_ query: SearchQuery, prefixLastWord: Bool = false) throws -> CompiledQuery {
        var compiled = CompiledQuery()
        let parts: [QueryExpression]
        if case .and(let children) = query.root { parts = children } else { parts = [query.root] }
        var positives: [String] = []
        var negatives: [String] = []
        var rest: [QueryExpression] = []
        for (index, part) in parts.enumerated() {
            if prefixLastWord, index == parts.count - 1, let text = Self.prefix(part) {
                positives.append(text)
            } else if case .not(let term) = part, let text = try fts(term) {
                negatives.append(text)
            } else if let text = try fts(part) {
                positives.append(text)
            } else {
                rest.append(part)
            }
        }
        if positives.isEmpty {
            for negative in negatives {
                compiled.add("t.id NOT IN (SELECT rowid FROM tweets_fts WHERE tweets_fts MATCH ?)", [.text(negative)])
            }
        } else {
            compiled.match = Self.combine(positives, negatives)
        }
        for part in rest {
            let (sql, values) = try condition(part)
            compiled.add(sql, values)
        }
        if compiled.conditions.count > Self.flatJoin {
            compiled.conditions = [Self.balanced(compiled.conditions[...], " AND ")]
        }
        // SQLite refuses a statement with more parameters than this (SQLITE_MAX_VARIABLE_NUMBER), with an error that
        // would read as a bug; the search and page conditions need a few more.
        guard compiled.bindings.count <= Self.mostValues else {
            throw QueryParseError(
                column: 1,
                message: "the query is too large for the store: it has \(compiled.bindings.count) conditions, "
                    + "and at most \(Self.mostValues) fit one search")
        }
        return compiled
    }

    /// Values one query may bind: SQLite's limit of 32,766 parameters, less room for the search's own.
    static let mostValues = 32_000
    /// Conditions joined in one flat list at most; longer lists nest (`balanced`).
    package static let flatJoin = 16

    /// `parts` joined by `joiner` as a balanced tree of parentheses. SQLite's parser nests a chain of n ORs n deep and
    /// refuses one past 1,000 (SQLITE_MAX_EXPR_DEPTH), so a query of a thousand `-word OR …` terms failed, and
    /// PostgreSQL's `tsquery` input ran out of stack at 20,000; balanced, the depth grows with log n. Lists of up to
    /// `flatJoin` parts come out as before, flat.
    package static func balanced(_ parts: ArraySlice<String>, _ joiner: String) -> String {
        guard parts.count > flatJoin else { return "(" + parts.joined(separator: joiner) + ")" }
        let middle = parts.startIndex + parts.count / 2
        return "(" + balanced(parts[..<middle], joiner) + joiner + balanced(parts[middle...], joiner) + ")"
    }

    // MARK: FTS5

    /// The term's FTS5 column and the phrases (one or more, OR-ed) it looks for there, or nil when it is not an index
    /// term. `from:` and `to:` resolve the handle to user ids first; a handle nobody has is not an index term, so it
    /// becomes the SQL condition that matches nothing. Words and phrases are tokenized as the body is indexed
    /// (`ScriptNGrams`); `prefix` says the phrase ends with a lone CJK or Thai character, matched as a prefix.
    package func columnPhrases(of term: QueryTerm) throws -> (column: String, phrases: [String], prefix: Bool)? {
        switch term {
        case .keyword(let text), .phrase(let text):
            let (tokens, prefix) = ScriptNGrams.queryText(text)
            return ("body", [tokens], prefix)
        case .hashtag(let tag): return ("tags", [tag], false)
        case .cashtag(let tag): return ("cashtags", [tag], false)
        case .mention(let name): return ("mentions", [name], false)
        case .url(let text): return ("urls", [text], false)
        case .from(let handle):
            let ids = try userIDs(handle)
            return ids.isEmpty ? nil : ("refs", ids.map(TweetDocument.authorToken), false)
        case .to(let handle):
            let ids = try userIDs(handle)
            return ids.isEmpty ? nil : ("refs", ids.map(TweetDocument.replyToken), false)
        case .conversationID(let id): return ("refs", [TweetDocument.conversationToken(id.rawValue)], false)
        default: return nil
        }
    }

    /// A word, tag or mention as an FTS5 prefix phrase (`body:"swi" *`), or nil when it is anything else or shorter
    /// than `shortestPrefix`.
    static func prefix(_ expression: QueryExpression) -> String? {
        guard case .term(let term) = expression else { return nil }
        let column: String
        let text: String
        switch term {
        case .keyword(let word): (column, text) = ("body", ScriptNGrams.queryText(word).text)
        case .hashtag(let tag): (column, text) = ("tags", tag)
        case .mention(let name): (column, text) = ("mentions", name)
        default: return nil
        }
        // Only a plain run of letters, digits and `_` is one token (or, split by `ScriptNGrams`, a phrase of bigrams);
        // anything else keeps its exact meaning.
        guard text.count >= shortestPrefix, text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == " " }),
            text.contains(where: { $0 != " " })
        else { return nil }
        return column + ":\"" + text + "\" *"
    }

    /// The term as an FTS5 expression restricted to its column, or nil when it is not an index term or holds nothing
    /// the tokenizer keeps (an emoji, punctuation), which then matches as a substring instead.
    func fts(_ term: QueryTerm) throws -> String? {
        guard let (column, phrases, prefix) = try columnPhrases(of: term),
            phrases.allSatisfy({ $0.contains(where: { $0.isLetter || $0.isNumber || $0 == "_" }) })
        else { return nil }
        let suffix = prefix ? "\" *" : "\""
        // FTS5 reads its expression up to a NUL byte, so a NUL in a phrase (never part of a token) becomes a space.
        let quoted = phrases.map { phrase in
            column + ":\""
                + phrase.replacingOccurrences(of: "\"", with: "\"\"").replacingOccurrences(of: "\u{0}", with: " ")
                + suffix
        }
        return quoted.count == 1 ? quoted[0] : "(" + quoted.joined(separator: " OR ") + ")"
    }

    /// A whole subtree as one FTS5 expression, if it can be one: text terms under AND and OR, with negated text terms
    /// only beside at least one positive (FTS5's NOT is binary).
    func fts(_ expression: QueryExpression) throws -> String? {
        switch expression {
        case .term(let term):
            return try fts(term)
        case .not:
            return nil
        case .and(let parts):
            var positives: [String] = []
            var negatives: [String] = []
            for part in parts {
                if case .not(let term) = part, let text = try fts(term) {
                    negatives.append(text)
                } else if let text = try fts(part) {
                    positives.append(text)
                } else {
                    return nil
                }
            }
            return positives.isEmpty ? nil : Self.combine(positives, negatives)
        case .or(let parts):
            var texts: [String] = []
            for part in parts {
                guard let text = try fts(part) else { return nil }
                texts.append(text)
            }
            return "(" + texts.joined(separator: " OR ") + ")"
        }
    }

    static func combine(_ positives: [String], _ negatives: [String]) -> String {
        let all = positives.count == 1 ? positives[0] : "(" + positives.joined(separator: " AND ") + ")"
        if negatives.isEmpty { return all }
        return "(" + all + " NOT (" + negatives.joined(separator: " OR ") + "))"
    }

    // MARK: SQL

    func condition(_ expression: QueryExpression) throws -> (String, [SQLValue]) {
        switch expression {
        case .term(let term):
            return try condition(term)
        case .not(let term):
            let (sql, values) = try condition(term)
            return ("NOT " + sql, values)
        case .and(let parts), .or(let parts):
            let joiner: String
            if case .and = expression { joiner = " AND " } else { joiner = " OR " }
            var sqls: [String] = []
            var values: [SQLValue] = []
            for part in parts {
                let (sql, partValues) = try condition(part)
                sqls.append(sql)
                values += partValues
            }
            return (Self.balanced(sqls[...], joiner), values)
        }
    }

    /// One term as a parenthesized condition that is never NULL.
    func condition(_ term: QueryTerm) throws -> (String, [SQLValue]) {
        if let text = try fts(term) {
            return ("(t.id IN (SELECT rowid FROM tweets_fts WHERE tweets_fts MATCH ?))", [.text(text)])
        }
        switch term {
        case .keyword(let text), .phrase(let text), .url(let text):
            return ("(instr(t.text, ?) > 0)", [.text(text)])
        case .hashtag(let tag): return ("(instr(t.text, ?) > 0)", [.text("#" + tag)])
        case .cashtag(let tag): return ("(instr(t.text, ?) > 0)", [.text("$" + tag)])
        case .mention(let name): return ("(instr(t.text, ?) > 0)", [.text("@" + name)])
        case .from, .to, .conversationID: return ("(0)", [])  // a handle nobody has: `fts` found no ids
        case .lang(let code): return ("(coalesce(t.lang = ? COLLATE NOCASE, 0))", [.text(code)])
        case .is(let kind): return ("((t.flags & \(TweetFlags(kind).rawValue)) != 0)", [])
        case .has(let feature): return ("((t.flags & \(TweetFlags(feature).rawValue)) != 0)", [])
        // `min_likes:0` asks for no minimum, and it is the query of a whole collection (`search --in NAME`): it
        // matches every tweet, one whose file gave it a negative count too, which `likes >= 0` lost from
        // `dehydrate --in`.
        case .minLikes(let n) where n <= 0, .minReposts(let n) where n <= 0, .minReplies(let n) where n <= 0:
            return ("(1)", [])
        case .minLikes(let n): return ("(t.likes >= ?)", [.integer(Int64(n))])
        case .minReposts(let n): return ("(t.reposts >= ?)", [.integer(Int64(n))])
        case .minReplies(let n): return ("(t.replies >= ?)", [.integer(Int64(n))])
        case .since(let day):
            return ("(coalesce(t.created_at >= ?, 0))", [.integer(TweetRecord.milliseconds(day.startOfDay))])
        case .until(let day):
            return ("(coalesce(t.created_at < ?, 0))", [.integer(TweetRecord.milliseconds(day.startOfDay))])
        case .xOnly(let name, let value): throw QueryParseError.matchedByXOnly(name: name, value: value)
        }
    }

    /// The distinct ids of users with this handle (or this numeric id), smallest first.
    private func userIDs(_ handle: String) throws -> [UInt64] {
        Array(Set(try resolveUser(handle).map { UInt64(bitPattern: $0) })).sorted()
    }
}
