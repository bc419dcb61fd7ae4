import Foundation
import TweetKit

/// The lines `stats` prints above its numbered tweets: totals, the date range with a sparkline, the kinds as shares,
/// languages, and the top authors, hashtags and domains.
public struct OverviewText: Sendable {
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

    /// `12.5%` of `total`; `0%` of nothing.
    static func share(_ part: Int, of total: Int) -> String {
        guard total > 0 else { return "0%" }
        let tenths = (part * 1_000 + total / 2) / total
        return "\(tenths / 10).\(tenths % 10)%"
    }

    /// The overview's lines, `name` being what it covers (`all collections`, `demo`).
    public func lines(for overview: CollectionOverview, name: String) -> [String] {
        func field(_ label: String, _ value: String) -> String {
            let text = glyphs.fit(value, to: max(1, width - 12))
            return style.dim(label.padding(toLength: 11, withPad: " ", startingAt: 0)) + " " + text
        }
        var lines = [style.bold(glyphs.fit("stats: " + TerminalText.safe(name), to: width))]
        let total = overview.tweets
        lines.append(
            field(
                "tweets",
                "\(CountChart.grouped(total)) by \(CountChart.grouped(overview.authors)) "
                    + (overview.authors == 1 ? "author" : "authors")))
        guard total > 0 else { return lines }
        if let first = overview.firstTime, let last = overview.lastTime {
            let range =
                "\(CountGranularity.day.label(first)) to \(CountGranularity.day.label(last)) (UTC)"
            lines.append(field("dates", range))
            let counts = overview.volume.buckets.map(\.count)
            // The latest buckets that fit, with room for the label and the width's name.
            let spark = glyphs.sparkline(Array(counts.suffix(max(1, width - 12 - 10))))
            lines.append(
                style.dim("volume     ") + " " + style.tag(spark) + " by \(overview.volume.granularity.rawValue)")
        }
        let kinds = [
            ("originals", overview.originals), ("retweets", overview.retweets), ("replies", overview.replies),
            ("quotes", overview.quotes),
        ]
        lines.append(
            field("kinds", kinds.map { "\($0.0) \(Self.share($0.1, of: total))" }.joined(separator: glyphs.dot)))
        let langs = overview.languages.prefix(6).map {
            "\(TerminalText.safe($0.key)) \(Self.share($0.count, of: total))"
        }
        if !langs.isEmpty { lines.append(field("languages", langs.joined(separator: glyphs.dot))) }
        for (label, rows, kind) in [
            ("authors", overview.topAuthors, TopKind.authors), ("hashtags", overview.topHashtags, .hashtags),
            ("domains", overview.topDomains, .domains),
        ] where !rows.isEmpty {
            let text = rows.map {
                "\(TerminalText.safe(TopListChart.shown($0.key, kind: kind))) \(CountChart.grouped($0.count))"
            }
            lines.append(field(label, text.joined(separator: glyphs.dot)))
        }
        return lines
    }
}
