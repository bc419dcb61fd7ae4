import TweetKit

/// Draws a count over time for a terminal `width` columns wide, every line at most `width` columns.
///
/// - Horizontal (one row per bucket): `label │bar count`, the bar in eighths of a cell, the peak marked.
/// - Vertical (one column per bucket) when the terminal is wide enough for every bucket and there are enough of them
///   for a picture (more than 12): eight rows of eighth-blocks, a baseline, then labels spaced so none overlaps.
///
/// Labels are UTC and the header says so; empty buckets are drawn (as nothing), never skipped.
public struct CountChart: Sendable {
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

    /// Rows of the vertical chart.
    static let height = 8

    /// The chart's lines.
    public func lines(for series: CountSeries) -> [String] {
        var lines = header(series)
        guard !series.buckets.isEmpty else {
            lines.append(style.dim("no tweets matched"))
            return lines
        }
        let labelWidth = series.buckets.map { series.granularity.label($0.start).count }.max() ?? 0
        if series.buckets.count > 12, series.buckets.count <= width - Self.axisWidth(series) {
            lines += vertical(series)
        } else {
            lines += horizontal(series, labelWidth: labelWidth)
        }
        if series.undated > 0 {
            let note = "\(series.undated) matching tweets have no known time and are not drawn"
            lines.append(style.dim(glyphs.fit(note, to: width)))
        }
        return lines
    }

    /// The header: the total with the bucket width and `(UTC)` first, so a narrow terminal still sees them, then the
    /// query, the peak and the source, packed into as few lines as the width allows.
    private func header(_ series: CountSeries) -> [String] {
        let tweets = series.total == 1 ? "tweet" : "tweets"
        var parts = ["\(Self.grouped(series.total)) \(tweets) by \(series.granularity.rawValue) (UTC)"]
        if !series.query.isEmpty {
            parts.append("matching " + TerminalText.safe(series.query))
        } else if let collection = series.collection {
            parts.append("in the collection '\(TerminalText.safe(collection))'")
        }
        if let peak = series.peakIndex {
            let bucket = series.buckets[peak]
            parts.append("peak \(series.granularity.label(bucket.start)): \(Self.grouped(bucket.count))")
        }
        if series.sourceName != "local" { parts.append("source \(series.sourceName)") }
        var lines: [String] = []
        for part in parts {
            if let last = lines.last, DisplayWidth.of(last) + glyphs.dot.count + DisplayWidth.of(part) <= width {
                lines[lines.count - 1] = last + glyphs.dot + part
            } else {
                lines.append(glyphs.fit(part, to: width))
            }
        }
        return lines.map { style.bold($0) }
    }

    private func horizontal(_ series: CountSeries, labelWidth: Int) -> [String] {
        let peakIndex = series.peakIndex
        let peak = peakIndex.map { series.buckets[$0].count } ?? 0
        let countWidth = Self.grouped(peak).count
        let mark = " " + glyphs.peakMark
        // label, space, axis, bar, space, count, mark.
        let barCells = max(1, width - labelWidth - 2 - 1 - countWidth - mark.count)
        return series.buckets.enumerated().map { index, bucket in
            let label = series.granularity.label(bucket.start)
            let eighths = peak == 0 ? 0 : Int((Double(bucket.count) / Double(peak) * Double(barCells * 8)).rounded())
            let bar = glyphs.horizontalBar(eighths: min(eighths, barCells * 8))
            let padding = String(repeating: " ", count: barCells - bar.count)
            let count = Self.grouped(bucket.count)
            let countText = String(repeating: " ", count: countWidth - count.count) + count
            let isPeak = index == peakIndex
            let styledBar = isPeak ? style.number(bar) : style.tag(bar)
            return style.dim(label + String(repeating: " ", count: labelWidth - label.count)) + " \(glyphs.axis)"
                + styledBar + padding + " " + (isPeak ? style.bold(countText) + style.number(mark) : countText)
        }.map(Self.trimmed)
    }

    /// Columns left of the vertical chart: the largest count's digits and the axis.
    private static func axisWidth(_ series: CountSeries) -> Int {
        grouped(series.buckets.map(\.count).max() ?? 0).count + 2
    }

    private func vertical(_ series: CountSeries) -> [String] {
        let peakIndex = series.peakIndex
        let peak = peakIndex.map { series.buckets[$0].count } ?? 0
        let axisWidth = Self.axisWidth(series)
        let cell = max(1, min(4, (width - axisWidth) / series.buckets.count))
        let barWidth = cell > 2 ? cell - 1 : cell
        let eighths = series.buckets.map {
            peak == 0 ? 0 : Int((Double($0.count) / Double(peak) * Double(Self.height * 8)).rounded())
        }
        var lines: [String] = []
        for row in (0..<Self.height).reversed() {
            let scale = row == Self.height - 1 ? Self.grouped(peak) : row == 0 ? "0" : ""
            var line = String(repeating: " ", count: axisWidth - 2 - scale.count) + scale + " \(glyphs.axis)"
            for (index, total) in eighths.enumerated() {
                let filled = min(8, max(0, total - row * 8))
                // A non-zero count is at least a sliver on the bottom row.
                let shown = row == 0 && filled == 0 && series.buckets[index].count > 0 ? 1 : filled
                let glyph = String(repeating: String(glyphs.verticalCell(eighths: shown)), count: barWidth)
                let gap = String(repeating: " ", count: cell - barWidth)
                line += (index == peakIndex ? style.number(glyph) : style.tag(glyph)) + gap
            }
            lines.append(Self.trimmed(line))
        }
        lines.append(
            String(repeating: " ", count: axisWidth - 1)
                + String(repeating: String(glyphs.baseline), count: cell * series.buckets.count))
        lines.append(style.dim(labelRow(series, axisWidth: axisWidth, cell: cell)))
        return lines
    }

    /// Labels under the columns, each starting at its bucket, every k-th bucket so that one label and a space fit
    /// before the next; a label that would pass the width is left out.
    func labelRow(_ series: CountSeries, axisWidth: Int, cell: Int) -> String {
        let labelWidth = series.buckets.map { series.granularity.label($0.start).count }.max() ?? 0
        let step = max(1, (labelWidth + 1 + cell - 1) / cell)
        var row = String(repeating: " ", count: axisWidth)
        var index = 0
        while index < series.buckets.count {
            let column = axisWidth + index * cell
            let label = series.granularity.label(series.buckets[index].start)
            guard column + label.count <= width else { break }
            row += String(repeating: " ", count: max(0, column - row.count)) + label
            index += step
        }
        return Self.trimmed(row)
    }

    /// A number with thousands separated by commas: `12,345`.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return value < 0 ? "-" + result : result
    }

    private static func trimmed(_ line: String) -> String { line.trimmingTrailingSpaces() }
}
