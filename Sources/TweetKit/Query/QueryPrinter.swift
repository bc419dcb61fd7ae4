/// Prints a query tree back in X's syntax, the inverse of `QueryParser` on the trees it produces.
enum QueryPrinter {
    static func render(_ expression: QueryExpression, insideAnd: Bool) -> String {
        switch expression {
        case .term(let term):
            return render(term)
        case .not(let term):
            return "-" + render(term)
        case .and(let parts):
            // A conjunction needs no parentheses anywhere: it binds tighter than OR. A nested one (only in hand-built
            // trees) is parenthesized so the printed text still means the same.
            return parts.map { part in
                if case .and = part { return "(" + render(part, insideAnd: true) + ")" }
                return render(part, insideAnd: true)
            }.joined(separator: " ")
        case .or(let parts):
            let text = parts.map { part in
                if case .or = part { return "(" + render(part, insideAnd: false) + ")" }
                return render(part, insideAnd: false)
            }.joined(separator: " OR ")
            return insideAnd ? "(" + text + ")" : text
        }
    }

    static func render(_ term: QueryTerm) -> String {
        switch term {
        case .keyword(let word): return isBareKeyword(word) ? word : quoted(word)
        case .phrase(let text): return quoted(text)
        case .hashtag(let tag): return "#" + tag
        case .cashtag(let tag): return "$" + tag
        case .mention(let name): return "@" + name
        case .from(let user): return "from:" + user
        case .to(let user): return "to:" + user
        case .lang(let code): return "lang:" + code
        case .is(let kind): return "is:" + kind.rawValue
        case .has(let feature): return "has:" + feature.rawValue
        case .url(let text):
            // A value starting with a combining mark would join the colon into one character, and `url:` would no
            // longer read as the operator; quoted, the parser keeps the quote apart (`QueryParser.characters(of:)`).
            let bare = !QueryParser.holdsSeparator(text) && (":" + text).count == 1 + text.count
            return "url:" + (bare ? text : quoted(text))
        case .conversationID(let id): return "conversation_id:\(id)"
        case .minLikes(let n): return "min_likes:\(n)"
        case .minReposts(let n): return "min_reposts:\(n)"
        case .minReplies(let n): return "min_replies:\(n)"
        case .since(let day): return "since:\(day)"
        case .until(let day): return "until:\(day)"
        case .xOnly(let name, let value):
            // Bracketed values print as normalized; others as `url:` values do, quoted where bare text would misread.
            let bare =
                value.hasPrefix("[")
                ? XOperator.byName[name]?.isBracketed == true
                : !QueryParser.holdsSeparator(value) && (":" + value).count == 1 + value.count
            return name + ":" + (bare ? value : quoted(value))
        }
    }

    /// A quoted string; a quote cannot be escaped in X's syntax, so any inside are dropped.
    static func quoted(_ text: String) -> String {
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: text.unicodeScalars.lazy.filter { $0 != "\"" })
        return "\"" + String(kept) + "\""
    }

    /// Whether `word` would parse back as this same keyword when printed bare.
    static func isBareKeyword(_ word: String) -> Bool {
        guard let first = word.first, word != "OR", !QueryParser.holdsSeparator(word),
            first != "-", first != "#", first != "@"
        else { return false }
        if first == "$", word.dropFirst().first?.isLetter == true { return false }
        if let colon = word.firstIndex(of: ":"), colon != word.startIndex {
            let name = word[..<colon].lowercased()
            if QueryOperator(rawValue: name) != nil || XOperator.byName[name] != nil
                || QueryOperator.unsupported.contains(name)
            {
                return false
            }
        }
        return true
    }
}
