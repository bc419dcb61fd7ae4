/// Fitting styled text to the screen: escape sequences take no columns, and grapheme clusters are never split.
///
/// `DisplayWidth` measures plain text; the live screen draws lines that already carry colour codes, so cutting them
/// by `DisplayWidth.truncate` would count the codes as columns and could cut a code in half.
enum LiveText {
    /// `text` cut to at most `width` columns, ending in `…` when something was cut; escape sequences are kept whole,
    /// and a reset is added after a cut so a colour cannot run into the rest of the screen.
    static func fit(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if visibleWidth(text) <= width { return text }
        var result = ""
        var used = 0
        var inEscape = false
        var sawEscape = false
        for character in text {
            if inEscape {
                result.append(character)
                if let scalar = character.unicodeScalars.first, character != "[", (0x40...0x7E).contains(scalar.value) {
                    inEscape = false
                }
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
        var total = 0
        var inEscape = false
        for character in text {
            if inEscape {
                if let scalar = character.unicodeScalars.first, character != "[", (0x40...0x7E).contains(scalar.value) {
                    inEscape = false
                }
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
