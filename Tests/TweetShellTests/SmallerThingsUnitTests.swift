import Foundation
import TweetKit
import TweetStore
import XCTest

@testable import TweetShell

/// The smaller items of issue 16 that live in one part: help's layout, message labels, live's status line and keys.
final class SmallerThingsUnitTests: XCTestCase {
    /// Help lines fit the width and break between words: every word of every line is a word of the source text.
    func testHelpWrapsBetweenWordsAtEveryWidth() {
        for width in [40, 50, 80, 120] {
            for spec in [nil] + CommandSpec.all.map(Optional.some) {
                let lines = HelpText.lines(for: spec, width: width, style: Style(enabled: false))
                // Only a single word wider than the line (a URL in an example) may stand past the width.
                for line in lines where line.split(separator: " ").count > 1 {
                    XCTAssertLessThanOrEqual(DisplayWidth.of(line), width, "\(spec?.name ?? "help"): \(line)")
                }
                let words = Set(lines.flatMap { $0.split(separator: " ") })
                for source in spec.map({ [$0.summary] + $0.examples }) ?? CommandSpec.all.map(\.summary) {
                    for word in source.split(separator: " ") {
                        XCTAssertTrue(words.contains(word), "'\(word)' was broken at width \(width)")
                    }
                }
            }
        }
    }

    func testHelpListsEveryFlagAndEveryOperator() throws {
        for spec in CommandSpec.all {
            let text = HelpText.lines(for: spec, width: 100, style: Style(enabled: false)).joined(separator: "\n")
            for flag in spec.flags where flag.hasPrefix("--") {
                XCTAssertTrue(text.contains(flag), "help \(spec.name) leaves out \(flag)")
            }
        }
        let again = HelpText.lines(for: CommandSpec.named("again"), width: 100, style: Style(enabled: false))
        XCTAssertTrue(again[0].contains("[--refresh]"), again[0])
        let search = HelpText.lines(for: CommandSpec.named("search"), width: 100, style: Style(enabled: false))
            .joined(separator: "\n")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let syntax = try String(contentsOf: root.appendingPathComponent("docs/query-syntax.md"), encoding: .utf8)
        // Every operator of the query syntax's table (`name:`), as docs/query-syntax.md lists them.
        let operators = Set(
            syntax.split(separator: "`").filter { $0.hasSuffix(":text") || $0.hasSuffix(":user") || $0.hasSuffix(":n") }
                .compactMap { $0.split(separator: ":").first.map { String($0) + ":" } })
        XCTAssertGreaterThan(operators.count, 5)
        for name in operators { XCTAssertTrue(search.contains(name), "help search leaves out \(name)") }
        for term in ["OR", "-term", "\"exact phrase\"", "#tag", "$TAG", "lang:", "is:retweet", "has:links", "since:"] {
            XCTAssertTrue(search.contains(term), "help search leaves out \(term)")
        }
        let show = HelpText.lines(for: CommandSpec.named("show"), width: 100, style: Style(enabled: false))
            .joined(separator: "\n")
        XCTAssertTrue(show.contains("id:ID") && show.contains("10 or more digits"), show)
        let overview = HelpText.lines(for: nil, width: 100, style: Style(enabled: false)).joined(separator: " ")
        XCTAssertTrue(overview.contains("whole tweet on one line") && overview.contains("--width N"), overview)
    }

    func testAWarningOrErrorIsLabelledOnce() {
        let collected = Collected()
        let output = ShellOutput(style: Style(enabled: false), out: { _ in }, err: { collected.add($0) })
        output.warning("warning: the page was fetched but could not be cached")
        output.warning("plain")
        output.error("error: already labelled")
        XCTAssertEqual(
            collected.text,
            "warning: the page was fetched but could not be cached\nwarning: plain\nerror: already labelled\n")
    }

    /// A wait's countdown and an error's cause come last in their sentences; when the status line cannot hold them,
    /// they get lines of their own rather than being cut before their point.
    func testLiveKeepsTheCountdownAndTheErrorWhole() {
        let wait = WaitNotice(
            reason: "rate limit on GET /2/tweets/search/recent: waiting for the window to reset, retrying in 42 s",
            secondsLeft: 42)
        let error =
            "The API rejected the request (GET /2/tweets/search/recent, 400) because of parameter query: fix it at 7"
        let state = LiveState(
            query: "a rather long query about swift", list: ResultList(search: SearchOptions(query: "swift")),
            isSearching: true, errorMessage: error, wait: wait)
        for width in [40, 80, 120] {
            let layout = LiveLayout(width: width, height: 14, style: Style(enabled: false))
            let screen = layout.screen(
                query: "swift", state: state, selection: LiveSelection(), sourceName: "X API", spinnerFrame: 0)
            XCTAssertEqual(screen.lines.count, 14)
            let text = screen.lines.joined(separator: " ")
            XCTAssertTrue(text.contains("retrying in 42 s"), "width \(width): \(screen.lines)")
            XCTAssertTrue(text.contains("fix it at 7"), "width \(width): \(screen.lines)")
            XCTAssertFalse(screen.lines.contains { $0.hasSuffix("…") && $0.contains("retrying") })
            XCTAssertTrue(screen.lines[13].hasPrefix("X API"), "the status line stays last: \(screen.lines[13])")
        }
    }

