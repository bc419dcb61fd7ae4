import Foundation
import TweetKit

/// The explore commands: `count`, `top`, `drill` and `stats`.
public enum ExploreCommand: Equatable, Sendable {
    /// `count <query> [--by …] [--since DATE] [--until DATE] [--source x|local] [--archive] [--in NAME] [--json]`.
    case count(CountOptions)
    /// `top hashtags|mentions|authors|domains|langs|words [query] [--limit N] [--in NAME]`.
    case top(TopOptions)
    /// `drill N`: the last top list's query narrowed to row N, as a new search.
    case drill(Int)
    /// `stats [collection]`.
    case stats(collection: String?)
}

/// What `count` was asked for.
public struct CountOptions: Equatable, Sendable {
    /// The query, raw.
    public var query: String
    /// `--by`.
    public var granularity: CountGranularity = .day
    /// Whether `--by` was given; without it a chart of many days draws weeks or months (`CountSeries.widened`).
    public var granularityGiven = false
    /// `--since DATE`: from this time (inclusive).
    public var since: Date?
    /// `--until DATE`: before this time.
    public var until: Date?
    /// `--source`: nil means the current source.
    public var source: SourceKind?
    /// `--archive`: the API's full-archive counts.
    public var fullArchive = false
    /// `--in NAME`: a collection (local).
    public var collection: String?
    /// `--json`: one JSON object per bucket instead of a chart.
    public var json = false

    /// Creates options.
    public init(query: String, granularity: CountGranularity = .day) {
        self.query = query
        self.granularity = granularity
    }
}

/// What `top` was asked for.
public struct TopOptions: Equatable, Sendable {
    /// What to rank.
    public var kind: TopKind
    /// The query to rank over; nil ranks the current results.
    public var query: String?
    /// `--limit N` rows.
    public var limit = 10
    /// `--in NAME`: a collection (local).
    public var collection: String?
    /// The current results, when `query` is nil (the session fills it in).
    public var results: ResultList?

    /// Creates options.
    public init(kind: TopKind, query: String? = nil, limit: Int = 10) {
        self.kind = kind
        self.query = query
        self.limit = limit
    }
}

extension ExploreCommand {
    /// The command names this file parses.
    static let names: Set<String> = ["count", "top", "drill", "stats"]

    /// Parses one of the explore commands from a line's words (the first word is the command's name).
    static func parse(words: CommandWords, name: String) throws(CommandError) -> ExploreCommand {
        var index = 1
        func next() -> CommandWords.Word? {
            guard index < words.words.count else { return nil }
            defer { index += 1 }
            return words.words[index]
        }
        func value(_ what: String) throws(CommandError) -> CommandWords.Word {
            guard let word = next() else { throw CommandError("\(name) needs \(what)", column: words.line.count + 1) }
            return word
        }
        switch name {
        case "drill":
            let word = try value("a row number of the last 'top' list")
            guard let n = Int(word.text), n > 0, index == words.words.count else {
                throw CommandError(
                    "expected a row number of the last 'top' list, found '\(word.text)'", column: word.offset + 1)
            }
            return .drill(n)
        case "stats":
            let collection = next()?.text
            if let extra = next() {
                throw CommandError("unexpected '\(extra.text)' after stats", column: extra.offset + 1)
            }
            return .stats(collection: collection)
        case "top":
            let kindWord = try value("what to rank: " + TopKind.allCases.map(\.rawValue).joined(separator: ", "))
            guard let kind = TopKind(rawValue: kindWord.text.lowercased()) else {
                throw CommandError(
                    "cannot rank '\(kindWord.text)'; expected "
                        + TopKind.allCases.map(\.rawValue).joined(separator: ", "),
                    column: kindWord.offset + 1)
            }
            var options = TopOptions(kind: kind)
            var queryWords: [String] = []
            while let word = next() {
                switch word.text {
                case "--limit":
                    let limit = try value("a number after --limit")
                    guard let n = Int(limit.text), (1...1_000).contains(n) else {
                        throw CommandError(
                            "--limit takes a number from 1 to 1000, found '\(limit.text)'", column: limit.offset + 1)
                    }
                    options.limit = n
                case "--in": options.collection = try value("a collection's name after --in").text
                default:
                    guard !word.text.hasPrefix("--") else {
                        throw CommandError("unknown option '\(word.text)' for top", column: word.offset + 1)
                    }
                    queryWords.append(words.raw(word))
                }
            }
            options.query = queryWords.isEmpty ? nil : queryWords.joined(separator: " ")
            // `--in NAME` alone ranks that whole collection, as `search --in NAME` and `count --in NAME` cover it.
            if options.query == nil, options.collection != nil { options.query = SearchOptions.wholeCollection }
            return .top(options)
        default:
            var options = CountOptions(query: "")
            var queryWords: [String] = []
            var inColumn: Int?
            while let word = next() {
                switch word.text {
                case "--by":
                    let by = try value("minute, hour, day, week, month or year after --by")
                    guard let granularity = CountGranularity(rawValue: by.text.lowercased()) else {
                        throw CommandError(
                            "unknown bucket '\(by.text)'; expected minute, hour, day, week, month or year",
                            column: by.offset + 1)
                    }
                    options.granularity = granularity
                    options.granularityGiven = true
                case "--since", "--until":
                    let date = try value("a date (2024-03-01) or time (2024-03-01T12:00:00Z) after \(word.text)")
                    guard let parsed = Self.date(date.text) else {
                        throw CommandError(
                            "'\(date.text)' is not a date; use 2024-03-01 or 2024-03-01T12:00:00Z (UTC)",
                            column: date.offset + 1)
                    }
                    if word.text == "--since" { options.since = parsed } else { options.until = parsed }
                case "--source":
                    let source = try value("x or local after --source")
                    guard let kind = SourceKind(rawValue: source.text.lowercased()) else {
                        throw CommandError(
                            "unknown source '\(source.text)'; expected x or local", column: source.offset + 1)
                    }
                    options.source = kind
                case "--archive": options.fullArchive = true
                case "--json": options.json = true
                case "--in":
                    inColumn = word.offset + 1
                    options.collection = try value("a collection's name after --in").text
                default:
                    guard !word.text.hasPrefix("--") else {
                        throw CommandError("unknown option '\(word.text)' for count", column: word.offset + 1)
                    }
                    queryWords.append(words.raw(word))
                }
            }
            options.query = queryWords.joined(separator: " ")
            if options.query.isEmpty, options.collection != nil { options.query = SearchOptions.wholeCollection }
            guard !options.query.isEmpty else {
                throw CommandError(
                    "count needs a query, e.g. count coffee --by day (or --in NAME alone for a whole collection)",
                    column: words.line.count + 1)
            }
            if let since = options.since, let until = options.until, since >= until {
                throw CommandError("--since must be before --until")
            }
            options.source = try SourceKind.searched(options.source, inColumn: inColumn)
            return .count(options)
        }
    }

    /// `2024-03-01` (midnight UTC) or an ISO 8601 time with a zone.
    static func date(_ text: String) -> Date? {
        if let day = QueryDate(text) { return day.startOfDay }
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
