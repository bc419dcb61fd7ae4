/// Fitting styled text to the screen: escape sequences take no columns, and grapheme clusters are never split.
///
/// `DisplayWidth` measures plain text; the live screen draws lines that already carry colour codes, so cutting them
/// by `DisplayWidth.truncate` would count the codes as columns and could cut a code in half.
enum LiveText {
    /// `text` cut to at most `width` columns, ending in `…` when something was cut; escape sequences are kept whole,
    /// and a reset is added after a cut so a colour cannot run into the rest of the screen.
    static func fit(_ text: String, to width: Int) -> String {
        guard hasEscape(text) else { return DisplayWidth.truncate(text, to: width) }
        guard width > 0 else { return "" }
        if visibleWidth(text) <= width { return text }
        var result = ""
        var used = 0
        var inEscape = false
        var sawEscape = false
        for character in text {
            if inEscape {
                result.append(character)
                inEscape = !endsEscape(character)
                continue
            }
            if character == "\u{1B}" {
                inEscape = true
                sawEscape = true
                result.append(character)
                continue
            }
            let w = DisplayWidth.of(character)
            if used + w > width - 1 { break }
            result.append(character)
            used += w
        }
        return result + "…" + (sawEscape ? "\u{1B}[0m" : "")
    }

    /// Columns `text` takes on screen, not counting escape sequences.
    static func visibleWidth(_ text: String) -> Int {
        guard hasEscape(text) else { return DisplayWidth.of(text) }
        var total = 0
        var inEscape = false
        for character in text {
            if inEscape {
                inEscape = !endsEscape(character)
                continue
            }
            if character == "\u{1B}" {
                inEscape = true
                continue
            }
            total += DisplayWidth.of(character)
        }
        return total
    }

    /// Plain text goes to `DisplayWidth`, whose ASCII fast path covers most lines.
    private static func hasEscape(_ text: String) -> Bool { text.utf8.contains(0x1B) }

    /// The final byte of a CSI sequence (`ESC [ … m`): anything in 0x40–0x7E except the `[` that opens it.
    private static func endsEscape(_ character: Character) -> Bool {
        guard character != "[", let scalar = character.unicodeScalars.first else { return false }
        return (0x40...0x7E).contains(scalar.value)
    }

    /// The end of `text` that fits in `width` columns, for a query longer than its line: the user types at the end.
    static func tail(_ text: String, width: Int) -> String {
        guard width > 0 else { return "" }
        if DisplayWidth.of(text) <= width { return text }
        var result: [Character] = []
        var used = 0
        for character in text.reversed() {
            let w = DisplayWidth.of(character)
            if used + w > width - 1 { break }
            result.append(character)
            used += w
        }
        return "…" + String(result.reversed())
    }
}
