import TweetKit

/// One command the shell can run, parsed from a line.
public enum ShellCommand: Equatable, Sendable {
    /// `search [options] <query>`.
    case search(SearchOptions)
    /// `more [N]`.
    case more(count: Int?)
    /// `show <n|id:ID|url>`.
    case show(TweetReference)
    /// `thread <n|id:ID>`.
    case thread(TweetReference)
    /// `user @handle`.
    case user(String)
    /// `user N`: the tweets of result N's author.
    case userOfResult(Int)
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
    /// `import <path>... [--as NAME]`: files, folders, globs, or `-` for standard input, into a collection.
    case importFiles([String], collection: String?)
    /// `collections`: each collection with its count and dates.
    case collections
    /// `collection [NAME|all]`: shows or sets the collection local searches stay inside.
    case collection(String?)
    /// `drop NAME`: deletes a collection.
    case drop(String)
    /// `export <file> [--format …] [--columns a,b,c] [--all]`; the columns apply to CSV, and `all` writes every match
    /// of the current search, not only the pages shown.
    case export(path: String, format: ExportFormat, columns: TwarcCSVColumns = .twarcDefaults, all: Bool = false)
    /// `backup <file>`: a consistent copy of the store in a new file.
    case backup(path: String)
    /// `format` (show) or `format <kind>` (set); `format csv --columns a,b,c` chooses the CSV's columns.
    case format(OutputFormat?, columns: TwarcCSVColumns = .twarcDefaults)
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
    /// `count`, `top`, `drill N` and `stats` (Sources/TweetShell/Explore).
    case explore(ExploreCommand)
    /// `stream [--for D] [--limit N] [--into NAME] [--json]`: follow the filtered stream (Sources/TweetShell/Stream).
    case stream(StreamOptions)
    /// `hydrate`, `dehydrate`, `export --ids` and `rules` (Sources/TweetShell/Collect).
    case collect(CollectCommand)
}

/// What `search` was asked for.
public struct SearchOptions: Equatable, Sendable {
    /// The query that every stored tweet matches, run by `search --in NAME`, `count --in NAME` and `dehydrate --in NAME`
    /// with no query of their own: the whole collection. X's language has no empty query, and this one keeps the
    /// search history and `again` working as for any other.
    public static let wholeCollection = "min_likes:0"

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
    /// `--allow-secret`: send a word shaped like a bearer token to the API anyway (it is not the user's own token;
    /// that one is never sent).
    public var allowSecretShapes = false
    /// Whether running the search records it in the search history (`history searches`). Live search turns this
    /// off for the queries typed on the way and records only the one the user keeps.
    public var recordsHistory = true
    /// The last word may be unfinished (live search on the local store): it also matches words starting with it.
    public var prefixLastWord = false
    /// `--in NAME`: only tweets of that collection (local store).
    public var collection: String?

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

