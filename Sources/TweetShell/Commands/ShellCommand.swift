import TweetKit

/// One command the shell can run, parsed from a line.
public enum ShellCommand: Equatable, Sendable {
    /// `search [options] <query>`.
    case search(SearchOptions)
    /// `more [N]`.
    case more(count: Int?)
    /// `show <n|id|url>`.
    case show(TweetReference)
    /// `thread <n|id>`.
    case thread(TweetReference)
    /// `user @handle`.
    case user(String)
    /// `open <n>`.
    case open(Int)
    /// `auth`, `auth status`, `auth logout`.
    case auth(AuthAction)
    /// `history` or `history searches`.
    case history(searches: Bool)
    /// `again N [--new] [--refresh]`.
    case again(Int, new: Bool, refresh: Bool)
    /// `source` (show) or `source x|local` (set).
    case source(SourceKind?)
    /// `import <path>`.
    case importFile(String)
    /// `export <file> [--format …] [--all]`; `all` writes every match of the current search, not only the pages shown.
    case export(path: String, format: ExportFormat, all: Bool = false)
    /// `format` (show) or `format <kind>` (set).
    case format(OutputFormat?)
    /// `limits`.
    case limits
    /// `clear`.
    case clear
    /// `help [command]`.
    case help(String?)
    /// `quit` or `exit`.
    case quit
    /// `live [query]`: results that update as you type (Sources/TweetShell/Live).
    case live(String?)
}

/// What `search` was asked for.
public struct SearchOptions: Equatable, Sendable {
    /// The query, raw, in X's syntax.
    public var query: String
    /// `--source`: nil means the current source.
    public var source: SourceKind?
    /// `--archive`: full-archive search (API).
    public var fullArchive = false
    /// `--limit N`: results per page.
    public var limit: Int?
    /// `--sort`.
    public var sort: SearchRequest.Sort?
    /// `--new`: only tweets newer than the last run of the same search.
    public var newOnly = false
    /// `--refresh`: fetch again instead of answering from the cache.
    public var refresh = false
    /// Whether running the search records it in the search history (`history searches`). Live search turns this
    /// off for the queries typed on the way and records only the one the user keeps.
    public var recordsHistory = true
    /// The last word may be unfinished (live search on the local store): it also matches words starting with it.
    public var prefixLastWord = false

    /// Creates options for a query.
    public init(
        query: String, source: SourceKind? = nil, fullArchive: Bool = false, limit: Int? = nil,
        sort: SearchRequest.Sort? = nil, newOnly: Bool = false, refresh: Bool = false
    ) {
        self.query = query
        self.source = source
        self.fullArchive = fullArchive
        self.limit = limit
        self.sort = sort
        self.newOnly = newOnly
        self.refresh = refresh
    }
}

/// How a command names a tweet: its number in the current results, its id, or its URL.
public enum TweetReference: Equatable, Sendable {
    /// The 1-based number in the current result list.
    case index(Int)
    /// A tweet id.
    case id(TweetID)

    /// Parses `27`, `1460323737035677698` or `https://x.com/user/status/1460323737035677698`.
    /// Numbers of up to 6 digits are result numbers; longer ones are tweet ids.
    public init?(_ text: String) {
        if let slash = text.range(of: "/status/") {
            let tail = text[slash.upperBound...].prefix { $0.isNumber }
            guard let id = TweetID(tail) else { return nil }
            self = .id(id)
        } else if text.count <= 6, let n = Int(text), n > 0 {
            self = .index(n)
        } else if let id = TweetID(text) {
            self = .id(id)
        } else {
            return nil
        }
    }
}

/// Where searches go.
public enum SourceKind: String, Equatable, Sendable, CaseIterable {
    /// The X API v2.
    case x
    /// The local SQLite store.
    case local
}

/// What `auth` does.
public enum AuthAction: Equatable, Sendable {
    /// Ask for a bearer token, or a key and secret, without echo.
    case interactive
    /// Show whether credentials are present, the token masked.
    case status
    /// Remove stored credentials and invalidate the token, best effort.
    case logout
}

