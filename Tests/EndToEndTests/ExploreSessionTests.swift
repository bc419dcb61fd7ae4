import Foundation
import TerminalTesting
import XCTest

/// `count`, `top`, `drill` and `stats` in the real binary, on a pseudo-terminal, over the generated demo corpus.
final class ExploreSessionTests: XCTestCase {
    func testCountDrawsAChartInRowsAndInColumnsAndExportWritesIt() throws {
        let tweetsh = Tweetsh()
        let terminal = try tweetsh.terminal(columns: 100)
        try terminal.waitForPrompt("(local, no key)> ")

        terminal.type("count coffee --by month\r")
        let rows = try terminal.waitFor("◀ peak")
        XCTAssertTrue(rows.contains("tweets by month (UTC)"), rows)
        XCTAssertTrue(rows.contains(" │█"), "rows of eighth blocks: \(rows)")
        try terminal.waitForPrompt("> ")

        terminal.type("count coffee --by week\r")
        let columns = try terminal.waitFor("──────────")
        XCTAssertTrue(columns.contains("tweets by week (UTC)"), columns)
        XCTAssertFalse(columns.contains("◀ peak"), "26 weeks fit in 100 columns: a vertical chart")
        try terminal.waitForPrompt("> ")

        let path = tweetsh.home.file("weeks.csv")
        terminal.type("export \(path)\r")
        try terminal.waitFor("wrote 2")
        try terminal.waitForPrompt("> ")
        let csv = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(csv.hasPrefix("start,end,week_count\n"), csv)
        XCTAssertTrue(csv.split(separator: "\n").count > 20)

        terminal.type("count coffee --by fortnight\r")
        try terminal.waitFor("unknown bucket 'fortnight'")
        try terminal.waitForPrompt("> ")
        terminal.type("quit\r")
        XCTAssertEqual(exitCode(try terminal.waitForExit()), 0)
    }

    func testTopThenDrillRunsTheNarrowedSearch() throws {
        let tweetsh = Tweetsh()
        let terminal = try tweetsh.terminal()
        try terminal.waitForPrompt("(local, no key)> ")
        terminal.type("top hashtags swift --limit 5\r")
        let list = try terminal.waitFor("'drill N' searches row N")
        XCTAssertTrue(list.contains("top hashtags matching swift"), list)
        XCTAssertTrue(list.contains("1  #"), list)
        try terminal.waitForPrompt("> ")

        terminal.type("drill 1\r")
        let search = try terminal.waitFor("matches")
        XCTAssertTrue(search.contains("search (swift) #"), "the narrowed query is printed: \(search)")
        try terminal.waitFor(" 1 @")
        try terminal.waitForPrompt("> ")

        terminal.type("top authors\r")
        let authors = try terminal.waitFor("'drill N' searches row N")
        XCTAssertTrue(authors.contains("top authors in the current results"), authors)
        try terminal.waitForPrompt("> ")

        terminal.type("drill 99\r")
        try terminal.waitFor("there is no row 99")
        try terminal.waitForPrompt("> ")
        terminal.type("quit\r")
        XCTAssertEqual(exitCode(try terminal.waitForExit()), 0)
    }

    func testStatsNumbersTheMostLikedForShowAndASCIIOutsideUTF8() throws {
        let tweetsh = Tweetsh()
        let terminal = try tweetsh.terminal(environment: ["LANG": "C"])
        try terminal.waitForPrompt("(local, no key)> ")
        terminal.type("stats\r")
        let stats = try terminal.waitFor("'show N' opens one")
        for field in [
            "stats: all collections", "tweets      3,000", "dates", "volume", "kinds", "originals", "languages",
            "authors", "hashtags", "domains", "most liked", "most retweeted",
        ] {
            XCTAssertTrue(stats.contains(field), "stats shows \(field): \(stats)")
        }
        XCTAssertFalse(stats.contains("█") || stats.contains("▁"), "no block elements in the C locale")
        try terminal.waitForPrompt("> ")

        terminal.type("show 1\r")
        try terminal.waitFor("#1 ")
        try terminal.waitFor("https://x.com/")
        try terminal.waitForPrompt("> ")

        terminal.type("count coffee --by month\r")
        let chart = try terminal.waitFor("< peak")
        XCTAssertTrue(chart.contains(" |#"), chart)
        try terminal.waitForPrompt("> ")
        terminal.type("quit\r")
        XCTAssertEqual(exitCode(try terminal.waitForExit()), 0)
    }
}
