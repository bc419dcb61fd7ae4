import Foundation
import TerminalTesting
import XAPIStub
import XCTest

/// Sessions against the X API, played by the loopback stub that speaks the v2 contract.
final class StubAPISessionTests: XCTestCase {
    var stub: StubServer!

    override func setUpWithError() throws {
        stub = try StubServer()
    }

    override func tearDown() {
        stub.stop()
    }

    private func apiEnvironment(token: Bool) -> [String: String] {
        var environment = ["TWEETSH_API_BASE": stub.baseURL.absoluteString]
        if token { environment["X_BEARER_TOKEN"] = StubServer.defaultBearerToken }
        return environment
    }

    func testAuthWithKeyAndSecretStoresAVerifiedTokenWithoutShowingSecrets() throws {
        let tweetsh = Tweetsh()
        let terminal = try tweetsh.terminal(environment: apiEnvironment(token: false))
        try terminal.waitForPrompt("(local, no key)> ")
        terminal.type("auth\r")
        try terminal.waitForPrompt("bearer token: ")
        terminal.type("\r")
        try terminal.waitForPrompt("API key: ")
        terminal.type(StubServer.defaultConsumerKey + "\r")
        try terminal.waitForPrompt("API key secret: ")
        terminal.type(StubServer.defaultConsumerSecret + "\r")
        try terminal.waitFor("signed in: bearer token")
        try terminal.waitForPrompt("(local, key)> ")
        terminal.type("auth status\r")
        try terminal.waitFor("credentials: bearer token")
        try terminal.waitForPrompt("> ")
        terminal.type("quit\r")
        XCTAssertEqual(exitCode(try terminal.waitForExit()), 0)

        XCTAssertEqual(stub.requests(path: "/oauth2/token").count, 1)
        let stored = try String(contentsOfFile: tweetsh.credentialsFile, encoding: .utf8)
        XCTAssertTrue(stored.contains(StubServer.defaultBearerToken))
        XCTAssertEqual(permissions(of: tweetsh.credentialsFile), 0o600)
        for secret in [StubServer.defaultBearerToken, StubServer.defaultConsumerSecret, StubServer.defaultConsumerKey] {
            XCTAssertFalse(terminal.output.contains(secret), "a secret was shown on the terminal")
        }
        let history = try String(contentsOfFile: tweetsh.historyFile, encoding: .utf8)
        XCTAssertTrue(history.contains("auth"), "the history file was written: \(history)")
        for secret in [StubServer.defaultConsumerSecret, StubServer.defaultBearerToken, StubServer.defaultConsumerKey] {
            XCTAssertFalse(history.contains(secret), "a secret reached the history file")
        }
    }

    func testSearchThenMoreAcrossThreePages() throws {
        let tweetsh = Tweetsh()
        let terminal = try tweetsh.terminal(environment: apiEnvironment(token: true))
        try terminal.waitForPrompt("(x, key)> ")
        terminal.type("search --limit 10 #swift\r")
        try terminal.waitFor("10 @")
        try terminal.waitForPrompt("> ")
        terminal.type("more\r")
        try terminal.waitFor("20 @")
        try terminal.waitForPrompt("> ")
        terminal.type("more\r")
        try terminal.waitFor("25 @")
        try terminal.waitForPrompt("> ")
        terminal.type("more\r")
        try terminal.waitFor("no more results")
        try terminal.waitForPrompt("> ")
        terminal.type("show 25\r")
        try terminal.waitFor("#25 ")
        try terminal.waitForPrompt("> ")
        terminal.type("quit\r")
        XCTAssertEqual(exitCode(try terminal.waitForExit()), 0)

        let searches = stub.requests(path: "/2/tweets/search/recent")
        XCTAssertEqual(searches.count, 3, "three pages, each fetched once")
        XCTAssertFalse(terminal.output.contains(StubServer.defaultBearerToken))
    }

    func testRateLimitCountdownThenResults() throws {
        let tweetsh = Tweetsh()
        stub.enqueue(.windowRateLimit(after: 3), path: "/2/tweets/search/recent")
        let terminal = try tweetsh.terminal(environment: apiEnvironment(token: true))
        try terminal.waitForPrompt("(x, key)> ")
        terminal.type("search #swift\r")
        try terminal.waitFor("rate limit on", timeout: 10)
        try terminal.waitFor("retrying in", timeout: 10)
        try terminal.waitFor(" 1 @", timeout: 20)
        try terminal.waitForPrompt("> ")
        terminal.type("quit\r")
        XCTAssertEqual(exitCode(try terminal.waitForExit()), 0)
        XCTAssertEqual(stub.requests(path: "/2/tweets/search/recent").count, 2, "one 429, then the retry")
    }

    func testCtrlCDuringASlowSearchReturnsToThePromptAndCancelsTheRequest() throws {
        let tweetsh = Tweetsh()
        stub.enqueue(.slow(seconds: 30), path: "/2/tweets/search/recent")
        let terminal = try tweetsh.terminal(environment: apiEnvironment(token: true))
        try terminal.waitForPrompt("(x, key)> ")
        terminal.type("search #swift\r")
        try terminal.waitFor("searching")
        let start = Date()
        terminal.type("\u{03}")
        try terminal.waitFor("cancelled", timeout: 5)
        try terminal.waitForPrompt("> ", timeout: 5)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5, "back at the prompt well before the slow answer")
        // The request really was dropped: the stub sees the client hang up.
        let deadline = Date().addingTimeInterval(10)
        while stub.abandonedRequests.isEmpty, Date() < deadline { usleep(50_000) }
        XCTAssertEqual(stub.abandonedRequests.count, 1)
        terminal.type("search #swift\r")
        try terminal.waitFor(" 1 @")
        try terminal.waitForPrompt("> ")
        terminal.type("quit\r")
        XCTAssertEqual(exitCode(try terminal.waitForExit()), 0)
    }
}
