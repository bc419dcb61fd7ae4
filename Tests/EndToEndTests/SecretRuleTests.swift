import Foundation
import TerminalTesting
import XAPIStub
import XCTest

/// The secret rule, precisely: a sha256 or an Ethereum address is searchable locally and on the API; the user's own
/// token is never sent, recorded or stored; a word merely shaped like a bearer token is refused only for the API, with
/// a way to search anyway.
final class SecretRuleTests: XCTestCase {
    private let search = "/2/tweets/search/recent"
    private let digest = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
    private let address = "0x52908400098527886E0F7030069857D2E4169EE7"
    private let otherToken = "AAAAAAAAAAAAAAAAAAAAAOtherAppsToken%2BzQ9%3DkLmN0pQrStUvWxYz0123"

    private func api(_ stub: StubServer) -> [String: String] {
        ["TWEETSH_API_BASE": stub.baseURL.absoluteString, "X_BEARER_TOKEN": StubServer.defaultBearerToken]
    }

    func testLongHexWordsAreSearchableLocallyAndOnTheAPI() throws {
        let stub = try StubServer()
        defer { stub.stop() }
        let tweetsh = Tweetsh()
        for word in [digest, address, "Pneumonoultramicroscopicsilicovolcanoconiosis"] {
            let local = try tweetsh.run(["--source", "local", "-c", "search \(word)"], environment: api(stub))
            XCTAssertEqual(local.status, 0, local.standardError)
            let remote = try tweetsh.run(["--source", "x", "-c", "search \(word)"], environment: api(stub))
            XCTAssertEqual(remote.status, 0, remote.standardError)
        }
        XCTAssertEqual(
            stub.requests(path: search).compactMap { $0.query["query"] },
            [digest, address, "Pneumonoultramicroscopicsilicovolcanoconiosis"])
        let history = try tweetsh.run(["-c", "history searches"], environment: api(stub))
        XCTAssertTrue(history.standardOutput.contains(digest), history.standardOutput)
    }

    func testTheUsersOwnTokenIsNeverSentRecordedOrStored() throws {
        let stub = try StubServer()
        defer { stub.stop() }
        let tweetsh = Tweetsh()
        let token = StubServer.defaultBearerToken
        for query in [token, String(token.prefix(30)), "swift \(token.removingPercentEncoding!)"] {
            let remote = try tweetsh.run(["--source", "x", "-c", "search \(query)"], environment: api(stub))
            XCTAssertEqual(remote.status, 1)
            XCTAssertTrue(remote.standardError.contains("your own X API credentials"), remote.standardError)
            XCTAssertFalse(remote.standardError.contains(token), "the refusal does not repeat the token")
        }
        XCTAssertEqual(stub.requests(path: search).count, 0, "nothing went to the API")

        // Locally it is searched, never refused, and still not kept.
        let local = try tweetsh.run(["--source", "local", "-c", "search \(token)"], environment: api(stub))
        XCTAssertEqual(local.status, 0, local.standardError)
        XCTAssertTrue(local.standardError.contains("not kept in the search history"), local.standardError)
        let history = try tweetsh.run(["-c", "history searches"], environment: api(stub))
        XCTAssertFalse(history.standardOutput.contains(String(token.prefix(24))), history.standardOutput)
        XCTAssertEqual(
            SecretScan.occurrences(of: token, inFilesUnder: tweetsh.home.path, except: [tweetsh.credentialsFile]), [])
    }

    func testAnotherTokensShapeIsRefusedForTheAPIWithAWayToSearchAnyway() throws {
        let stub = try StubServer()
        defer { stub.stop() }
        let tweetsh = Tweetsh()
        let refused = try tweetsh.run(["--source", "x", "-c", "search leaked \(otherToken)"], environment: api(stub))
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.standardError.contains("shaped like a bearer token"), refused.standardError)
        XCTAssertTrue(refused.standardError.contains("double quotes"), refused.standardError)
        XCTAssertTrue(refused.standardError.contains("--allow-secret"), refused.standardError)
        XCTAssertFalse(refused.standardError.contains(otherToken))
        XCTAssertEqual(stub.requests(path: search).count, 0)

        let local = try tweetsh.run(["--source", "local", "-c", "search \(otherToken)"], environment: api(stub))
        XCTAssertEqual(local.status, 0, "local searches are never refused: \(local.standardError)")
        let quoted = try tweetsh.run(["--source", "x", "-c", "search \"\(otherToken)\""], environment: api(stub))
        XCTAssertEqual(quoted.status, 0, quoted.standardError)
        let flagged = try tweetsh.run(
            ["--source", "x", "-c", "search --allow-secret \(otherToken)"], environment: api(stub))
        XCTAssertEqual(flagged.status, 0, flagged.standardError)
        XCTAssertEqual(
            stub.requests(path: search).compactMap { $0.query["query"] }, ["\"\(otherToken)\"", otherToken])
    }
}

/// Live search reaches the API by its own path, so the last guard is in the search service.
final class LiveSecretRuleTests: XCTestCase {
    func testLiveNeverSendsOrRecordsTheUsersOwnToken() throws {
        let stub = try StubServer()
        defer { stub.stop() }
        let tweetsh = Tweetsh()
        let environment = [
            "TWEETSH_API_BASE": stub.baseURL.absoluteString, "X_BEARER_TOKEN": StubServer.defaultBearerToken,
        ]
        let terminal = try tweetsh.terminal(environment: environment)
        try terminal.waitForPrompt("(x, key)> ")
        terminal.type("live \(StubServer.defaultBearerToken)\r")
        try terminal.waitFor("the query holds your own", timeout: 20)
        terminal.type("\u{1B}")
        try terminal.waitForPrompt("(x, key)> ")
        terminal.type("quit\r")
        XCTAssertEqual(exitCode(try terminal.waitForExit()), 0)
        XCTAssertEqual(stub.requests(path: "/2/tweets/search/recent").count, 0)
        let history = try tweetsh.run(["-c", "history searches"], environment: environment)
        XCTAssertFalse(history.standardOutput.contains("StubToken"), history.standardOutput)
    }
}
