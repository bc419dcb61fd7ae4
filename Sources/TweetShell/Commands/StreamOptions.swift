import Foundation

/// `stream [--for DURATION] [--limit N] [--into NAME] [--json]`.
public struct StreamOptions: Hashable, Sendable {
    /// Stop after this long (`--for 10m`).
    public var duration: Duration?
    /// Stop after this many tweets (`--limit 500`).
    public var limit: Int?
    /// The collection the tweets join (`--into NAME`); nil for `stream`.
    public var collection: String?
    /// Write twarc2 JSONL lines even on a terminal.
    public var json = false

    /// The collection used without `--into`.
    public static let defaultCollection = "stream"

    /// Creates options.
    public init(duration: Duration? = nil, limit: Int? = nil, collection: String? = nil, json: Bool = false) {
        self.duration = duration
        self.limit = limit
        self.collection = collection
        self.json = json
    }

    /// Parses the words after `stream`.
    static func parse(_ words: CommandWords) throws(CommandError) -> StreamOptions {
        var options = StreamOptions()
        var index = 1
        func value(after flag: CommandWords.Word, _ what: String) throws(CommandError) -> CommandWords.Word {
            index += 1
            guard index < words.words.count else {
                throw CommandError("expected \(what) after \(flag.text)", column: words.line.count + 1)
            }
            return words.words[index]
        }
        while index < words.words.count {
            let word = words.words[index]
            switch word.text {
            case "--for":
                let text = try value(after: word, "a duration such as 30s, 10m or 2h")
                guard let duration = parseDuration(text.text) else {
                    throw CommandError(
                        "'\(text.text)' is not a duration; use a number with s, m or h (30s, 10m, 2h)",
                        column: text.offset + 1)
                }
                options.duration = duration
            case "--limit":
                let text = try value(after: word, "a number of tweets")
                guard let limit = Int(text.text), limit > 0 else {
                    throw CommandError("--limit needs a positive number, not '\(text.text)'", column: text.offset + 1)
                }
                options.limit = limit
            case "--into":
                options.collection = try value(after: word, "a collection's name").text
            case "--json":
                options.json = true
            default:
                throw CommandError(
                    "unknown option '\(word.text)' for stream; it takes --for, --limit, --into and --json "
                        + "(the rules are set with 'rules add')", column: word.offset + 1)
            }
            index += 1
        }
        return options
    }

    /// `90`, `90s`, `10m`, `2h`, `1.5h`: seconds, minutes or hours.
    static func parseDuration(_ text: String) -> Duration? {
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        var number = Substring(text)
        var scale = 1.0
        for (suffix, factor) in units where text.hasSuffix(suffix) {
            number = text.dropLast(suffix.count)
            scale = factor
            break
        }
        guard let value = Double(number), value > 0, value.isFinite, value * scale < 366 * 86_400 else { return nil }
        return .milliseconds(Int64((value * scale * 1000).rounded()))
    }
}
