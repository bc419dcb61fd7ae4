import Foundation

/// Renders results as one line each: number, @handle, age, and the text fitted to the terminal width.
///
/// `  27 @swiftlang        3h     Swift 6.1 is out with …`
///
/// Every piece of tweet and user text goes through `TerminalText` first. Without a width (stdout is not a terminal
/// and neither `--width` nor `COLUMNS` asks for one), a row carries the whole text, its line breaks shown as ` ⏎ `.
public struct CompactRenderer: Sendable {
    /// Columns available; nil for rows that are never cut (piped output).
    public var width: Int?
    /// Colour on or off.
    public var style: Style
    /// The moment ages are measured from.
    public var now: Date

    /// Columns for the handle; longer handles are cut.
    static let handleColumns = 16
    /// Columns for the age (`Mar 14`, `Oct'22`).
    static let ageColumns = 6

    /// What a line break inside a tweet becomes: a space on a terminal, where columns are scarce, and a visible mark
    /// in full-width rows, so a script can still tell where the lines were.
    var lineBreak: String { width == nil ? " ⏎ " : " " }

    /// Creates a renderer; a nil `width` never cuts a row.
    public init(width: Int?, style: Style, now: Date = Date()) {
        self.width = width.map { max(20, $0) }
        self.style = style
        self.now = now
    }

    /// One line for `item`, without a trailing newline. `numberColumns` aligns numbers across a page.
    public func line(for item: ResultItem, numberColumns: Int) -> String {
        let number = String(item.number)
        let numberField = String(repeating: " ", count: max(0, numberColumns - number.count)) + number
        let handle = TerminalText.safe(
            "@" + (item.author?.username ?? item.tweet.authorID.map { "id:\($0)" } ?? "?"), lineBreak: " ")
        let handleField = DisplayWidth.pad(handle, to: Self.handleColumns)
        let ageField = DisplayWidth.pad(RelativeTime.short(item.tweet.createdAt, now: now), to: Self.ageColumns)
        // A retweet's display text already starts with "RT @author:"; a reply gets a marker so threads stand out.
        let marker = item.retweetedAuthor == nil && item.tweet.repliedToID != nil ? "↳ " : ""
        let used = numberColumns + 1 + Self.handleColumns + 1 + Self.ageColumns + 1
        let flat = Self.singleLine(TerminalText.safe(marker + item.text, lineBreak: lineBreak))
        let fitted = width.map { DisplayWidth.truncate(flat, to: max(8, $0 - used)) } ?? flat
        let text = DisplayWidth.isolated(TerminalText.balanced(fitted))
        return "\(style.number(numberField)) \(style.handle(handleField)) \(style.dim(ageField)) \(text)"
    }

    /// Lines for a batch of items, numbers aligned to the widest number in it.
    public func lines(for items: [ResultItem]) -> [String] {
        let columns = max(2, String(items.map(\.number).max() ?? 0).count)
        return items.map { line(for: $0, numberColumns: columns) }
    }

    /// Newlines and tabs become spaces and runs of spaces collapse, so one tweet is one line.
    static func singleLine(_ text: String) -> String {
        // Most texts have nothing to fold: return them without rebuilding.
        var previousWasSpace = false
        var needsFolding = false
        for byte in text.utf8 {
            if byte == 0x0A || byte == 0x0D || byte == 0x09 || (byte == 0x20 && previousWasSpace) {
                needsFolding = true
                break
            }
            previousWasSpace = byte == 0x20
        }
        guard needsFolding else { return text }
        var result = ""
        var lastWasSpace = false
        for character in text {
            let isSpace =
                character == " " || character == "\n" || character == "\t" || character == "\r\n" || character == "\r"
            if isSpace {
                if !lastWasSpace { result.append(" ") }
                lastWasSpace = true
            } else {
                result.append(character)
                lastWasSpace = false
            }
        }
        return result
    }
}
