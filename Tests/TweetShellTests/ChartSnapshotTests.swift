import Foundation
import TweetKit
import XCTest

@testable import TweetShell

/// Charts at the four widths, with and without colour, in UTF-8 and ASCII, for the shapes that break layouts: an
/// empty count, a single bucket, a few months (rows), a month and a half of days (columns once wide enough), and a
/// thousand hours.
final class ChartSnapshotTests: XCTestCase {
    static let widths = [40, 80, 120, 200]
    static let day: Int64 = 86_400_000
    static let march2024: Int64 = 1_709_251_200_000

    static func series(_ counts: [Int], _ granularity: CountGranularity, query: String = "coffee") -> CountSeries {
        var start = march2024
        var buckets: [CountBucket] = []
        for count in counts {
            let end = granularity.bucketEnd(after: start)
            buckets.append(CountBucket(start: start, end: end, count: count))
            start = end
        }
        return CountSeries(query: query, granularity: granularity, buckets: buckets)
    }

    static let months = series([120, 0, 45, 3, 990, 1_250, 17, 600], .month)
    static let days = series((0..<45).map { ($0 * 37 + 11) % 50 * ($0 % 9 == 4 ? 0 : 1) }, .day)
    static let single = series([7], .day)
    static let empty = CountSeries(query: "nothing", granularity: .day, buckets: [])
    static let thousand = series((0..<1_000).map { ($0 * 7_919) % 1_000 }, .hour)

