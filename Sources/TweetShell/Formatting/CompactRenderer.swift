import Foundation

/// Renders results as one line each: number, @handle, age, and the text fitted to the terminal width.
///
/// `  27 @swiftlang        3h     Swift 6.1 is out with …`
public struct CompactRenderer: Sendable {
    /// Terminal columns available.
    public var width: Int
    /// Colour on or off.
    public var style: Style
    /// The moment ages are measured from.
    public var now: Date

    /// Columns for the handle; longer handles are cut.
    static let handleColumns = 16
    /// Columns for the age (`Mar 14`, `Oct'22`).
    static let ageColumns = 6

    /// Creates a renderer.
    public init(width: Int, style: Style, now: Date = Date()) {
        self.width = max(20, width)
        self.style = style
        self.now = now
    }

    /// One line for `item`, without a trailing newline. `numberColumns` aligns numbers across a page.
    public func line(for item: ResultItem, numberColumns: Int) -> String {
        let number = String(item.number)
        let numberField = String(repeating: " ", count: max(0, numberColumns - number.count)) + number
        let handle = "@" + (item.author?.username ?? item.tweet.authorID.map { "id:\($0)" } ?? "?")
        let handleField = DisplayWidth.pad(handle, to: Self.handleColumns)
        let ageField = DisplayWidth.pad(RelativeTime.short(item.tweet.createdAt, now: now), to: Self.ageColumns)
        // A retweet's display text already starts with "RT @author:"; a reply gets a marker so threads stand out.
        let marker = item.retweetedAuthor == nil && item.tweet.repliedToID != nil ? "↳ " : ""
        let used = numberColumns + 1 + Self.handleColumns + 1 + Self.ageColumns + 1
        let textWidth = max(8, width - used)
        let flat = Self.singleLine(marker + item.text)
        let text = DisplayWidth.isolated(DisplayWidth.truncate(flat, to: textWidth))
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
