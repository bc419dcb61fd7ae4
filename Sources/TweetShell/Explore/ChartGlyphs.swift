/// The characters charts are drawn with: Unicode block elements in eighths, or ASCII when the locale is not UTF-8
/// (a terminal in the C locale would show the blocks as `?` or mojibake).
public struct ChartGlyphs: Sendable, Equatable {
    /// Whether the blocks are Unicode.
    public var unicode: Bool

    /// Creates glyphs.
    public init(unicode: Bool) { self.unicode = unicode }

    /// Whether the locale's character set is UTF-8: the first of `LC_ALL`, `LC_CTYPE` and `LANG` that is set
    /// decides, as for any C program; none set is the C locale, which is ASCII.
    public static func localeIsUTF8(environment: [String: String]) -> Bool {
        for name in ["LC_ALL", "LC_CTYPE", "LANG"] {
            if let value = environment[name], !value.isEmpty {
                let lowered = value.lowercased()
                return lowered.contains("utf-8") || lowered.contains("utf8")
            }
        }
        return false
    }

    /// A horizontal bar `eighths`/8 cells long: full blocks, then one partial block.
    public func horizontalBar(eighths: Int) -> String {
        guard eighths > 0 else { return "" }
        if !unicode {
            // ASCII has no partial cells: round to the nearest whole one, and never draw a non-zero count as nothing.
            return String(repeating: "#", count: max(1, (eighths + 4) / 8))
        }
        let partials: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]
        var bar = String(repeating: "█", count: eighths / 8)
        if eighths % 8 > 0 { bar.append(partials[eighths % 8 - 1]) }
        return bar
    }

    /// One cell of a vertical bar that covers `eighths` of it (0…8).
    public func verticalCell(eighths: Int) -> Character {
        if eighths <= 0 { return " " }
        if !unicode { return eighths >= 4 ? "#" : (eighths >= 2 ? "." : " ") }
        let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        return levels[min(eighths, 8) - 1]
    }

    /// The vertical line between labels and bars.
    public var axis: Character { unicode ? "│" : "|" }
    /// The horizontal line under columns.
    public var baseline: Character { unicode ? "─" : "-" }
    /// The mark beside the peak.
    public var peakMark: String { unicode ? "◀ peak" : "< peak" }
    /// `text` cut to `width` columns; in ASCII the ellipsis of a cut becomes three dots.
    public func fit(_ text: String, to width: Int) -> String {
        guard DisplayWidth.of(text) > width else { return text }
        if unicode { return DisplayWidth.truncate(text, to: width) }
        return DisplayWidth.truncate(text, to: width - 2).replacingOccurrences(of: "…", with: "...")
    }

    /// The separator of header fields.
    public var dot: String { unicode ? " · " : " - " }

    /// A sparkline: one character per count. Zero is the lowest level; other counts are scaled between the smallest
    /// and the largest non-zero count, so an even volume reads as a level line and a busy day stands out.
    public func sparkline(_ counts: [Int]) -> String {
        let levels: [Character] =
            unicode ? ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"] : ["_", ".", ",", "-", "~", "=", "*", "#"]
        let nonZero = counts.filter { $0 > 0 }
        guard let low = nonZero.min(), let high = nonZero.max() else {
            return String(repeating: levels[0], count: counts.count)
        }
        return String(
            counts.map { count -> Character in
                guard count > 0 else { return levels[0] }
                guard high > low else { return levels[4] }
                return levels[1 + (count - low) * 6 / (high - low)]
            })
    }
}