    func testWidthOptionAndWhereRowsAreCut() throws {
        XCTAssertEqual(try LaunchOptions.parse(["--width", "60", "-c", "search x"]).width, 60)
        XCTAssertNil(try LaunchOptions.parse(["-c", "search x"]).width)
        XCTAssertThrowsError(try LaunchOptions.parse(["--width", "5"]))
        // The test's stdout is not a terminal: rows are whole unless a width is asked for.
        let fd = open("/dev/null", O_WRONLY)
        defer { close(fd) }
        XCTAssertNil(TerminalSize.rowColumns(fd: fd, fixed: nil, environment: [:]))
        XCTAssertEqual(TerminalSize.rowColumns(fd: fd, fixed: nil, environment: ["COLUMNS": "70"]), 70)
        XCTAssertEqual(TerminalSize.rowColumns(fd: fd, fixed: 50, environment: ["COLUMNS": "70"]), 50)
    }

    func testCtrlZIsTheSuspendKey() {
        var decoder = LiveKeyDecoder()
        XCTAssertEqual(decoder.feed([0x1A]), [.suspend])
    }

    /// The drop's summary names what went and what stayed, with each count's own grammar.
    func testTheDropSummaryNamesWhatWentAndWhatStayed() {
        let full = DropReport(deleted: 1, kept: 2, referenced: 1, includedTweets: 3, users: 1, media: 2)
        XCTAssertEqual(
            ShellSession.dropSummary(full, name: "x\u{1B}[2J"),
            "dropped the collection 'x␛[2J': 1 tweet deleted, 2 kept because other collections hold them too, 1 kept "
                + "out of searches because remaining tweets quote, retweet or reply to it; also gone, since no "
                + "remaining tweet names them: 3 tweets they quoted, retweeted or replied to, 1 user and 2 media items")
        XCTAssertEqual(
            ShellSession.dropSummary(DropReport(deleted: 5, kept: 0, users: 4), name: "y"),
            "dropped the collection 'y': 5 tweets deleted; also gone, since no remaining tweet names them: 4 users")
        XCTAssertEqual(
            ShellSession.dropSummary(DropReport(deleted: 0, kept: 3), name: "z"),
            "dropped the collection 'z': 0 tweets deleted, 3 kept because other collections hold them too")
    }

    /// The free-space note comes only when a drop left much of the file free, and gives both sizes.
    func testTheFreeSpaceNoteComesAfterBigDropsOnly() {
        XCTAssertEqual(
            ShellSession.freeSpaceNote(DropReport.FileSpace(size: 600_000_000, free: 550_000_000)),
            "the store file keeps its 600 MB: 550 MB of it is now free space that later imports reuse; "
                + "'backup FILE' writes a compact copy")
        XCTAssertNil(ShellSession.freeSpaceNote(DropReport.FileSpace(size: 600_000_000, free: 20_000_000)), "a 30th")
        XCTAssertNil(ShellSession.freeSpaceNote(DropReport.FileSpace(size: 10_000_000, free: 9_000_000)), "9 MB")
    }

    /// A count or top list of a whole collection names the collection in its header instead of a query.
    func testWholeCollectionChartsNameTheCollection() {
        var series = CountSeries(
            query: "", granularity: .day, buckets: [CountBucket(start: 0, end: 86_400_000, count: 4)])
        series.collection = "votes"
        let glyphs = ChartGlyphs(unicode: true)
        let count = CountChart(width: 100, style: Style(enabled: false), glyphs: glyphs).lines(for: series)
        XCTAssertEqual(count.first, "4 tweets by day (UTC) · in the collection 'votes' · peak 1970-01-01: 4")
        series.query = "rain"
        let matching = CountChart(width: 100, style: Style(enabled: false), glyphs: glyphs).lines(for: series)
        XCTAssertEqual(matching.first, "4 tweets by day (UTC) · matching rain · peak 1970-01-01: 4")

        var list = TopList(kind: .hashtags, query: "", rows: [TopRow(key: "x", count: 4)], tweets: 4)
        list.collection = "votes"
        let top = TopListChart(width: 100, style: Style(enabled: false), glyphs: glyphs).lines(for: list)
        XCTAssertEqual(top.first, "top hashtags in the collection 'votes' · 4 tweets")
    }
}