    /// Parses `27`, `id:20`, `1460323737035677698` or `https://x.com/user/status/1460323737035677698`.
    /// A number of up to 9 digits is a result number; `id:N` and any number of 10 or more digits are tweet ids (every
    /// tweet id since 2010 has at least 17), so `show 20` is result 20 and `show id:20` is tweet 20.
    public init?(_ text: String) {
        if let slash = text.range(of: "/status/") {
            let tail = text[slash.upperBound...].prefix { $0.isNumber }
            guard let id = TweetID(tail) else { return nil }
            self = .id(id)
        } else if text.lowercased().hasPrefix("id:") {
            let digits = text.dropFirst(3)
            guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let id = TweetID(digits) else { return nil }
            self = .id(id)
        } else if text.count < 10, text.allSatisfy(\.isASCII), let n = Int(text), n > 0 {
            self = .index(n)
        } else if text.count >= 10, text.allSatisfy(\.isASCII), let id = TweetID(text) {
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
        try parse(words: CommandWords(line))
    }

    /// Parses a one-shot command from words the user's shell already split (`tweetsh search '"open data"'`): each
    /// argument is one word, verbatim, so quotes and `;` inside it stay part of it.
    public static func parse(arguments: [String]) throws(CommandError) -> ShellCommand {
        try parse(words: CommandWords(arguments: arguments))
    }

    private static func parse(words: CommandWords) throws(CommandError) -> ShellCommand {
        guard let first = words.words.first else { throw CommandError("empty command") }
        guard let spec = CommandSpec.named(first.text) else {
            let hint =
                CommandSpec.suggestion(for: first.text).map { "; did you mean '\($0)'?" }
                ?? "; type 'help' for the list"
            throw CommandError("unknown command '\(first.text)'\(hint)", column: first.offset + 1)
        }
        if ExploreCommand.names.contains(spec.name) {
            return .explore(try ExploreCommand.parse(words: words, name: spec.name))
        }
        if CollectCommand.names.contains(spec.name) { return .collect(try CollectCommand.parse(words: words)) }
        if spec.name == "export", let flag = words.words.firstIndex(where: { $0.text == "--ids" }) {
            return .collect(try CollectCommand.exportIDs(words: words, flagIndex: flag))
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
            // A bare number is a result, as for show and open; a handle of digits alone is written with its @.
            if let number = Int(word.text), number > 0, !word.text.hasPrefix("+") {
                try parser.end()
                return .userOfResult(number)
            }
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
            var paths: [String] = []
            var collection: String?
            while let word = parser.next() {
                if word.text == "--as" {
                    collection = try parser.required("a collection's name after --as").text
                } else if word.text.hasPrefix("--") {
                    throw CommandError("unknown option '\(word.text)' for import", column: word.offset + 1)
                } else {
                    paths.append(word.text)
                }
            }
            guard !paths.isEmpty else {
                throw CommandError(
                    "expected a file or folder to import (or - for standard input)", column: words.line.count + 1)
            }
            return .importFiles(paths, collection: collection)
        case "collections":
            try parser.end()
            return .collections
        case "collection":
            let name = parser.next()?.text
            try parser.end()
            return .collection(name)
        case "drop":
            let name = try parser.required("the name of a collection to drop (see 'collections')")
            try parser.end()
            return .drop(name.text)
        case "export":
            // The file and the flags come in any order: `export --all out.jsonl` used to write a file named
            // `--all` (a name that starts with `-` is written `./-name`).
            var path: CommandWords.Word?
            var chosenFormat: ExportFormat?
            var all = false
            var columns: (TwarcCSVColumns, flag: CommandWords.Word)?
            while let word = parser.next() {
                switch word.text {
                case "--format":
                    let value = try parser.required("jsonl, flat or csv after --format")
                    guard let f = ExportFormat(rawValue: value.text.lowercased()) else {
                        throw CommandError(
                            "unknown export format '\(value.text)'; expected jsonl, flat or csv",
                            column: value.offset + 1)
                    }
                    chosenFormat = f
                case "--columns": columns = (try parser.csvColumns(), word)
                case "--all": all = true
                case let text where text.hasPrefix("-") && text != "-":
                    // `-` alone is standard output, as `import -` is standard input.
                    throw CommandError("unknown option '\(text)' for export", column: word.offset + 1)
                default:
                    if let path {
                        throw CommandError(
                            "export writes one file, '\(path.text)'; '\(word.text)' would be a second",
                            column: word.offset + 1)
                    }
                    path = word
                }
            }
            guard let path else {
                throw CommandError(
                    "export needs a file to write, e.g. export results.jsonl", column: words.line.count + 1)
            }
            let format = chosenFormat ?? (path.text.lowercased().hasSuffix(".csv") ? .csv : .twarc2JSONL)
            if let columns, format != .csv {
                throw CommandError(
                    "--columns chooses CSV columns; add --format csv or name the file .csv",
                    column: columns.flag.offset + 1)
            }
            return .export(path: path.text, format: format, columns: columns?.0 ?? .twarcDefaults, all: all)
        case "backup":
            let path = try parser.required("a new file to write the copy to")
            try parser.end()
            return .backup(path: path.text)
        case "format":
            let kind = try parser.optionalKeyword(OutputFormat.allCases.map(\.rawValue))
            var columns = TwarcCSVColumns.twarcDefaults
            if let flag = parser.next() {
                guard flag.text == "--columns", kind == OutputFormat.csv.rawValue else {
                    let message =
                        flag.text == "--columns"
                        ? "--columns applies to csv: format csv --columns a,b,c"
                        : "unexpected '\(flag.text)' after format"
                    throw CommandError(message, column: flag.offset + 1)
                }
                columns = try parser.csvColumns()
            }
            try parser.end()
            return .format(kind.flatMap(OutputFormat.init(rawValue:)), columns: columns)
        case "limits":
            try parser.end()
            return .limits
        case "clear":
            try parser.end()
            return .clear
        case "live":
            let query = words.rest(from: 1)
            return .live(query.isEmpty ? nil : query)
        case "stream": return .stream(try StreamOptions.parse(words))
        case "help":
            let topic = parser.next()?.text
            try parser.end()
            return .help(topic)
        default:
            // `quit` and `exit` leave whatever follows them (`exit now`), as a shell's `exit` would.
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

    /// The list after `--columns`: twarc-csv column names separated by commas, each checked.
    mutating func csvColumns() throws(CommandError) -> TwarcCSVColumns {
        let value = try required("column names after --columns, such as id,text,author.username")
        do {
            return try TwarcCSVColumns(parsing: value.text)
        } catch {
            throw CommandError(error.description, column: value.offset + 1 + error.offset)
        }
    }

    mutating func reference() throws(CommandError) -> TweetReference {
        let word = try required("a result number, id:<tweet id> or a tweet URL")
        guard let reference = TweetReference(word.text) else {
            throw CommandError(
                "expected a result number, id:<tweet id> or a tweet URL, found '\(word.text)'", column: word.offset + 1)
        }
        return reference
    }

    /// `--flags` wherever they stand (X's syntax has no `--`), and the other words, raw, as the query.
    mutating func searchOptions() throws(CommandError) -> SearchOptions {
        var options = SearchOptions(query: "")
        var queryWords: [String] = []
        var inColumn: Int?
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
            case "--allow-secret": options.allowSecretShapes = true
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
            case "--in":
                inColumn = flag.offset + 1
                options.collection = try required("a collection's name after --in (see 'collections')").text
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
        if options.query.isEmpty, options.collection != nil { options.query = SearchOptions.wholeCollection }
        guard !options.query.isEmpty else {
            throw CommandError(
                "search needs a query, e.g. search swift lang:en (or --in NAME alone for a whole collection)",
                column: words.line.count + 1)
        }
        options.source = try SourceKind.searched(options.source, inColumn: inColumn)
        return options
    }
}

extension SourceKind {
    /// The source of a search or count given `--in` at `inColumn`: a collection is the local store's, so `--in` sends
    /// it there (X would otherwise be searched with the collection silently left out), and refuses `--source x`.
    static func searched(_ source: SourceKind?, inColumn: Int?) throws(CommandError) -> SourceKind? {
        guard let inColumn else { return source }
        guard source != .x else {
            throw CommandError(
                "--in names a collection of the local store, which --source x does not search; leave one out",
                column: inColumn)
        }
        return .local
    }
}
