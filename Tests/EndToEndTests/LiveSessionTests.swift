import Foundation
import TerminalTesting
import XAPIStub
import XCTest

/// `live` in a real pseudo-terminal: typing, selecting, the detail view, leaving, and the terminal coming back.
final class LiveSessionTests: XCTestCase {
    private static let down = "\u{1B}[B"
    private static let escape = "\u{1B}"
    private static let cookedModes = tcflag_t(ECHO | ICANON)

    /// Types one key at a time, as a person does, so every keystroke reaches the view model on its own.
    private func typeSlowly(_ text: String, on terminal: PseudoTerminal) {
        for character in text {
            terminal.type(String(character))
            usleep(40_000)
        }
    }

    func testTypeSelectShowLeaveWithEscThenShowAndMoreContinue() throws {
        let tweetsh = Tweetsh()
        let terminal = try tweetsh.terminal()
        try terminal.waitForPrompt("(local, no key)> ")
        terminal.type("live\r")
        try terminal.waitForPrompt("live> ")
        XCTAssertEqual(terminal.localModes & Self.cookedModes, 0, "raw mode: no echo, no line editing")

        typeSlowly("swift", on: terminal)
        try terminal.waitFor("live> swift")
        let screen = try terminal.waitFor(" matches for 'swift'")
        XCTAssertTrue(screen.contains(">  1 @"), "the first result is selected: \(screen.debugDescription)")
        XCTAssertTrue(screen.contains("   2 @"), screen.debugDescription)
        let firstHandle = try XCTUnwrap(Self.handle(after: ">  1 @", in: screen))

        terminal.type(Self.down)
        let moved = try terminal.waitFor(">  2 @")
        XCTAssertTrue(moved.contains("   1 @"), "the selection moved off the first result")

        terminal.type("\r")
        try terminal.waitFor("#2 ")
        try terminal.waitFor("https://x.com/")
        try terminal.waitFor("press any key to return to the results")

        terminal.type(Self.escape)
        try terminal.waitFor("are now the current list")
        try terminal.waitForPrompt("(local, no key)> ")
        terminal.type("show 1\r")
        let shown = try terminal.waitFor("https://x.com/")
        XCTAssertTrue(shown.contains("#1 "), shown.debugDescription)
        XCTAssertTrue(
            shown.contains("@" + firstHandle),
            "show 1 is live's first result, @\(firstHandle): \(shown.debugDescription)")
        try terminal.waitForPrompt("> ")
        terminal.type("more\r")
        try terminal.waitFor("21 @")
        try terminal.waitForPrompt("> ")
        terminal.type("quit\r")
        XCTAssertEqual(exitCode(try terminal.waitForExit()), 0)
        XCTAssertEqual(terminal.localModes & Self.cookedModes, Self.cookedModes)
        XCTAssertTrue(
            terminal.output.contains("\u{1B}[?1049h") && terminal.output.contains("\u{1B}[?1049l"),
            "the alternate screen was entered and left")
    }

    /// A word still being typed finds the words it starts; a space after it makes it whole again.
    func testTheWordBeingTypedMatchesAsAPrefix() throws {
        let tweetsh = Tweetsh()
        let terminal = try tweetsh.terminal()
        try terminal.waitForPrompt("(local, no key)> ")
        terminal.type("live\r")
        try terminal.waitForPrompt("live> ")
        typeSlowly("swi", on: terminal)
        let typing = try terminal.waitFor(" for 'swi'")
        XCTAssertTrue(typing.contains(">  1 @"), "swi finds swift: \(typing.debugDescription)")
        XCTAssertFalse(typing.contains("0 matches for 'swi'"), typing.debugDescription)
        terminal.type(" ")
        try terminal.waitFor("0 matches for 'swi'")
        terminal.type("\u{04}")
        // Live's own redraws hold "live> ", so the shell's prompt is only the "> " after live says it left.
        try terminal.waitFor("the current results are unchanged")
        try terminal.waitForPrompt("> ")
        terminal.type("quit\r")
        XCTAssertEqual(exitCode(try terminal.waitForExit()), 0)
    }