/// How results are printed.
public enum OutputFormat: String, Equatable, Sendable, CaseIterable {
    /// One numbered line per tweet.
    case compact
    /// Each tweet in full.
    case detail
    /// twarc2-compatible JSON lines.
    case json
    /// twarc-csv columns.
    case csv
}

extension ShellCommand {
    /// Parses one command line (history expansion such as `!3` has already been applied).
    public static func parse(_ line: String) throws(CommandError) -> ShellCommand {
        let words = try CommandWords(line)
        guard let first = words.words.first else { throw CommandError("empty command") }
        guard let spec = CommandSpec.named(first.text) else {
            let hint =
                CommandSpec.suggestion(for: first.text).map { "; did you mean '\($0)'?" }
                ?? "; type 'help' for the list"
            throw CommandError("unknown command '\(first.text)'\(hint)", column: first.offset + 1)
        }
        var parser = ArgumentParser(words: words, command: spec.name)
        switch spec.name {
        case "search": return .search(try parser.searchOptions())
        case "more":
            let count = try parser.optionalPositiveInt("count")
            try parser.end()
            return .more(count: count)
        case "show", "thread":
            let reference = try parser.reference()
            try parser.end()
            return spec.name == "show" ? .show(reference) : .thread(reference)
        case "user":
            let word = try parser.required("a @handle")
            let handle = word.text.hasPrefix("@") ? String(word.text.dropFirst()) : word.text
            guard !handle.isEmpty, handle.count <= 15,
                handle.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
            else {
                throw CommandError(
                    "'\(word.text)' is not a valid handle (letters, digits and _, at most 15)", column: word.offset + 1)
            }
            try parser.end()
            return .user(handle)
        case "open":
            let word = try parser.required("a result number")
            guard let n = Int(word.text), n > 0 else {
                throw CommandError("expected a result number, found '\(word.text)'", column: word.offset + 1)
            }
            try parser.end()
            return .open(n)
        case "auth":
            let action = try parser.optionalKeyword(["status", "logout"])
            try parser.end()
            return .auth(action == "status" ? .status : action == "logout" ? .logout : .interactive)
        case "history":
            let which = try parser.optionalKeyword(["searches"])
            try parser.end()
            return .history(searches: which != nil)
        case "again":
            let word = try parser.required("a search number from 'history searches'")
            guard let n = Int(word.text), n > 0 else {
                throw CommandError("expected a search number, found '\(word.text)'", column: word.offset + 1)
            }
            var new = false
            var refresh = false
            while let flag = parser.next() {
                switch flag.text {
                case "--new": new = true
                case "--refresh": refresh = true
                default: throw CommandError("unknown option '\(flag.text)' for again", column: flag.offset + 1)
                }
            }
            return .again(n, new: new, refresh: refresh)
        case "source":
            let kind = try parser.optionalKeyword(SourceKind.allCases.map(\.rawValue))
            try parser.end()
            return .source(kind.flatMap(SourceKind.init(rawValue:)))
        case "import":
            let path = try parser.required("a file or folder to import")
            try parser.end()
            return .importFile(path.text)
        case "export":
            let path = try parser.required("a file to write")
            var format = ExportFormat.twarc2JSONL
            var all = false
            if path.text.lowercased().hasSuffix(".csv") { format = .csv }
            while let flag = parser.next() {
                if flag.text == "--all" {
                    all = true
                    continue
                }
                guard flag.text == "--format" else {
                    throw CommandError("unknown option '\(flag.text)' for export", column: flag.offset + 1)
                }
                let value = try parser.required("jsonl, flat or csv after --format")
                guard let f = ExportFormat(rawValue: value.text.lowercased()) else {
                    throw CommandError(
                        "unknown export format '\(value.text)'; expected jsonl, flat or csv", column: value.offset + 1)
                }
                format = f
            }
            return .export(path: path.text, format: format, all: all)
        case "format":
            let kind = try parser.optionalKeyword(OutputFormat.allCases.map(\.rawValue))
            try parser.end()
            return .format(kind.flatMap(OutputFormat.init(rawValue:)))
        case "limits":
            try parser.end()
            return .limits
        case "clear":
            try parser.end()
            return .clear
        case "live":
            let query = words.rest(from: 1)
            return .live(query.isEmpty ? nil : query)
        case "help":
            let topic = parser.next()?.text
            try parser.end()
            return .help(topic)
        default:
            try parser.end()
            return .quit
        }
    }
}

