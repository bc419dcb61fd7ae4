import Foundation
import TweetKit
import XCTest

@testable import TweetShell

/// The live screen's pure parts: key decoding, selection arithmetic, and the layout at several widths.
final class LiveKeyDecoderTests: XCTestCase {
    func testPrintableTextAndControlKeys() {
        var decoder = LiveKeyDecoder()
        XCTAssertEqual(decoder.feed(Array("sw".utf8)), [.text("sw")])
        XCTAssertEqual(
            decoder.feed([0x7F, 0x0D, 0x03, 0x04, 0x15, 0x17]),
            [.backspace, .enter, .interrupt, .endOfInput, .clearQuery, .deleteWord])
        XCTAssertFalse(decoder.hasPending)
    }

    func testArrowAndPageSequences() {
        var decoder = LiveKeyDecoder()
        let bytes = Array("\u{1B}[A\u{1B}[B\u{1B}[5~\u{1B}[6~\u{1B}OA\u{1B}[H\u{1B}[4~\u{1B}[1;5C".utf8)
        XCTAssertEqual(decoder.feed(bytes), [.up, .down, .pageUp, .pageDown, .up, .home, .end, .other])
    }

    func testSequencesAndCharactersSplitAcrossReadsWaitForTheirRest() {
        var decoder = LiveKeyDecoder()
        XCTAssertEqual(decoder.feed([0x1B, UInt8(ascii: "[")]), [])
        XCTAssertTrue(decoder.hasPending)
        XCTAssertEqual(decoder.feed(Array("6~".utf8)), [.pageDown])
        let emoji = Array("日🙂".utf8)
        XCTAssertEqual(decoder.feed(emoji[0..<2]), [])
        XCTAssertEqual(decoder.feed(emoji[2..<5]), [.text("日")])
        XCTAssertEqual(decoder.feed(emoji[5...]), [.text("🙂")])
    }

    func testALoneEscapeIsEscapeOnlyWhenNothingFollows() {
        var decoder = LiveKeyDecoder()
        XCTAssertEqual(decoder.feed([0x1B]), [])
        XCTAssertEqual(decoder.flush(), [.escape])
        XCTAssertEqual(decoder.flush(), [])
        // Alt+x arrives as ESC x: an Esc, then the key.
        XCTAssertEqual(decoder.feed(Array("\u{1B}x".utf8)), [.escape, .text("x")])
    }
}

final class LiveSelectionTests: XCTestCase {
    func testMovingStaysInsideTheListAndOnScreen() {
        var selection = LiveSelection()
        selection.move(by: -1, count: 10, rows: 4)
        XCTAssertEqual(selection.index, 0)
        selection.move(by: 5, count: 10, rows: 4)
        XCTAssertEqual(selection.index, 5)
        XCTAssertEqual(selection.top, 2, "scrolled just enough to show the selection")
        selection.move(by: 50, count: 10, rows: 4)
        XCTAssertEqual(selection.index, 9)
        XCTAssertTrue(selection.isAtEnd(count: 10))
        XCTAssertEqual(selection.top, 6)
        selection.clamp(count: 3, rows: 4)
        XCTAssertEqual(selection.index, 2)
        XCTAssertEqual(selection.top, 0)
    }

    func testPagingMovesByScreensAndStopsAtTheEnds() {
        var selection = LiveSelection()
        selection.page(by: 1, count: 25, rows: 10)
        XCTAssertEqual(selection.index, 10)
        XCTAssertEqual(selection.top, 10)
        selection.page(by: 1, count: 25, rows: 10)
        XCTAssertEqual(selection.index, 20)
        XCTAssertEqual(selection.top, 15, "the last screen is full")
        selection.page(by: 1, count: 25, rows: 10)
        XCTAssertEqual(selection.index, 24)
        selection.page(by: -5, count: 25, rows: 10)
        XCTAssertEqual(selection.index, 0)
        XCTAssertEqual(selection.top, 0)
    }
}

final class LiveLayoutTests: XCTestCase {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    static func list(_ texts: [String], total: Int? = nil, next: String? = nil) -> ResultList {
        let author = User(id: 7, username: "author", name: "Author")
        let tweets = texts.enumerated().map { index, text in
            Tweet(id: TweetID(UInt64(100 - index)), text: text, authorID: 7, createdAt: now.addingTimeInterval(-3600))
        }
        var list = ResultList(
            search: SearchOptions(query: "swift"), sourceName: "local", nextCursor: next, totalCount: total)
        list.append(Page(tweets: tweets, users: [author], nextToken: next))
        return list
    }

