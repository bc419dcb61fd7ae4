import TweetKit

/// What `help` prints: the command list, and per command its usage, every flag with what it does, examples, and
/// for `search` the whole query language. Every line is wrapped at word boundaries to the terminal's width, with
/// continuation lines indented under the text they continue, so the terminal never breaks a word.
public enum HelpText {
    /// Each flag of each command, with what it does (the usage line alone does not say).
    static let flags: [String: [(flag: String, meaning: String)]] = [
        "search": [
            ("--source x|local", "ask the X API or the local store for this search only"),
            ("--archive", "full-archive search instead of the last 7 days (X API, app-only token)"),
            ("--limit N", "results per page, 1–500 (the API clamps to 10–100, or 10–500 with --archive)"),
            ("--sort recency|relevancy", "newest first (default) or best match first"),
            ("--new", "only tweets newer than the newest the last run of this search saw"),
            ("--refresh", "fetch again instead of answering from the cache"),
        ],
        "again": [
            ("--new", "only tweets newer than the newest the search saw last time"),
            ("--refresh", "fetch again instead of answering from the cache"),
        ],
        "export": [
            ("--format jsonl|flat|csv", "twarc2 pages (default), one tweet per line, or twarc-csv columns"),
            ("--columns a,b,c", "CSV only: just these twarc-csv columns, in this order (listed below)"),
        ],
        "count": [
            (
                "--by minute|hour|day|week|month|year",
                "the bucket width, in UTC (default day; a chart past 120 days widens)"
            ),
            ("--since DATE", "from this date (2024-03-01) or time (2024-03-01T12:00:00Z), inclusive"),
            ("--until DATE", "before this date or time"),
            ("--source x|local", "count in the local store (from the index) or with the X API's counts endpoints"),
            ("--archive", "X API: /2/tweets/counts/all instead of the last 7 days"),
            ("--in NAME", "only this collection, so the local store (not with --source x)"),
            ("--json", "one JSON object per bucket (start, end, count) instead of a chart"),
        ],
        "top": [
            ("hashtags|mentions|authors|domains|langs|words", "what to rank; words leave out stop words and URLs"),
            ("query", "rank every local match of it; without one, the current results"),
            ("--limit N", "rows, 1–1000 (default 10)"),
            ("--in NAME", "only this collection"),
        ],
        "drill": [
            ("N", "row N of the last top list: its query narrowed to #tag, @user, from:, url:, lang: or the word")
        ],
        "stats": [("collection|all", "the collection to describe (default: the current one; all: every one)")],
        "format": [("--columns a,b,c", "with csv: print just these twarc-csv columns, in this order (listed below)")],
        "show": [
            ("n", "result n of the current list (numbers of up to 9 digits)"),
            ("id:ID", "the tweet with that id; a number of 10 or more digits is read as an id too"),
            ("url", "an x.com or twitter.com status URL"),
        ],
        "thread": [
            ("n", "result n of the current list"),
            ("id:ID", "the tweet with that id (or any number of 10 or more digits)"),
        ],
    ]

    /// The query operators, as in docs/query-syntax.md.
    static let operators: [(term: String, meaning: String)] = [
        ("word", "the text contains the word; a plain word also finds its #hashtag"),
        ("\"exact phrase\"", "the words next to each other, in order"),
        ("#tag  $TAG  @user", "carries the hashtag or cashtag, or mentions the user"),
        ("from:user  to:user", "written by the user, or a reply to them"),
        ("lang:xx", "the language X detected (en, pt-br, und)"),
        ("is:retweet|reply|quote", "what kind of tweet it is"),
        ("has:links|media|mentions|hashtags", "what the tweet carries"),
        ("url:text", "an expanded link contains the text"),
        ("conversation_id:ID", "the tweets of one thread"),
        ("min_likes:N  min_reposts:N  min_replies:N", "at least that many"),
        ("since:YYYY-MM-DD  until:YYYY-MM-DD", "posted on or after, or before, that day (UTC)"),
        ("a b   a OR b   (a OR b) c", "a space is AND, OR (capitals) is either, parentheses group"),
        ("-term", "excludes the term: -is:retweet, -\"bad news\" (a group cannot be negated)"),
        (
            "place_country:US  is:verified  has:geo  …",
            "operators only X evaluates: with --source x and in rules (docs/query-syntax.md lists them)"
        ),
    ]

