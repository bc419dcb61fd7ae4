import XCTest

@testable import TweetShell

final class LaunchOptionsTests: XCTestCase {
    func testScriptAndOneShotForms() throws {
        XCTAssertEqual(try LaunchOptions.parse(["-c", "search swift; more"]).scripts, ["search swift; more"])
        // A second -c adds its commands after the first one's; it used to replace them without a word.
        XCTAssertEqual(
            try LaunchOptions.parse(["-c", "search swift", "--json", "-c", "show 1"]).scripts,
            ["search swift", "show 1"])
        let oneShot = try LaunchOptions.parse(["search", "swift", "lang:en", "--json"])
        XCTAssertEqual(oneShot.oneShot, ["search", "swift", "lang:en"])
        XCTAssertTrue(oneShot.json)
        // The user's shell split the words: they are kept as given, never re-quoted.
        XCTAssertEqual(try LaunchOptions.parse(["search", "async await"]).oneShot, ["search", "async await"])
        XCTAssertEqual(try LaunchOptions.parse(["search", "\"open data\""]).oneShot, ["search", "\"open data\""])
        XCTAssertEqual(
            try LaunchOptions.parse(["search", "--limit", "5", "swift"]).oneShot, ["search", "--limit", "5", "swift"])
    }

    func testOptions() throws {
        let options = try LaunchOptions.parse(["--color", "never", "--source", "local", "--store", "/tmp/s.sqlite"])
        XCTAssertEqual(options.color, "never")
        XCTAssertEqual(options.source, .local)
        XCTAssertEqual(options.storePath, "/tmp/s.sqlite")
        XCTAssertNil(options.oneShot)
    }

    func testUsageErrors() {
        XCTAssertThrowsError(try LaunchOptions.parse(["--colour", "purple"])) {
            XCTAssertEqual(($0 as? CommandError)?.message, "--color takes auto, always or never, not 'purple'")
        }
        XCTAssertThrowsError(try LaunchOptions.parse(["--bogus"]))
        XCTAssertThrowsError(try LaunchOptions.parse(["-c"]))
        XCTAssertThrowsError(try LaunchOptions.parse(["-c", "more", "search", "x"]))
        XCTAssertThrowsError(try LaunchOptions.parse(["-c", "more", "-c"]))
    }
}
