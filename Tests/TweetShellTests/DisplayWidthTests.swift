import XCTest

@testable import TweetShell

final class DisplayWidthTests: XCTestCase {
    func testASCIIIsOneColumnPerCharacter() {
        XCTAssertEqual(DisplayWidth.of("hello"), 5)
    }

    func testCJKAndFullwidthAreTwoColumns() {
        XCTAssertEqual(DisplayWidth.of("日本語"), 6)
        XCTAssertEqual(DisplayWidth.of("한국"), 4)
        XCTAssertEqual(DisplayWidth.of("ＡＢ"), 4)
    }

    func testEmojiAreTwoColumnsIncludingSequences() {
        XCTAssertEqual(DisplayWidth.of("🙂"), 2)
        XCTAssertEqual(DisplayWidth.of("👩‍💻"), 2, "a ZWJ sequence is one glyph")
        XCTAssertEqual(DisplayWidth.of("🇫🇷"), 2, "a flag is one glyph")
        XCTAssertEqual(DisplayWidth.of("❤️"), 2, "VS16 asks for emoji presentation")
        XCTAssertEqual(DisplayWidth.of("👍🏽"), 2, "a skin-tone modifier joins its base")
    }

    func testCombiningMarksTakeNoColumn() {
        XCTAssertEqual(DisplayWidth.of("e\u{301}"), 1)
        XCTAssertEqual(DisplayWidth.of("Zoë café"), 8)
    }

    func testTruncateNeverSplitsAWideCharacterOrCluster() {
        let cut = DisplayWidth.truncate("日本語のテキスト", to: 6)
        XCTAssertEqual(cut, "日本…")
        XCTAssertLessThanOrEqual(DisplayWidth.of(cut), 6)
        XCTAssertEqual(DisplayWidth.truncate("ab👩‍💻cd", to: 4), "ab…")
        XCTAssertEqual(DisplayWidth.truncate("short", to: 10), "short")
        XCTAssertEqual(DisplayWidth.truncate("abcdefgh", to: 5), "abcd…", "the ASCII fast path cuts the same way")
        XCTAssertEqual(DisplayWidth.truncate("abcde", to: 5), "abcde")
        XCTAssertEqual(DisplayWidth.of("tab\there"), 7, "control characters take no column, ASCII or not")
    }

    func testPadReachesExactWidth() {
        XCTAssertEqual(DisplayWidth.of(DisplayWidth.pad("日本", to: 7)), 7)
        XCTAssertEqual(DisplayWidth.of(DisplayWidth.pad("a very long handle name", to: 7)), 7)
    }

    func testWrapKeepsEveryLineWithinWidth() {
        let text = "Swift 並行処理 makes async code safer 🙂 and https://example.com/a/very/long/path/that/cannot/fit"
        for width in [10, 20, 40] {
            let lines = DisplayWidth.wrap(text, width: width)
            XCTAssertTrue(lines.allSatisfy { DisplayWidth.of($0) <= width }, "width \(width): \(lines)")
            XCTAssertEqual(
                lines.joined().filter { $0 != " " }, text.filter { $0 != " " }, "nothing lost at width \(width)")
        }
    }

    func testRightToLeftTextIsIsolated() {
        XCTAssertEqual(DisplayWidth.isolated("שלום עולם"), "\u{2068}שלום עולם\u{2069}")
        XCTAssertEqual(DisplayWidth.isolated("hello"), "hello")
        XCTAssertEqual(DisplayWidth.of("\u{2068}مرحبا\u{2069}"), 5, "isolates take no column")
    }
}