    /// The queries searched on the way to the one kept are not searches the user asked for; only the kept one is
    /// recorded, with its cursor, and Ctrl-D records nothing.
    func testOnlyTheQueryKeptGoesIntoSearchHistory() throws {
        let tweetsh = Tweetsh()
        let terminal = try tweetsh.terminal()
        try terminal.waitForPrompt("(local, no key)> ")
        terminal.type("live\r")
        try terminal.waitForPrompt("live> ")
        typeSlowly("swift", on: terminal)
        try terminal.waitFor(" for 'swift'")
        typeSlowly(" concurrency", on: terminal)
        try terminal.waitFor(" for 'swift concurrency'")
        terminal.type(Self.escape)
        try terminal.waitFor("are now the current list")
        try terminal.waitForPrompt("(local, no key)> ")
        terminal.type("live data\r")
        try terminal.waitFor(" for 'data'")
        terminal.type("\u{04}")
        try terminal.waitFor("the current results are unchanged")
        try terminal.waitForPrompt("(local, no key)> ")
        terminal.type("history searches\r")
        let listed = try terminal.waitFor("again N re-runs one")
        XCTAssertTrue(listed.contains("[local] swift concurrency  "), listed.debugDescription)
        XCTAssertFalse(listed.contains("[local] swift  "), "the query typed on the way: \(listed.debugDescription)")
        XCTAssertFalse(listed.contains("[local] data"), "left with Ctrl-D: \(listed.debugDescription)")
        try terminal.waitForPrompt("> ")
        terminal.type("quit\r")
        XCTAssertEqual(exitCode(try terminal.waitForExit()), 0)
    }

    func testCtrlDLeavesTheCurrentListAloneAndPagingLoadsMore() throws {
        let tweetsh = Tweetsh()
        let terminal = try tweetsh.terminal()
        try terminal.waitForPrompt("(local, no key)> ")
        terminal.type("live swift\r")
        try terminal.waitForPrompt("live> swift")
        try terminal.waitFor(" matches")
        // Page down to the end of the first page of 20: the next page loads and numbering goes on.
        terminal.type("\u{1B}[6~")
        terminal.type("\u{1B}[6~")
        try terminal.waitFor("21 @")
        terminal.type("\u{04}")
        try terminal.waitFor("the current results are unchanged")
        try terminal.waitForPrompt("> ")
        terminal.type("show 1\r")
        try terminal.waitFor("no results yet")
        try terminal.waitForPrompt("> ")
        terminal.type("quit\r")
        XCTAssertEqual(exitCode(try terminal.waitForExit()), 0)
    }

    func testAgainstTheAPIShortQueriesAskNothingAndTypingRunsOneSearch() throws {
        let stub = try StubServer()
        defer { stub.stop() }
        let tweetsh = Tweetsh()
        let terminal = try tweetsh.terminal(environment: [
            "TWEETSH_API_BASE": stub.baseURL.absoluteString,
            "X_BEARER_TOKEN": StubServer.defaultBearerToken,
        ])
        try terminal.waitForPrompt("(x, key)> ")
        terminal.type("live\r")
        try terminal.waitForPrompt("live> ")
        typeSlowly("#s", on: terminal)
        try terminal.waitFor("type at least 3 characters to search the X API")
        usleep(800_000)
        XCTAssertEqual(stub.requests(path: "/2/tweets/search/recent").count, 0, "no request below 3 characters")

        typeSlowly("wift", on: terminal)
        try terminal.waitFor("matches for '#swift'")
        usleep(800_000)
        XCTAssertEqual(
            stub.requests(path: "/2/tweets/search/recent").count, 1,
            "one search for '#swift', none for the prefixes typed within the debounce")
        terminal.type(Self.escape)
        try terminal.waitFor("for '#swift' are now the current list")
        try terminal.waitForPrompt("(x, key)> ")
        terminal.type("quit\r")
        XCTAssertEqual(exitCode(try terminal.waitForExit()), 0)
    }

