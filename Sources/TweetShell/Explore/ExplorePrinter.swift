import Foundation
import StreamCore
import TweetKit

/// The subscriber that prints explore outcomes: a count as a chart (or, with `--json` or `format json`, one JSON
/// object per bucket; with `format csv`, twarc2's `counts --csv` columns), a top list with bars, an overview with its
/// numbered tweets. Subscribed to the outcomes before the REPL awaits them, so output comes before the prompt.
public final class ExplorePrinter: Subscriber, @unchecked Sendable {
    private let output: ShellOutput
    private let settings: @Sendable () -> OutcomePrinter.Settings
    private let glyphs: ChartGlyphs

    /// Creates a printer writing to `output`.
    public init(output: ShellOutput, glyphs: ChartGlyphs, settings: @escaping @Sendable () -> OutcomePrinter.Settings) {
        self.output = output
        self.glyphs = glyphs
        self.settings = settings
    }

    /// Asks for every outcome.
    public func receive(subscription: any Subscription) {
        subscription.request(.unlimited)
    }

    /// Prints an answer; failures and cancellations are the REPL's to report.
    public func receive(_ outcome: ExploreOutcome) -> Subscribers.Demand {
        guard case .answered(_, let answer) = outcome else { return .none }
        let settings = settings()
        switch answer {
        case .count(let series, let json):
            if json || settings.format == .json {
                output.json(Self.jsonLines(series))
            } else if settings.format == .csv {
                output.csv(Self.csv(series))
            } else {
                let drawn = series.widened()
                output.lines(CountChart(width: settings.width, style: output.style, glyphs: glyphs).lines(for: drawn))
                if drawn.granularity != series.granularity {
                    output.note(
                        "drawn by \(drawn.granularity.rawValue): \(series.buckets.count) days are too many to read; "
                            + "--by day draws them, and --json and export give the days")
                }
            }
        case .top(let list):
            output.lines(TopListChart(width: settings.width, style: output.style, glyphs: glyphs).lines(for: list))
            if !list.rows.isEmpty { output.note("'drill N' searches row N") }
        case .stats(let overview, let tweets, let name):
            let text = OverviewText(width: settings.width, style: output.style, glyphs: glyphs)
            output.lines(text.lines(for: overview, name: name))
            let renderer = CompactRenderer(width: settings.rowWidth, style: output.style, now: settings.now)
            let liked = Set(overview.mostLiked)
            let retweeted = Set(overview.mostRetweeted)
            let likedItems = tweets.items.filter { liked.contains($0.tweet.id) }
            let retweetedItems = tweets.items.filter { retweeted.contains($0.tweet.id) && !liked.contains($0.tweet.id) }
            if !likedItems.isEmpty {
                output.lines([output.style.dim("most liked")] + renderer.lines(for: likedItems))
            }
            let alsoLiked = tweets.items.filter { retweeted.contains($0.tweet.id) && liked.contains($0.tweet.id) }
            if !retweetedItems.isEmpty || !alsoLiked.isEmpty {
                let numbers = alsoLiked.map { String($0.number) }
                let note = numbers.isEmpty ? "" : " (also \(numbers.joined(separator: ", ")) above)"
                output.lines([output.style.dim("most retweeted" + note)] + renderer.lines(for: retweetedItems))
            }
            if !tweets.items.isEmpty { output.note("'show N' opens one") }
        }
        return .none
    }

    /// Nothing to do when the outcomes end.
    public func receive(completion: Subscribers.Completion<Never>) {}

    /// One JSON object per bucket: `{"start":"…","end":"…","count":N}`, times in ISO 8601 UTC.
    public static func jsonLines(_ series: CountSeries) -> String {
        series.buckets.map {
            "{\"start\":\"\(CountGranularity.iso8601($0.start))\",\"end\":\"\(CountGranularity.iso8601($0.end))\","
                + "\"count\":\($0.count)}\n"
        }.joined()
    }

    /// twarc2 `counts --csv`'s columns: `start,end,<granularity>_count`.
    public static func csv(_ series: CountSeries) -> String {
        "start,end,\(series.granularity.rawValue)_count\n"
            + series.buckets.map {
                "\(CountGranularity.iso8601($0.start)),\(CountGranularity.iso8601($0.end)),\($0.count)\n"
            }.joined()
    }
}
