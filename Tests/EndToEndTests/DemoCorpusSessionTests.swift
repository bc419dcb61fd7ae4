import Foundation
import LineEditor
import TerminalTesting
import XCTest

/// A person's first session, on the generated demo corpus, in a real pseudo-terminal.
final class DemoCorpusSessionTests: XCTestCase {
    func testBannerSearchMoreShowHistoryRerunQuit() throws {
        let tweetsh = Tweetsh()
        let terminal = try tweetsh.terminal()
        try terminal.waitFor("First run: the new store \(tweetsh.home.path)")
        try terminal.waitFor("holds a generated demo corpus")
        try terminal.waitForPrompt("(local, no key)> ")

        terminal.type("search swift\r")
        try terminal.waitFor("matches")
        let firstPage = try terminal.waitFor("loads the next page")
        XCTAssertTrue(firstPage.contains(" 1 @") && firstPage.contains("20 @"), "a full first page of 20: \(firstPage)")
        XCTAssertFalse(firstPage.contains("21 @"))
        try terminal.waitForPrompt("> ")

        terminal.type("more\r")
        let secondPage = try terminal.waitFor("\n21 @")
        XCTAssertFalse(secondPage.contains("\n 1 @"), "more does not repeat the first page")
        try terminal.waitForPrompt("> ")

        terminal.type("show 3\r")
        try terminal.waitFor("#3 ")
        try terminal.waitFor("https://x.com/")
        try terminal.waitForPrompt("> ")

        terminal.type("history\r")
        try terminal.waitFor("1  search swift")
        try terminal.waitFor("4  history")
        try terminal.waitForPrompt("> ")

        terminal.type("!1\r")
        try terminal.waitFor("search swift")
        try terminal.waitFor(" 1 @")
        try terminal.waitForPrompt("> ")

        terminal.type("quit\r")
        XCTAssertEqual(exitCode(try terminal.waitForExit()), 0)

        // Read back in libedit's own format (it encodes spaces and other characters).
        let history = try History(path: tweetsh.historyFile).entries
        XCTAssertEqual(
            history, ["search swift", "more", "show 3", "history", "search swift", "quit"],
            "the expanded command is recorded, not the !1 reference")
        XCTAssertEqual(permissions(of: tweetsh.historyFile), 0o600)
    }

    /// Tab completes a collection's name where one is named, in libedit on a real terminal.
    func testTabCompletesCollectionNames() throws {
        let tweetsh = Tweetsh()
        let terminal = try tweetsh.terminal()
        try terminal.waitForPrompt("(local, no key)> ")
        terminal.type("stats de\t\r")
        try terminal.waitFor("stats: demo")
        try terminal.waitForPrompt("> ")
        terminal.type("\u{04}")
        XCTAssertEqual(exitCode(try terminal.waitForExit()), 0)
    }

    func testBadInputGetsAMessageAndTheShellKeepsRunning() throws {
        let tweetsh = Tweetsh()
        let terminal = try tweetsh.terminal()
        try terminal.waitForPrompt("(local, no key)> ")
        terminal.type("serach swift\r")
        try terminal.waitFor("did you mean 'search'?")
        try terminal.waitForPrompt("> ")
        terminal.type("search (swift OR\r")
        try terminal.waitFor("column")
        try terminal.waitForPrompt("> ")
        terminal.type("show 99\r")
        try terminal.waitFor("no results yet")
        try terminal.waitForPrompt("> ")
        terminal.type("search swift\r")
        try terminal.waitFor(" 1 @")
        try terminal.waitForPrompt("> ")
        terminal.type("\u{04}")
        XCTAssertEqual(exitCode(try terminal.waitForExit()), 0)
    }
}
