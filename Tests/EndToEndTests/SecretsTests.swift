import Foundation
import LineEditor
import TerminalTesting
import XAPIStub
import XCTest

/// After sessions that handle a known test token every way the shell can (typed at the hidden prompt, from the
/// environment, from the credentials file, through failures that echo server text, and pasted by mistake on a command
/// line), the token is searched for in the history file, the store, every other file the runs left and everything they
/// printed. Only the credentials file (0600) may hold it.
final class SecretsTests: XCTestCase {
    private var stub: StubServer!
    private let search = "/2/tweets/search/recent"

    override func setUpWithError() throws {
        stub = try StubServer()
    }

    override func tearDown() {
        stub.stop()
    }

    /// The token and the other credentials, in every spelling that could leak: as typed, percent-decoded (as a careless
    /// log of a decoded header would show it), and the Basic header the key and secret become.
    private var secrets: [String] {
        let token = StubServer.defaultBearerToken
        let basic = Data("\(StubServer.defaultConsumerKey):\(StubServer.defaultConsumerSecret)".utf8)
            .base64EncodedString()
        return [token, token.removingPercentEncoding ?? token, StubServer.defaultConsumerSecret, basic]
    }

    func testTheTokenIsNowhereButTheCredentialsFile() throws {
        let tweetsh = Tweetsh()
        let store = tweetsh.home.file("data/tweetsh/tweets.sqlite")
        var captured: [String] = []
        let base = ["TWEETSH_API_BASE": stub.baseURL.absoluteString]

        // 1. Signing in at the hidden prompts, then searching through failures and waits on a terminal.
        stub.enqueue(
            [.unauthorized, .badRequest(position: 3), .serviceUnavailable, .windowRateLimit(after: 1)], path: search)
        let terminal = try tweetsh.terminal(environment: base)
        try terminal.waitForPrompt("(local, no key)> ", timeout: 20)
        terminal.type("auth\r")
        try terminal.waitForPrompt("bearer token: ")
        terminal.type(StubServer.defaultBearerToken + "\r")
        try terminal.waitFor("signed in", timeout: 20)
        try terminal.waitForPrompt("(local, key)> ")
        terminal.type("source x\r")
        try terminal.waitForPrompt("(x, key)> ")
        for _ in 0..<2 {
            terminal.type("search #swift\r")
            try terminal.waitFor("error: ", timeout: 20)
            try terminal.waitForPrompt("> ")
        }
        terminal.type("search #swift\r")
        try terminal.waitFor(" 1 @", timeout: 40)
        try terminal.waitForPrompt("> ", timeout: 20)
        for line in ["more", "show 2", "limits", "auth status", "export ~/results.jsonl", "history"] {
            terminal.type(line + "\r")
            try terminal.waitForPrompt("> ", timeout: 20)
        }
        terminal.type("quit\r")
        XCTAssertEqual(exitCode(try terminal.waitForExit(timeout: 20)), 0)
        captured.append(terminal.output)
        XCTAssertEqual(permissions(of: tweetsh.credentialsFile), 0o600)
        XCTAssertTrue(
            (readTextFile(tweetsh.credentialsFile) ?? "").contains(StubServer.defaultBearerToken),
            "the token was stored, so the scan below has something to miss")

        // 2. Scripts with the token in the environment, including JSON output and an API failure.
        stub.enqueue(.clientForbidden, path: search)
        let environment = base.merging(["X_BEARER_TOKEN": StubServer.defaultBearerToken]) { $1 }
        for arguments in [
            ["-c", "search --refresh #swift"], ["-c", "search --refresh #swift; more; show 1"],
            ["search", "#swift", "--json"], ["-c", "auth status; limits"],
        ] {
            let run = try tweetsh.run(arguments, environment: environment)
            captured += [run.standardOutput, run.standardError]
        }
        let piped = try tweetsh.run([], input: "search --refresh #swift\nauth status\n", environment: environment)
        captured += [piped.standardOutput, piped.standardError]

        // 3. Signing in with a key and secret, then signing out.
        let second = try tweetsh.terminal(environment: base)
        try second.waitForPrompt("(x, key)> ", timeout: 20)
        second.type("auth logout\r")
        try second.waitForPrompt("> ", timeout: 20)
        second.type("auth\r")
        try second.waitForPrompt("bearer token: ")
        second.type("\r")
        try second.waitForPrompt("API key: ")
        second.type(StubServer.defaultConsumerKey + "\r")
        try second.waitForPrompt("API key secret: ")
        second.type(StubServer.defaultConsumerSecret + "\r")
        try second.waitFor("signed in", timeout: 20)
        try second.waitForPrompt("> ")
        second.type("search --refresh #swift\r")
        try second.waitFor(" 1 @", timeout: 20)
        try second.waitForPrompt("> ")
        second.type("\u{04}")
        XCTAssertEqual(exitCode(try second.waitForExit(timeout: 20)), 0)
        captured.append(second.output)

        // 4. The token pasted by mistake on command lines. The terminal echoes what is typed, so only the answers are
        // checked here; neither line may reach the history file or the store.
        let pasted = try tweetsh.terminal(environment: base)
        try pasted.waitForPrompt("(x, key)> ", timeout: 20)
        for command in ["auth", "search"] {
            pasted.type("\(command) \(StubServer.defaultBearerToken)\r")
            try pasted.waitFor(StubServer.defaultBearerToken)
            try pasted.waitFor("\n")
            let answer = try pasted.waitFor("(x, key)> ", timeout: 30)
            XCTAssertFalse(
                answer.contains(StubServer.defaultBearerToken),
                "the answer to `\(command) <token>` repeats it: \(answer)")
            try pasted.waitForPrompt("")
        }
        pasted.type("\u{04}")
        XCTAssertEqual(exitCode(try pasted.waitForExit(timeout: 20)), 0)

        // The scan.
        XCTAssertTrue(FileManager.default.fileExists(atPath: store), "the store was written where expected")
        let history = try History(path: tweetsh.historyFile).entries
        XCTAssertTrue(history.contains("search #swift"), "history was recorded: \(history)")
        for secret in secrets {
            XCTAssertEqual(
                SecretScan.occurrences(of: secret, inFilesUnder: tweetsh.home.path, except: [tweetsh.credentialsFile]),
                [], "no file but the credentials file holds \(secret.prefix(6))…")
            for (index, text) in captured.enumerated() {
                XCTAssertFalse(
                    text.contains(secret), "captured output \(index) shows \(secret.prefix(6))…: \(text.suffix(400))")
            }
            XCTAssertFalse(history.contains { $0.contains(secret) }, "history holds \(secret.prefix(6))…")
        }
        // `strings` over the store's files, as the acceptance line asks, on top of the byte scan above.
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: store + suffix) {
            let strings = try ProcessRun.run(
                "/usr/bin/strings", arguments: ["-n", "6", store + suffix], environment: [:])
            XCTAssertEqual(strings.status, 0)
            for secret in secrets {
                XCTAssertFalse(strings.standardOutput.contains(secret), "strings \(store + suffix)")
            }
        }
    }
}