    func testEveryLineFitsTheWidthWithWideAndRightToLeftText() {
        let texts = [
            "Swift 6 is out 🎉🎉🎉 with typed throws and much more besides that", "スウィフトの並行処理について話しましょう、長い文章です",
            "e\u{301}te\u{301} café déjà vu résumé naïve", "שלום עולם swift מה שלומך היום",
        ]
        let state = LiveState(query: "swift", list: Self.list(texts, total: 40, next: "n"), isSearching: true)
        for width in [40, 80, 120] {
            let layout = LiveLayout(width: width, height: 8, style: Style(enabled: false), now: Self.now)
            let screen = layout.screen(
                query: "swift", state: state, selection: LiveSelection(), sourceName: "local", spinnerFrame: 0)
            XCTAssertEqual(screen.lines.count, 8)
            for line in screen.lines {
                XCTAssertLessThanOrEqual(LiveText.visibleWidth(line), width, "too wide at \(width): \(line)")
            }
            XCTAssertEqual(screen.lines[0], "live> swift")
            XCTAssertEqual(screen.cursorColumn, 12)
            XCTAssertTrue(screen.lines[1].hasPrefix(">  1 @author"), screen.lines[1])
            XCTAssertTrue(screen.lines[2].hasPrefix("   2 @author"), screen.lines[2])
            let status =
                width >= 80 ? "local · 4 of 40 matches for 'swift' · ⠋ searching" : "local · 4 of 40 matches for"
            XCTAssertTrue(screen.lines[7].hasPrefix(status), screen.lines[7])
        }
    }

    func testColouredLinesAreCutWithoutCountingEscapes() {
        let state = LiveState(query: "swift", list: Self.list([String(repeating: "wide 語 ", count: 30)]))
        let layout = LiveLayout(width: 50, height: 5, style: Style(enabled: true), now: Self.now)
        let screen = layout.screen(
            query: "swift", state: state, selection: LiveSelection(), sourceName: "local", spinnerFrame: 3)
        XCTAssertTrue(screen.lines[1].contains("\u{1B}["))
        XCTAssertEqual(LiveText.visibleWidth(screen.lines[1]), 50, "cut exactly at the width")
        XCTAssertTrue(screen.lines[1].hasSuffix("…"))

        XCTAssertEqual(
            LiveText.fit("\u{1B}[1mabcdef\u{1B}[0m", to: 4), "\u{1B}[1mabc…\u{1B}[0m", "a cut closes the colour")
        XCTAssertEqual(LiveText.fit("日本語です", to: 5), "日本…", "a wide character that does not fit is left out whole")
        XCTAssertEqual(LiveText.visibleWidth("\u{1B}[36m@who\u{1B}[0m 🙂"), 7)
    }

    func testEmptyStatesHintsWaitsAndErrors() {
        var layout = LiveLayout(width: 80, height: 5, style: Style(enabled: false), now: Self.now)
        var state = LiveState(query: "sw", hint: "type at least 3 characters to search the X API")
        var screen = layout.screen(
            query: "sw", state: state, selection: LiveSelection(), sourceName: "X API", spinnerFrame: 0)
        XCTAssertEqual(screen.lines[1], "  type at least 3 characters to search the X API")
        XCTAssertEqual(screen.lines[4], "X API")

        layout = LiveLayout(width: 120, height: 5, style: Style(enabled: false), now: Self.now)
        state = LiveState(
            query: "swift", list: Self.list([]), isSearching: true,
            wait: WaitNotice(reason: "rate limit on /2/tweets/search/recent: 12 s", secondsLeft: 12))
        screen = layout.screen(
            query: "swift", state: state, selection: LiveSelection(), sourceName: "X API", spinnerFrame: 1)
        XCTAssertEqual(
            screen.lines[4],
            "X API · 0 matches for 'swift' · ⠙ searching 'swift'… · waiting: rate limit on /2/tweets/search/recent: 12 s"
        )

        state = LiveState(
            query: "(swift", list: Self.list([]),
            errorMessage: "in the query at column 1: unbalanced (\n    (swift\n    ^")
        screen = layout.screen(
            query: "(swift", state: state, selection: LiveSelection(), sourceName: "local", spinnerFrame: 0)
        XCTAssertEqual(screen.lines[4], "local · 0 matches for 'swift' · error: in the query at column 1: unbalanced (")
        XCTAssertEqual(screen.lines[1], "", "no 'no matches' line while an error is shown")
    }

    func testALongQueryShowsItsEnd() {
        let layout = LiveLayout(width: 20, height: 4, style: Style(enabled: false), now: Self.now)
        let query = "from:swiftlang concurrency 語"
        let screen = layout.screen(
            query: query, state: LiveState(), selection: LiveSelection(), sourceName: "local", spinnerFrame: 0)
        XCTAssertTrue(screen.lines[0].hasPrefix("live> …"))
        XCTAssertTrue(screen.lines[0].hasSuffix("語"))
        XCTAssertLessThanOrEqual(LiveText.visibleWidth(screen.lines[0]), 19)
        XCTAssertEqual(screen.cursorColumn, LiveText.visibleWidth(screen.lines[0]) + 1)
    }

    func testTheDetailViewFillsTheScreenAndSaysHowToReturn() {
        let list = Self.list(["a tweet with a #tag"])
        let layout = LiveLayout(width: 60, height: 12, style: Style(enabled: false), now: Self.now)
        let lines = layout.detail(list.items[0], timeZone: TimeZone(identifier: "UTC")!)
        XCTAssertEqual(lines.count, 12)
        XCTAssertTrue(lines[0].hasPrefix("#1 Author @author"), lines[0])
        XCTAssertEqual(lines.last, "press any key to return to the results")
        XCTAssertTrue(lines.contains { $0.contains("https://x.com/") })
    }
}