    func testResizingRedrawsAtTheNewWidth() throws {
        let tweetsh = Tweetsh()
        let terminal = try tweetsh.terminal()
        try terminal.waitForPrompt("(local, no key)> ")
        terminal.type("live swift\r")
        try terminal.waitForPrompt("live> swift")
        try terminal.waitFor(" matches")
        // The volume sparkline is a second update of the status line; once it is drawn the screen is quiet, so the
        // next frame is the resize's.
        try terminal.waitFor(" by day")
        usleep(300_000)
        terminal.resize(columns: 50, rows: 12)
        try terminal.waitFor("\u{1B}[H")
        let redrawn = try terminal.waitFor("matches for 'swift'")
        let rows = redrawn.components(separatedBy: "\u{1B}[K\r\n")
        XCTAssertEqual(rows.count, 12, "12 rows: query, 10 results, status: \(redrawn.debugDescription)")
        XCTAssertEqual(rows.first, "live> swift")
        XCTAssertTrue(rows[1].hasPrefix(">  1 @"), rows[1])
        for row in rows.dropFirst().dropLast() {
            // Right-to-left text is wrapped in bidi isolates (U+2068 … U+2069), which take no column.
            let visible = String(
                String.UnicodeScalarView(row.unicodeScalars.filter { $0.properties.generalCategory != .format }))
            XCTAssertLessThanOrEqual(visible.count, 50, "cut to the new width: \(row.debugDescription)")
        }
        terminal.type("\u{04}")
        // Live's own redraws hold "live> ", so the shell's prompt is only the "> " after live says it left.
        try terminal.waitFor("the current results are unchanged")
        try terminal.waitForPrompt("> ")
        terminal.type("quit\r")
        XCTAssertEqual(exitCode(try terminal.waitForExit()), 0)
    }

    func testTheTerminalIsRestoredWhenTheProcessIsKilled() throws {
        let tweetsh = Tweetsh()
        let terminal = try tweetsh.terminal()
        try terminal.waitForPrompt("(local, no key)> ")
        terminal.type("live swift\r")
        try terminal.waitForPrompt("live> swift")
        try terminal.waitFor(" matches")
        kill(terminal.pid, SIGTERM)
        let status = try terminal.waitForExit()
        XCTAssertEqual(status & 0x7F, SIGTERM, "died from the signal, status \(status)")
        XCTAssertEqual(terminal.localModes & Self.cookedModes, Self.cookedModes)
        XCTAssertTrue(terminal.output.hasSuffix("\u{1B}[?1049l"), "the normal screen is back")
    }

    func testTheTerminalIsRestoredWhenTheProcessCrashes() throws {
        let tweetsh = Tweetsh()
        // A signal sent with kill is not a fault: the Swift backtracer, after reporting it, would return and let the
        // program run on. Without the backtracer the handler chains to the default action, as after a real trap.
        let terminal = try tweetsh.terminal(environment: ["SWIFT_BACKTRACE": "enable=no"])
        try terminal.waitForPrompt("(local, no key)> ")
        terminal.type("live swift\r")
        try terminal.waitForPrompt("live> swift")
        try terminal.waitFor(" matches")
        // What a Swift trap raises, delivered from outside, since the product has no way to trap on purpose.
        kill(terminal.pid, SIGILL)
        let status = try terminal.waitForExit(timeout: 20)
        XCTAssertEqual(status & 0x7F, SIGILL, "died from the signal, status \(status)")
        XCTAssertEqual(terminal.localModes & Self.cookedModes, Self.cookedModes)
        XCTAssertTrue(terminal.output.contains("\u{1B}[?1049l"), "the normal screen is back")
    }

    func testSuspendingGivesTheTerminalBackAndContinuingRedraws() throws {
        let tweetsh = Tweetsh()
        let terminal = try tweetsh.terminal()
        try terminal.waitForPrompt("(local, no key)> ")
        terminal.type("live swift\r")
        try terminal.waitForPrompt("live> swift")
        try terminal.waitFor(" matches")
        // The program leads its own session here, so the kernel discards the stop itself (an orphaned process group);
        // the terminal must still go back to normal for the stop, and to raw mode after it.
        kill(terminal.pid, SIGTSTP)
        try terminal.waitFor("\u{1B}[?1049l")
        try terminal.waitFor("\u{1B}[?1049h")
        try terminal.waitFor("live> swift")
        try terminal.waitFor(" matches")
        XCTAssertEqual(terminal.localModes & Self.cookedModes, 0, "raw mode again")
        terminal.type("\u{1B}[B")
        try terminal.waitFor(">  2 @")
        terminal.type("\u{04}")
        try terminal.waitForPrompt("(local, no key)> ")
        terminal.type("quit\r")
        XCTAssertEqual(exitCode(try terminal.waitForExit()), 0)
        XCTAssertEqual(terminal.localModes & Self.cookedModes, Self.cookedModes)
    }

