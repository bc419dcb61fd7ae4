import Foundation
import TweetKit
import XCTest

@testable import TweetShell

/// The hostile corpus through every renderer at widths 40, 80 and 120, with and without colour: nothing but the
/// renderer's own newlines and colour codes reaches the terminal, and what was hidden is shown.
final class HostileTextTests: XCTestCase {
    static let now = Date(timeIntervalSince1970: 1_700_100_000)
    static let widths = [40, 80, 120]

    func testCompactRowsOnATerminalAndPiped() {
        let items = HostileCorpus.items()
        XCTAssertEqual(items.count, HostileCorpus.texts.count + 1)
        for width in Self.widths as [Int?] + [nil] {
            for colour in [false, true] {
                let lines = CompactRenderer(width: width, style: Style(enabled: colour), now: Self.now).lines(
                    for: items)
                XCTAssertEqual(lines.count, items.count, "one row per tweet")
                for line in lines {
                    XCTAssertFalse(line.contains("\n"), "a row is one line: \(line.debugDescription)")
                    if let width, !colour { XCTAssertLessThanOrEqual(DisplayWidth.of(line), width) }
                }
                HostileCorpus.assertSafe(lines.joined(separator: "\n"), "compact \(width.map(String.init) ?? "piped")")
            }
        }
    }

    func testDetailView() {
        for width in Self.widths {
            for colour in [false, true] {
                let renderer = DetailRenderer(
                    width: width, style: Style(enabled: colour), timeZone: TimeZone(identifier: "UTC")!)
                for item in HostileCorpus.items() {
                    HostileCorpus.assertSafe(renderer.lines(for: item).joined(separator: "\n"), "detail \(width)")
                }
            }
        }
    }

    func testLiveScreenStatusLineAndDetail() {
        let items = HostileCorpus.items()
        var list = ResultList(search: SearchOptions(query: HostileCorpus.texts[1]), sourceName: "x")
        list.items = items
        let states = [
            LiveState(query: HostileCorpus.texts[2], list: list, isSearching: true, note: HostileCorpus.texts[3]),
            LiveState(
                query: HostileCorpus.texts[0], list: list, errorMessage: HostileCorpus.texts[5],
                wait: WaitNotice(reason: HostileCorpus.texts[6], secondsLeft: 3)),
            LiveState(query: HostileCorpus.texts[7], list: ResultList(), hint: HostileCorpus.texts[9]),
        ]
        for width in Self.widths {
            for colour in [false, true] {
                let layout = LiveLayout(width: width, height: 12, style: Style(enabled: colour), now: Self.now)
                for (index, state) in states.enumerated() {
                    let screen = layout.screen(
                        query: HostileCorpus.texts[index * 4], state: state, selection: LiveSelection(),
                        sourceName: "X API", spinnerFrame: index)
                    XCTAssertEqual(screen.lines.count, 12)
                    HostileCorpus.assertSafe(screen.lines.joined(separator: "\n"), "live \(width) state \(index)")
                }
                for item in items {
                    HostileCorpus.assertSafe(
                        layout.detail(item, timeZone: TimeZone(identifier: "UTC")!).joined(separator: "\n"),
                        "live detail")
                }
            }
        }
    }

    /// `thread` and searches print through `OutcomePrinter`; notes, warnings and errors through `ShellOutput`.
    func testThreadPrinterWarningsErrorsAndNotes() {
        for width in Self.widths {
            for colour in [false, true] {
                let collected = Collected()
                let output = ShellOutput(
                    style: Style(enabled: colour), out: { collected.add($0) }, err: { collected.add($0) })
                let printer = OutcomePrinter(
                    output: output,
                    settings: { .init(format: .compact, width: width, now: Self.now) })
                var list = ResultList(sourceName: "local")
                list.items = HostileCorpus.items()
                for format in [OutputFormat.compact, .detail] {
                    printer.printResults(
                        list.items, list: list, note: HostileCorpus.texts[1], warnings: HostileCorpus.texts,
                        settings: .init(format: format, width: width, now: Self.now))
                }
                for text in HostileCorpus.texts {
                    output.error(text)
                    output.warning(text)
                    output.note(text)
                    output.line(text)
                }
                output.note(DisplayWidth.caret(under: HostileCorpus.texts[4], column: 20))
                HostileCorpus.assertSafe(collected.text, "printer and messages at \(width)")
            }
        }
    }

    /// The check itself catches every text of the corpus as it was posted, so a renderer that let one through would
    /// fail the tests above.
    func testTheCheckCatchesEveryRawText() {
        for text in HostileCorpus.texts where !text.hasPrefix("zero-width") {
            XCTAssertNotNil(HostileCorpus.problem(in: text), text.debugDescription)
        }
        XCTAssertNil(HostileCorpus.problem(in: Style(enabled: true).error("fine") + "\n"))
    }

