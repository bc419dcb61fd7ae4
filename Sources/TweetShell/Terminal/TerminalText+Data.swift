/// Data formats (JSON lines, CSV) shown on a terminal rather than piped.
///
/// Piped, they are data and stay exact. On a terminal they are read by a person, and a tweet's text inside them could
/// otherwise drive the terminal: JSON escapes only the C0 controls, so DEL, the C1 controls (`U+009B` is CSI to some
/// terminals), the line separators and the bidi controls would arrive raw, and CSV escapes nothing.
extension TerminalText {
    /// JSON text whose DEL, C1 controls, line and paragraph separators, bidi embeddings, overrides and isolates (and
    /// any raw C0 control but the line feed that ends each line) are written as `\uXXXX` escapes.
    ///
    /// Those scalars can stand only inside JSON strings, where an escape reads back as the same character, so the
    /// text stays valid JSON with the same values: copied from the screen, it parses as the data does.
    public static func jsonForTerminal(_ text: String) -> String {
        guard needsWork(text) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let escaped =
                (value < 0x20 && value != 0x0A) || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
                || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
            guard escaped else {
                result.append(scalar)
                continue
            }
            result.append(contentsOf: "\\u".unicodeScalars)
            let hex = String(value, radix: 16)
            result.append(contentsOf: (String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
        }
        return String(result)
    }

    /// CSV text with each line made safe as any other text (`safe(_:)`): controls shown as their pictures, bidi
    /// overrides dropped, isolates balanced per line. CSV has no escapes, so what is shown is no longer the exact
    /// cell; `export` writes that.
    public static func csvForTerminal(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { safe(String($0)) }
            .joined(separator: "\n")
    }
}