/// Walks a command's words after its name.
private struct ArgumentParser {
    let words: CommandWords
    let command: String
    var index = 1

    init(words: CommandWords, command: String) {
        self.words = words
        self.command = command
    }

    mutating func next() -> CommandWords.Word? {
        guard index < words.words.count else { return nil }
        defer { index += 1 }
        return words.words[index]
    }

    mutating func required(_ what: String) throws(CommandError) -> CommandWords.Word {
        guard let word = next() else {
            throw CommandError("\(command) needs \(what)", column: words.line.count + 1)
        }
        return word
    }

    func end() throws(CommandError) {
        guard index < words.words.count else { return }
        let extra = words.words[index]
        throw CommandError("unexpected '\(extra.text)' after \(command)", column: extra.offset + 1)
    }

    mutating func optionalKeyword(_ allowed: [String]) throws(CommandError) -> String? {
        guard let word = next() else { return nil }
        let lowered = word.text.lowercased()
        guard allowed.contains(lowered) else {
            throw CommandError(
                "expected \(allowed.joined(separator: " or ")) after \(command), found '\(word.text)'",
                column: word.offset + 1)
        }
        return lowered
    }

    mutating func optionalPositiveInt(_ what: String) throws(CommandError) -> Int? {
        guard let word = next() else { return nil }
        guard let n = Int(word.text), n > 0 else {
            throw CommandError("expected a positive \(what), found '\(word.text)'", column: word.offset + 1)
        }
        return n
    }

    mutating func reference() throws(CommandError) -> TweetReference {
        let word = try required("a result number, tweet id or tweet URL")
        guard let reference = TweetReference(word.text) else {
            throw CommandError(
                "expected a result number, tweet id or tweet URL, found '\(word.text)'", column: word.offset + 1)
        }
        return reference
    }

    /// `--flags` wherever they stand (X's syntax has no `--`), and the other words, raw, as the query.
    mutating func searchOptions() throws(CommandError) -> SearchOptions {
        var options = SearchOptions(query: "")
        var queryWords: [String] = []
        while index < words.words.count {
            let flag = words.words[index]
            index += 1
            guard flag.text.hasPrefix("--"), !flag.text.hasPrefix("---") else {
                queryWords.append(words.raw(flag))
                continue
            }
            switch flag.text {
            case "--archive": options.fullArchive = true
            case "--new": options.newOnly = true
            case "--refresh": options.refresh = true
            case "--source":
                let value = try required("x or local after --source")
                guard let kind = SourceKind(rawValue: value.text.lowercased()) else {
                    throw CommandError("unknown source '\(value.text)'; expected x or local", column: value.offset + 1)
                }
                options.source = kind
            case "--limit":
                let value = try required("a number after --limit")
                guard let n = Int(value.text), (1...500).contains(n) else {
                    throw CommandError(
                        "--limit takes a number from 1 to 500, found '\(value.text)'", column: value.offset + 1)
                }
                options.limit = n
            case "--sort":
                let value = try required("recency or relevancy after --sort")
                guard let sort = SearchRequest.Sort(rawValue: value.text.lowercased()) else {
                    throw CommandError(
                        "unknown sort '\(value.text)'; expected recency or relevancy", column: value.offset + 1)
                }
                options.sort = sort
            default:
                throw CommandError("unknown option '\(flag.text)' for search", column: flag.offset + 1)
            }
        }
        options.query = queryWords.joined(separator: " ")
        guard !options.query.isEmpty else {
            throw CommandError("search needs a query, e.g. search swift lang:en", column: words.line.count + 1)
        }
        return options
    }
}