    /// What was hidden is shown, so a reader can see that a tweet tried something.
    func testWhatWasHiddenIsShown() {
        XCTAssertEqual(TerminalText.safe("a\u{1B}]0;t\u{07}b"), "a␛]0;t␇b")
        XCTAssertEqual(TerminalText.safe("x\u{9B}31m"), "x␛[31m", "a C1 control reads as ESC and its letter")
        XCTAssertEqual(TerminalText.safe("over\rwrite\u{08}\u{7F}\u{00}"), "over␍write␈␡␀")
        XCTAssertEqual(TerminalText.safe("one\r\ntwo\nthree\u{2028}four"), "one\ntwo\nthree\nfour")
        XCTAssertEqual(TerminalText.safe("one\n\n  two\n", lineBreak: " ⏎ "), "one ⏎ two")
        XCTAssertEqual(TerminalText.safe("tab\there"), "tab here")
        XCTAssertEqual(TerminalText.safe("\u{202E}gnp.exe\u{202C}"), "gnp.exe", "overrides are dropped")
        XCTAssertEqual(TerminalText.safe("\u{2067}שלום"), "\u{2067}שלום\u{2069}", "an open isolate is closed")
        XCTAssertEqual(TerminalText.safe("a\u{2069}b"), "ab", "a stray PDI is dropped")
        XCTAssertEqual(
            TerminalText.safe("\u{2067}א\nב\u{2069}"), "\u{2067}א\u{2069}\n\u{2067}ב\u{2069}",
            "an isolate closes at each line end and opens again on the next line")
        XCTAssertEqual(TerminalText.safe("👩\u{200D}💻 e\u{301}"), "👩\u{200D}💻 e\u{301}", "joiners and marks stay")
        let plain = "Swift 6 is here 🎉 — שלום"
        XCTAssertEqual(TerminalText.safe(plain), plain)
        XCTAssertFalse(TerminalText.needsWork(plain))
        XCTAssertEqual(TerminalText.balanced("\u{2069}a\u{2068}b"), "a\u{2068}b\u{2069}")
    }

    /// Piped, data formats are data: JSON lines and CSV keep the exact text, controls included.
    func testJSONAndCSVKeepTheExactText() throws {
        let text = HostileCorpus.texts[1]
        let page = Page(
            tweets: [Tweet(id: 5, text: text, authorID: 66)], users: [HostileCorpus.evilUser])
        for format in [OutputFormat.json, .csv] {
            let collected = Collected()
            let output = ShellOutput(style: Style(enabled: false), out: { collected.add($0) }, err: { _ in })
            let printer = OutcomePrinter(output: output, settings: { .init(format: format, width: 80, now: Self.now) })
            var list = ResultList()
            let added = list.append(page)
            printer.print(added, list: list, settings: .init(format: format, width: 80, now: Self.now))
            if format == .json {
                let line = try XCTUnwrap(collected.text.split(separator: "\n").first)
                let object = try XCTUnwrap(
                    try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                let tweets = try XCTUnwrap(object["data"] as? [[String: Any]])
                XCTAssertEqual(tweets.first?["text"] as? String, text)
            } else {
                XCTAssertTrue(collected.text.contains("\u{1B}]0;PWNED BEL\u{07}"), collected.text.debugDescription)
            }
        }
    }
}

extension HostileTextTests {
    /// On a terminal, JSON lines escape what could drive it (and still parse to the same text), and CSV rows show it
    /// as any other text: every text of the corpus, as a tweet's text and as its author's name.
    func testJSONAndCSVOnATerminalAreSafeAndJSONStillParsesToTheText() throws {
        for (index, text) in HostileCorpus.texts.enumerated() {
            var author = HostileCorpus.evilUser
            author.name = text
            let page = Page(
                tweets: [Tweet(id: TweetID(UInt64(index + 1)), text: text, authorID: author.id)], users: [author])
            for format in [OutputFormat.json, .csv] {
                let collected = Collected()
                let output = ShellOutput(
                    style: Style(enabled: true), dataIsShown: true, out: { collected.add($0) }, err: { _ in })
                let printer = OutcomePrinter(
                    output: output, settings: { .init(format: format, width: 80, now: Self.now) })
                var list = ResultList()
                let added = list.append(page)
                printer.print(added, list: list, settings: .init(format: format, width: 80, now: Self.now))
                HostileCorpus.assertSafe(collected.text, "\(format) on a terminal, text \(index)")
                guard format == .json else { continue }
                let line = try XCTUnwrap(collected.text.split(separator: "\n").first)
                let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                let tweets = try XCTUnwrap(object["data"] as? [[String: Any]])
                XCTAssertEqual(tweets.first?["text"] as? String, text, "text \(index)")
            }
        }
        XCTAssertEqual(
            TerminalText.jsonForTerminal("{\"t\":\"a\u{9B}b\u{202E}c\"}\n"), "{\"t\":\"a\\u009bb\\u202ec\"}\n")
    }
}

/// Text written from any thread, read once the writers are done.
final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var parts: [String] = []
    func add(_ text: String) { lock.withLock { parts.append(text) } }
    var text: String { lock.withLock { parts.joined() } }
}