    /// The text without ANSI escapes.
    static func plain(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    func render(_ series: CountSeries, width: Int, color: Bool, unicode: Bool) -> [String] {
        CountChart(width: width, style: Style(enabled: color), glyphs: ChartGlyphs(unicode: unicode)).lines(for: series)
    }

    /// No line passes the width; labels under columns never touch one another.
    func checkLayout(_ lines: [String], width: Int, _ context: String) {
        for line in lines.map(Self.plain) {
            XCTAssertLessThanOrEqual(DisplayWidth.of(line), width, "\(context): \(line)")
        }
        if let labelRow = lines.last.map(Self.plain), labelRow.hasPrefix(" "), !labelRow.contains("│"),
            !labelRow.contains("|")
        {
            for label in labelRow.split(separator: " ") {
                XCTAssertTrue(label.count == 10 || label.count == 7 || label.count == 14, "\(context): '\(label)'")
            }
        }
    }

    func testEveryShapeAtEveryWidthColourAndCharset() {
        let shapes: [(String, CountSeries)] = [
            ("months", Self.months), ("days", Self.days), ("single", Self.single), ("empty", Self.empty),
        ]
        for (name, series) in shapes {
            for width in Self.widths {
                for color in [false, true] {
                    for unicode in [true, false] {
                        let lines = render(series, width: width, color: color, unicode: unicode)
                        let label = "chart-\(name)-\(width)\(color ? "-color" : "")\(unicode ? "" : "-ascii")"
                        checkLayout(lines, width: width, label)
                        assertSnapshot(lines.joined(separator: "\n") + "\n", named: label)
                        if !color { XCTAssertFalse(lines.joined().contains("\u{1B}"), label) }
                        if !unicode { XCTAssertTrue(lines.joined().unicodeScalars.allSatisfy(\.isASCII), label) }
                    }
                }
            }
        }
    }

    func testAThousandBucketsKeepEveryRowAndTheWidth() {
        for width in Self.widths {
            let lines = render(Self.thousand, width: width, color: false, unicode: true)
            checkLayout(lines, width: width, "thousand-\(width)")
            XCTAssertEqual(lines.filter { $0.contains(" │") }.count, 1_000, "one row per bucket, empty ones included")
            XCTAssertEqual(lines.filter { $0.contains("◀ peak") }.count, 1)
            let head = lines.prefix(4) + ["…"] + lines.suffix(3)
            assertSnapshot(head.joined(separator: "\n") + "\n", named: "chart-thousand-\(width)")
        }
    }

    func testColumnsWhenWideAndRowsWhenNarrow() {
        let narrow = render(Self.days, width: 40, color: false, unicode: true)
        XCTAssertTrue(narrow.contains { $0.hasPrefix("2024-03-01 │") }, "rows at 40 columns")
        let wide = render(Self.days, width: 80, color: false, unicode: true)
        XCTAssertEqual(wide.count, 1 + CountChart.height + 2, "header, eight rows, baseline, labels")
        XCTAssertFalse(wide.contains { $0.hasPrefix("2024-03-01 │") }, "columns at 80")
        XCTAssertTrue(wide.last!.contains("2024-03-01"))
    }

    func testTheHeaderSaysUTCTheTotalAndThePeak() {
        let header = render(Self.months, width: 120, color: false, unicode: true)[0]
        XCTAssertTrue(header.contains("3,025 tweets by month (UTC) · matching coffee"), header)
        let narrow = render(Self.months, width: 40, color: false, unicode: true)
        XCTAssertEqual(narrow[0], "3,025 tweets by month (UTC)", "UTC is said at any width")
        XCTAssertTrue(header.contains("peak 2024-08: 1,250"), header)
    }

    func testTopListAndOverviewStayInsideTheWidth() {
        let list = TopList(
            kind: .hashtags, query: "coffee",
            rows: [TopRow(key: "averyveryveryverylonghashtagindeed", count: 1_234), TopRow(key: "b", count: 1)],
            tweets: 5_000)
        var overview = CollectionOverview(volume: Self.days)
        overview.tweets = 10
        overview.firstTime = Self.march2024
        overview.lastTime = Self.march2024 + 44 * Self.day
        overview.topAuthors = [TopRow(key: "someone_with_a_long_name", count: 9)]
        for width in Self.widths {
            for unicode in [true, false] {
                let glyphs = ChartGlyphs(unicode: unicode)
                let top = TopListChart(width: width, style: Style(enabled: true), glyphs: glyphs).lines(for: list)
                checkLayout(top, width: width, "top-\(width)")
                let stats = OverviewText(width: width, style: Style(enabled: true), glyphs: glyphs)
                    .lines(for: overview, name: "demo")
                checkLayout(stats, width: width, "stats-\(width)")
            }
        }
        let top = TopListChart(width: 80, style: Style(enabled: false), glyphs: ChartGlyphs(unicode: true))
            .lines(for: list)
        XCTAssertTrue(top[1].hasPrefix("1  #averyvery") && top[1].hasSuffix(" 1,234"), top[1])
        XCTAssertTrue(top[2].contains(" ▏ ") && top[2].hasSuffix(" 1"), "a count of one is still a sliver: \(top[2])")
        overview.authors = 1
        let one = OverviewText(width: 80, style: Style(enabled: false), glyphs: ChartGlyphs(unicode: true))
            .lines(for: overview, name: "demo")
        XCTAssertTrue(one[1].hasSuffix("10 by 1 author"), one[1])
        overview.authors = 2
        let two = OverviewText(width: 80, style: Style(enabled: false), glyphs: ChartGlyphs(unicode: true))
            .lines(for: overview, name: "demo")
        XCTAssertTrue(two[1].hasSuffix("10 by 2 authors"), two[1])
    }

    func testTheLocaleDecidesTheCharset() {
        XCTAssertTrue(ChartGlyphs.localeIsUTF8(environment: ["LANG": "en_US.UTF-8"]))
        XCTAssertTrue(ChartGlyphs.localeIsUTF8(environment: ["LC_ALL": "C.utf8", "LANG": "C"]))
        XCTAssertFalse(ChartGlyphs.localeIsUTF8(environment: ["LC_ALL": "C", "LANG": "en_US.UTF-8"]))
        XCTAssertFalse(ChartGlyphs.localeIsUTF8(environment: [:]))
        XCTAssertEqual(ChartGlyphs(unicode: true).sparkline([0, 1, 4, 7]), "▁▂▅█")
        XCTAssertEqual(ChartGlyphs(unicode: false).sparkline([0, 5, 5]), "_~~")
    }
}