    /// Raw mode turns the terminal's Ctrl-Z into a plain byte; live raises the stop itself, as a cooked terminal would.
    func testCtrlZSuspendsLikeInAnyProgram() throws {
        let tweetsh = Tweetsh()
        let terminal = try tweetsh.terminal()
        try terminal.waitForPrompt("(local, no key)> ")
        terminal.type("live swift\r")
        try terminal.waitForPrompt("live> swift")
        try terminal.waitFor(" matches")
        // As in the SIGTSTP test above, the kernel discards the stop itself here (an orphaned process group); the
        // terminal is still given back for it and taken again after.
        terminal.type("\u{1A}")
        try terminal.waitFor("\u{1B}[?1049l")
        try terminal.waitFor("\u{1B}[?1049h")
        try terminal.waitFor("live> swift")
        XCTAssertEqual(terminal.localModes & Self.cookedModes, 0, "raw mode again")
        terminal.type("\u{04}")
        try terminal.waitForPrompt("(local, no key)> ")
        terminal.type("quit\r")
        XCTAssertEqual(exitCode(try terminal.waitForExit()), 0)
    }

    func testAnInterruptSignalLeavesLikeCtrlC() throws {
        let tweetsh = Tweetsh()
        let terminal = try tweetsh.terminal()
        try terminal.waitForPrompt("(local, no key)> ")
        terminal.type("live swift\r")
        try terminal.waitForPrompt("live> swift")
        try terminal.waitFor(" matches")
        // Raw mode turns Ctrl-C into a key; a SIGINT from elsewhere cancels the command, which leaves live.
        kill(terminal.pid, SIGINT)
        try terminal.waitFor("for 'swift' are now the current list")
        try terminal.waitForPrompt("(local, no key)> ")
        terminal.type("show 2\r")
        try terminal.waitFor("#2 ")
        try terminal.waitForPrompt("> ")
        terminal.type("quit\r")
        XCTAssertEqual(exitCode(try terminal.waitForExit()), 0)
    }

    func testARateLimitWaitShowsInTheStatusLineWhileTypingGoesOn() throws {
        let stub = try StubServer()
        defer { stub.stop() }
        stub.enqueue(.windowRateLimit(after: 5), path: "/2/tweets/search/recent")
        let tweetsh = Tweetsh()
        let terminal = try tweetsh.terminal(environment: [
            "TWEETSH_API_BASE": stub.baseURL.absoluteString,
            "X_BEARER_TOKEN": StubServer.defaultBearerToken,
        ])
        try terminal.waitForPrompt("(x, key)> ")
        terminal.type("live #swift\r")
        try terminal.waitForPrompt("live> #swift")
        try terminal.waitFor("waiting: rate limit on", timeout: 10)
        // The keyboard is not blocked by the wait: the query line follows at once, and the new query replaces the old.
        typeSlowly(" is:reply", on: terminal)
        try terminal.waitFor("live> #swift is:reply", timeout: 4)
        try terminal.waitFor("matches for '#swift is:reply'", timeout: 20)
        terminal.type("\u{04}")
        try terminal.waitForPrompt("(x, key)> ")
        terminal.type("quit\r")
        XCTAssertEqual(exitCode(try terminal.waitForExit()), 0)
        let queries = stub.requests(path: "/2/tweets/search/recent").compactMap { $0.query["query"] }
        XCTAssertEqual(queries.first, "#swift", "the first request was the one rate-limited")
        XCTAssertEqual(queries.last, "#swift is:reply")
    }

    func testScriptsArePointedToSearch() throws {
        let run = try Tweetsh().run(["-c", "live swift"])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(
            run.standardError.contains("live needs an interactive terminal; in scripts use search <query>"),
            run.standardError)
        XCTAssertFalse(run.standardOutput.contains("\u{1B}["), "no escape codes in a scripted run")
    }

    /// The handle following `marker` in a screen's text.
    private static func handle(after marker: String, in text: String) -> String? {
        guard let range = text.range(of: marker) else { return nil }
        let handle = text[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        return handle.isEmpty ? nil : String(handle)
    }
}
