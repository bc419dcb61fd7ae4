import XCTest

@testable import TweetShell

final class ShellConfigTests: XCTestCase {
    func testReadsKnownKeysAndReportsProblemsWithTheirLine() {
        let text = """
            # tweetsh settings
            source = local
            page_size = 50
            format = detail
            colour = never
            api_base = "http://127.0.0.1:8080"
            pagesize = 10
            format = fancy
            just words
            """
        let (config, problems) = ShellConfig.parse(text)
        XCTAssertEqual(config.source, .local)
        XCTAssertEqual(config.pageSize, 50)
        XCTAssertEqual(config.format, .detail)
        XCTAssertEqual(config.color, "never")
        XCTAssertEqual(config.apiBase, "http://127.0.0.1:8080")
        XCTAssertEqual(
            problems,
            [
                "config:7: unknown key 'pagesize'; known keys: source, page_size, format, color, api_base, collection, store",
                "config:8: format must be compact, detail, json or csv, found 'fancy'",
                "config:9: expected 'key = value', found 'just words'",
            ])
    }

    func testColourFollowsNoColorTTYAndTheOverride() {
        XCTAssertFalse(Style.resolve(choice: nil, environment: ["NO_COLOR": "1"], isTerminal: true).enabled)
        XCTAssertTrue(Style.resolve(choice: nil, environment: [:], isTerminal: true).enabled)
        XCTAssertFalse(Style.resolve(choice: nil, environment: [:], isTerminal: false).enabled)
        XCTAssertTrue(Style.resolve(choice: "always", environment: ["NO_COLOR": "1"], isTerminal: false).enabled)
        XCTAssertFalse(Style.resolve(choice: "never", environment: [:], isTerminal: true).enabled)
    }
}
