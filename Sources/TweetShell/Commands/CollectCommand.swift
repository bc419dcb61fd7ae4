import TweetKit

/// The commands that collect and share tweet ids: `hydrate`, `dehydrate` (and `export --ids`), and `rules`.
public enum CollectCommand: Equatable, Sendable {
    /// `hydrate <file> [--into NAME]`.
    case hydrate(path: String, into: String?)
    /// `dehydrate [--in NAME] [query]` (to standard output) or `export --ids <file>` (to a file): the ids of a local
    /// query's matches (inside collection `NAME`, or the current one), or of the current results when there is neither
    /// a query nor `--in`.
    case dehydrate(query: String?, collection: String?, path: String?)
    /// `rules …`.
    case rules(RulesAction)
}

/// What `rules` does.
public enum RulesAction: Equatable, Sendable {
    /// `rules list`.
    case list
    /// `rules add <rule> [--tag T]`.
    case add(rule: String, tag: String?)
    /// `rules check <rule>`: X checks the rule (`dry_run=true`) and nothing changes.
    case check(rule: String)
    /// `rules delete <id|tag|all>`.
    case delete(String)
}

extension CollectCommand {
    /// The command names this file parses.
    static let names: Set<String> = ["hydrate", "dehydrate", "rules"]

    /// Parses a `hydrate`, `dehydrate` or `rules` line.
    static func parse(words: CommandWords) throws(CommandError) -> CollectCommand {
        let name = words.words[0].text.lowercased()
        let rest = Array(words.words.dropFirst())
        switch name {
        case "hydrate":
            var path: String?
            var into: String?
            var index = 0
            while index < rest.count {
                let word = rest[index]
                index += 1
                if word.text == "--into" {
                    guard index < rest.count else {
                        throw CommandError(
                            "hydrate needs a collection's name after --into", column: words.line.count + 1)
                    }
                    into = rest[index].text
                    index += 1
                } else if word.text.hasPrefix("--") {
                    throw CommandError("unknown option '\(word.text)' for hydrate", column: word.offset + 1)
                } else if path == nil {
                    path = word.text
                } else {
                    throw CommandError("hydrate takes one file; unexpected '\(word.text)'", column: word.offset + 1)
                }
            }
            guard let path else {
                throw CommandError(
                    "hydrate needs a file of tweet ids or status URLs, one a line (or a CSV with an id column)",
                    column: words.line.count + 1)
            }
            return .hydrate(path: path, into: into)
        case "dehydrate":
            var collection: String?
            var path: String?
            var queryWords: [CommandWords.Word] = []
            var index = 0
            while index < rest.count {
                let word = rest[index]
                index += 1
                // `> FILE` as a shell would take it (X's syntax has no `>`), so the ids go to the file.
                if word.text.hasPrefix(">"), words.raw(word).hasPrefix(">") {
                    let attached = String(word.text.dropFirst())
                    guard attached.isEmpty ? index < rest.count : true else {
                        throw CommandError("dehydrate needs a file after >", column: words.line.count + 1)
                    }
                    let target = attached.isEmpty ? rest[index] : word
                    if attached.isEmpty { index += 1 }
                    guard index == rest.count else {
                        throw CommandError(
                            "the file after > comes last; unexpected '\(rest[index].text)'",
                            column: rest[index].offset + 1)
                    }
                    path = attached.isEmpty ? target.text : attached
                    continue
                }
                if word.text == "--in" {
                    guard index < rest.count else {
                        throw CommandError(
                            "dehydrate needs a collection's name after --in", column: words.line.count + 1)
                    }
                    collection = rest[index].text
                    index += 1
                } else {
                    queryWords.append(word)
                }
            }
            guard let first = queryWords.first, let last = queryWords.last else {
                return .dehydrate(query: nil, collection: collection, path: path)
            }
            // One run of words is taken as typed (its columns point into the line); `--in` in the middle joins them.
            let firstIndex = rest.firstIndex(of: first) ?? 0
            let contiguous = rest[firstIndex..<min(rest.count, firstIndex + queryWords.count)].elementsEqual(queryWords)
            let query =
                contiguous
                ? String(words.line.dropFirst(first.offset).prefix(last.end - first.offset))
                : queryWords.map { words.raw($0) }.joined(separator: " ")
            try checkQuery(query, at: contiguous ? first.offset : 0, what: "query", for: .local)
            return .dehydrate(query: query, collection: collection, path: path)
        default:
            return .rules(try rulesAction(words))
        }
    }

