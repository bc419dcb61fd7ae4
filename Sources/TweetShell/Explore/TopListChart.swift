import TweetKit

/// Draws a ranked list: `N  key  bar count`, bars scaled to the first row, every line at most `width` columns.
public struct TopListChart: Sendable {
    /// Terminal columns.
    public var width: Int
    /// Colour.
    public var style: Style
    /// Unicode or ASCII.
    public var glyphs: ChartGlyphs

    /// Creates a renderer.
    public init(width: Int, style: Style, glyphs: ChartGlyphs) {
        self.width = max(20, width)
        self.style = style
        self.glyphs = glyphs
    }

    /// The key as shown: `#tag`, `@user`, or as it is.
    public static func shown(_ key: String, kind: TopKind) -> String {
        switch kind {
        case .hashtags: return "#" + key
        case .mentions, .authors: return "@" + key
        case .domains, .langs, .words: return key
        }
    }

    /// The list's lines: a header, the rows, and a hint for `drill`.
    public func lines(for list: TopList) -> [String] {
        var header = "top \(list.kind.rawValue)"
        if list.overResults {
            header += " in the current results"
        } else if !list.query.isEmpty {
            header += " matching " + TerminalText.safe(list.query)
        } else if let collection = list.collection {
            header += " in the collection '\(TerminalText.safe(collection))'"
        }
        header += glyphs.dot + "\(CountChart.grouped(list.tweets)) tweet\(list.tweets == 1 ? "" : "s")"
        var lines = [style.bold(glyphs.fit(header, to: width))]
        guard !list.rows.isEmpty else {
            lines.append(style.dim("nothing to rank"))
            return lines
        }
        let numberWidth = String(list.rows.count).count
        let keys = list.rows.map { TerminalText.safe(Self.shown($0.key, kind: list.kind)) }
        let keyWidth = min(max(8, width / 3), keys.map { DisplayWidth.of($0) }.max() ?? 0)
        let peak = list.rows[0].count
        let countWidth = CountChart.grouped(peak).count
        let barCells = max(1, width - numberWidth - 2 - keyWidth - 2 - 1 - countWidth)
        for (index, row) in list.rows.enumerated() {
            let number = String(index + 1)
            let key = DisplayWidth.pad(glyphs.fit(keys[index], to: keyWidth), to: keyWidth)
            let eighths = peak == 0 ? 0 : Int((Double(row.count) / Double(peak) * Double(barCells * 8)).rounded())
            let bar = glyphs.horizontalBar(eighths: max(1, min(eighths, barCells * 8)))
            let count = CountChart.grouped(row.count)
            let line =
                style.number(String(repeating: " ", count: numberWidth - number.count) + number) + "  "
                + (list.kind == .hashtags ? style.tag(key) : list.kind == .words ? key : style.handle(key)) + " "
                + style.tag(bar) + String(repeating: " ", count: barCells - bar.count) + " "
                + String(repeating: " ", count: countWidth - count.count) + count
            lines.append(line.trimmingTrailingSpaces())
        }
        return lines
    }
}
