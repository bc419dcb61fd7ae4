/// How many terminal columns text occupies, measured per grapheme cluster.
///
/// Terminals give East Asian wide and fullwidth characters and emoji two columns, combining marks and other zero-width
/// scalars none. Counting `Character`s or bytes misplaces everything after the first emoji or CJK character.
public enum DisplayWidth {
    /// The number of columns `text` occupies.
    public static func of<S: StringProtocol>(_ text: S) -> Int {
        if let ascii = printableASCIICount(text) { return ascii }
        var total = 0
        for character in text {
            total += of(character)
        }
        return total
    }

    /// The number of columns one grapheme cluster occupies: 0, 1 or 2.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.value < 0x7F {
            // ASCII fast path; control characters take no column (tabs and newlines are removed before layout).
            return first.value < 0x20 ? 0 : 1
        }
        // A variation selector 16 or a zero-width joiner sequence asks for emoji presentation: two columns.
        if scalars.count > 1, scalars.contains(where: { $0.value == 0xFE0F || $0.value == 0x200D }) {
            return 2
        }
        var width = 0
        for scalar in scalars {
            width = max(width, scalarWidth(scalar))
        }
        return width
    }

    /// The length of `text` when it is all printable ASCII (one column per byte), else nil. Most tweets and handles
    /// are, and walking grapheme clusters costs far more than counting bytes.
    static func printableASCIICount<S: StringProtocol>(_ text: S) -> Int? {
        var count = 0
        for byte in text.utf8 {
            guard byte >= 0x20, byte < 0x7F else { return nil }
            count += 1
        }
        return count
    }

    /// Columns for one scalar, with the East Asian Width property's wide and fullwidth ranges.
    static func scalarWidth(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control, .lineSeparator, .paragraphSeparator:
            return 0
        default:
            break
        }
        if value == 0x200B || (0x1160...0x11FF).contains(value) { return 0 }  // zero-width space, Hangul medial jamo
        if scalar.properties.isEmojiPresentation { return 2 }
        if isWide(value) { return 2 }
        return 1
    }

    private static func isWide(_ v: UInt32) -> Bool {
        switch v {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
            0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
            0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// `text` cut to at most `width` columns, ending in `…` when something was cut.
    /// Never splits a grapheme cluster, so an emoji or a letter with its accents stays whole.
    public static func truncate(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if let ascii = printableASCIICount(text) {
            return ascii <= width ? text : String(text.utf8.prefix(width - 1))! + "…"
        }
        if of(text) <= width { return text }
        var result = ""
        var used = 0
        for character in text {
            let w = of(character)
            if used + w > width - 1 { break }
            result.append(character)
            used += w
        }
        return result + "…"
    }

    /// Spaces up to `column` (1-based, in characters) of `text`, then `^`: a pointer printed under the text.
    public static func caret(under text: String, column: Int) -> String {
        // Measured as printed: the line above the caret went through `TerminalText`, where a control takes a column.
        String(repeating: " ", count: of(TerminalText.safe(String(text.prefix(max(0, column - 1)))))) + "^"
    }

    /// `text` padded with spaces on the right to exactly `width` columns (or truncated if longer).
    public static func pad(_ text: String, to width: Int) -> String {
        let truncated = truncate(text, to: width)
        let missing = width - of(truncated)
        return missing > 0 ? truncated + String(repeating: " ", count: missing) : truncated
    }

    /// Words of `text` wrapped into lines of at most `width` columns; words longer than a line are broken.
    public static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [text] }
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var lineWidth = 0
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
                var piece = String(word)
                var pieceWidth = of(piece)
                if lineWidth > 0 && lineWidth + 1 + pieceWidth <= width {
                    line += " " + piece
                    lineWidth += 1 + pieceWidth
                    continue
                }
                if lineWidth > 0 {
                    lines.append(line)
                    line = ""
                    lineWidth = 0
                }
                while pieceWidth > width {
                    // Break an over-long word (a URL, a run of CJK) at the column limit.
                    var head = ""
                    var used = 0
                    var rest = Substring(piece)
                    while let next = rest.first, used + of(next) <= width {
                        head.append(next)
                        used += of(next)
                        rest = rest.dropFirst()
                    }
                    if head.isEmpty, let next = rest.first {  // a 2-column character on a 1-column line
                        head.append(next)
                        rest = rest.dropFirst()
                    }
                    lines.append(head)
                    piece = String(rest)
                    pieceWidth = of(piece)
                }
                line = piece
                lineWidth = pieceWidth
            }
            lines.append(line)
        }
        return lines
    }

    /// True when `text` holds right-to-left letters (Hebrew, Arabic and their neighbours).
    public static func containsRightToLeft<S: StringProtocol>(_ text: S) -> Bool {
        text.unicodeScalars.contains {
            (0x0590...0x08FF).contains($0.value) || (0xFB1D...0xFDFF).contains($0.value)
                || (0xFE70...0xFEFF).contains($0.value)
        }
    }

    /// Wraps right-to-left text in a first-strong isolate, so that the terminal's bidi handling cannot reorder the
    /// columns around it (index, handle, time). Isolates take no column.
    public static func isolated(_ text: String) -> String {
        containsRightToLeft(text) ? "\u{2068}" + text + "\u{2069}" : text
    }
}