    /// The lines of `help` (no topic) or `help <spec>`, at most `width` columns each.
    public static func lines(for spec: CommandSpec?, width: Int, style: Style) -> [String] {
        let width = max(40, width)
        guard let spec else { return overview(width: width, style: style) }
        var lines = wrap(spec.synopsis, width: width, indent: "", hanging: "    ").map { style.bold($0) }
        lines += wrap(spec.summary, width: width, indent: "  ")
        if !spec.aliases.isEmpty {
            lines += wrap("also: " + spec.aliases.joined(separator: ", "), width: width, indent: "  ")
        }
        if let flags = flags[spec.name] {
            lines.append(spec.name == "show" || spec.name == "thread" ? "  arguments:" : "  flags:")
            lines += table(flags.map { ($0.flag, $0.meaning) }, width: width)
        }
        lines.append("  examples:")
        for example in spec.examples { lines += wrap(example, width: width, indent: "    ", hanging: "      ") }
        if spec.name == "export" || spec.name == "format" {
            lines += wrap(
                "csv columns (twarc-csv 0.7's defaults, in order; docs/store.md):", width: width, indent: "  ")
            lines += wrap(TwarcCSVColumns.twarcDefaults.names.joined(separator: " "), width: width, indent: "    ")
        }
        if spec.name == "search" {
            lines += wrap("query operators (docs/query-syntax.md):", width: width, indent: "  ")
            lines += table(operators.map { ($0.term, $0.meaning) }, width: width)
        }
        return lines
    }

    private static func overview(width: Int, style: Style) -> [String] {
        let nameColumns = (CommandSpec.all.map(\.name.count).max() ?? 8) + 2
        var lines: [String] = []
        for spec in CommandSpec.all {
            let padding = String(repeating: " ", count: nameColumns - spec.name.count)
            let text = wrap(spec.summary, width: width - 2 - nameColumns, indent: "")
            for (index, line) in text.enumerated() {
                lines.append(
                    index == 0
                        ? "  " + style.bold(spec.name) + padding + line
                        : String(repeating: " ", count: 2 + nameColumns) + line)
            }
        }
        lines.append("")
        lines += wrap(
            "!N, !!, !prefix re-run an earlier command; help <command> shows its flags and examples.",
            width: width, indent: "  ")
        lines += wrap(
            "Piped output (stdout not a terminal): each row holds the whole tweet on one line, line breaks shown as ⏎;"
                + " tweetsh --width N, or COLUMNS, cuts rows at N columns.", width: width, indent: "  ")
        return lines
    }

    /// Two columns: the term, then its meaning; when the term is too wide, or the screen too narrow for two
    /// columns, the meaning goes on the lines below it.
    private static func table(_ rows: [(String, String)], width: Int) -> [String] {
        let termColumns = min(26, rows.map { DisplayWidth.of($0.0) }.max() ?? 0)
        let sideBySide = width - (4 + termColumns + 2) >= 24
        let meaningIndent = String(repeating: " ", count: sideBySide ? 4 + termColumns + 2 : 8)
        var lines: [String] = []
        for (term, meaning) in rows {
            let termWidth = DisplayWidth.of(term)
            if sideBySide, termWidth <= termColumns {
                let head = "    " + term + String(repeating: " ", count: termColumns - termWidth + 2)
                let wrapped = wrap(meaning, width: width, indent: meaningIndent)
                for (index, line) in wrapped.enumerated() {
                    lines.append(index == 0 ? head + line.dropFirst(meaningIndent.count) : line)
                }
            } else {
                lines += wrap(term, width: width, indent: "    ", hanging: "      ")
                lines += wrap(meaning, width: width, indent: meaningIndent)
            }
        }
        return lines
    }

    /// `text` in lines of at most `width` columns, broken only between words (a word wider than a line, such as a
    /// URL, stands alone on its line whole): the first line after `indent`, the rest after `hanging` (default: the
    /// same indent).
    static func wrap(_ text: String, width: Int, indent: String, hanging: String? = nil) -> [String] {
        let hanging = hanging ?? indent
        var lines: [String] = []
        var line = indent
        var lineHasWord = false
        for word in text.split(separator: " ") {
            let wordWidth = DisplayWidth.of(word)
            if lineHasWord, DisplayWidth.of(line) + 1 + wordWidth > width {
                lines.append(line)
                line = hanging
                lineHasWord = false
            }
            line += (lineHasWord ? " " : "") + word
            lineHasWord = true
        }
        if lineHasWord { lines.append(line) }
        return lines
    }
}