    /// `export --ids <file>`.
    static func exportIDs(words: CommandWords, flagIndex: Int) throws(CommandError) -> CollectCommand {
        let others = words.words.enumerated().filter { $0.offset != 0 && $0.offset != flagIndex }.map(\.element)
        guard let path = others.first else {
            throw CommandError("export --ids needs a file to write the ids to", column: words.line.count + 1)
        }
        if others.count > 1 {
            throw CommandError(
                "export --ids writes the current results' ids; unexpected '\(others[1].text)'",
                column: others[1].offset + 1)
        }
        return .dehydrate(query: nil, collection: nil, path: path.text)
    }

    private static func rulesAction(_ words: CommandWords) throws(CommandError) -> RulesAction {
        // `rules` alone lists them, as `collections` and `source` show what is there.
        guard words.words.count > 1 else { return .list }
        let verb = words.words[1]
        switch verb.text.lowercased() {
        case "list":
            if words.words.count > 2 {
                throw CommandError(
                    "unexpected '\(words.words[2].text)' after rules list", column: words.words[2].offset + 1)
            }
            return .list
        case "delete":
            guard words.words.count > 2 else {
                throw CommandError(
                    "rules delete needs a rule's id, a tag, or all ('rules list' shows them)",
                    column: words.line.count + 1)
            }
            if words.words.count > 3 {
                throw CommandError(
                    "rules delete takes one id, tag or all; unexpected '\(words.words[3].text)'",
                    column: words.words[3].offset + 1)
            }
            return .delete(words.words[2].text)
        case "add", "check":
            var ruleWords: [CommandWords.Word] = []
            var tag: String?
            var index = 2
            while index < words.words.count {
                let word = words.words[index]
                index += 1
                if word.text == "--tag" {
                    guard verb.text.lowercased() == "add" else {
                        throw CommandError("--tag belongs to rules add", column: word.offset + 1)
                    }
                    guard index < words.words.count else {
                        throw CommandError("rules add needs a tag after --tag", column: words.line.count + 1)
                    }
                    tag = words.words[index].text
                    index += 1
                } else {
                    ruleWords.append(word)
                }
            }
            guard let first = ruleWords.first, let last = ruleWords.last else {
                throw CommandError(
                    "rules \(verb.text.lowercased()) needs a rule in X's query syntax, e.g. #swift lang:en",
                    column: words.line.count + 1)
            }
            // The rule as typed, quotes kept: X's syntax uses them for phrases.
            let contiguous = ruleWords.count == words.words.count - 2
            let rule =
                contiguous
                ? String(words.line.dropFirst(first.offset).prefix(last.end - first.offset))
                : ruleWords.map { words.raw($0) }.joined(separator: " ")
            try checkQuery(rule, at: first.offset, what: "rule", for: .xRules)
            return verb.text.lowercased() == "add" ? .add(rule: rule, tag: tag) : .check(rule: rule)
        default:
            throw CommandError(
                "unknown rules action '\(verb.text)'; expected add, list, delete or check", column: verb.offset + 1)
        }
    }

    /// Parses with tweetsh's query parser, so a syntax error is shown at its column before anything is sent.
    /// Filtered-stream rules take X's rule-only operators too (`bio:`, `sample:`).
    private static func checkQuery(
        _ text: String, at offset: Int, what: String, for target: QueryTarget
    ) throws(CommandError) {
        do {
            _ = try SearchQuery(parsing: text, for: target)
        } catch {
            let column = offset + max(1, error.column)
            throw CommandError(
                "in the \(what) at column \(column): \(shifted(error.message, by: offset))", column: column)
        }
    }

    /// The parser's message with the columns it names (`'(' at column 1`) counted from the line's start.
    private static func shifted(_ message: String, by offset: Int) -> String {
        var result = ""
        var rest = Substring(message)
        while let range = rest.range(of: "at column ") {
            result += rest[..<range.upperBound]
            rest = rest[range.upperBound...]
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            if let number = Int(digits) {
                result += String(number + offset)
                rest = rest.dropFirst(digits.count)
            }
        }
        return result + rest
    }
}
