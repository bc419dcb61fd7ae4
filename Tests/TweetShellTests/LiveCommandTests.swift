import XCTest

@testable import TweetShell

/// `live` as a command: parsing, help, and refusing to run without a terminal.
final class LiveCommandTests: XCTestCase {
    func testParsesWithAndWithoutAQuery() throws {
        XCTAssertEqual(try ShellCommand.parse("live"), .live(nil))
        XCTAssertEqual(try ShellCommand.parse("live   swift lang:en "), .live("swift lang:en"))
        XCTAssertEqual(try ShellCommand.parse("LIVE \"async await\""), .live("\"async await\""))
    }

    func testHasHelpWithExamplesAndIsSuggestedForTypos() {
        let spec = CommandSpec.named("live")
        XCTAssertEqual(spec?.synopsis, "live [query]")
        XCTAssertFalse(spec?.examples.isEmpty ?? true)
        XCTAssertEqual(CommandSpec.suggestion(for: "liev"), "live")
    }

    func testSettingsPerSource() {
        XCTAssertEqual(
            LiveSettings.defaults(for: .local, pageSize: 20),
            LiveSettings(source: .local, debounceMilliseconds: 250, minimumQueryLength: 1, pageSize: 20))
        XCTAssertEqual(
            LiveSettings.defaults(for: .x, pageSize: 10),
            LiveSettings(source: .x, debounceMilliseconds: 500, minimumQueryLength: 3, pageSize: 10))
    }
}
