import Foundation
import TerminalTesting
import XAPIStub
import XCTest

/// What scripts get: data formats from every command that prints tweets, quiet waits, one-shot words kept as the
/// user's shell split them, and configuration and credential problems said out loud (exit 2 for a bad API base or
/// config path).
final class HonestScriptTests: XCTestCase {
    private let search = "/2/tweets/search/recent"

    private func api(_ stub: StubServer, token: String? = StubServer.defaultBearerToken) -> [String: String] {
        var environment = ["TWEETSH_API_BASE": stub.baseURL.absoluteString]
        environment["X_BEARER_TOKEN"] = token
        return environment
    }

    private func jsonLines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try XCTUnwrap(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "JSON: \(line.prefix(80))")
        }
    }

    private func firstID(_ page: [String: Any]) -> String? {
        (page["data"] as? [[String: Any]])?.first?["id"] as? String
    }

    func testShowAndThreadHonourJSON() throws {
        let run = try Tweetsh().run(["--json", "-c", "search swift; show 1; thread 1"])
        XCTAssertEqual(run.status, 0, run.standardError)
        let lines = try jsonLines(run.standardOutput)
        XCTAssertEqual(lines.count, 3, run.standardOutput)
        XCTAssertEqual(firstID(lines[1]), firstID(lines[0]), "show 1 prints result 1 as a page line")
        XCTAssertEqual((lines[1]["data"] as? [[String: Any]])?.count, 1)
        XCTAssertNotNil(firstID(lines[2]), "thread prints its tweets as a page line")

        let formatted = try Tweetsh().run(["-c", "format json; search swift; show 2"])
        XCTAssertEqual(formatted.status, 0, formatted.standardError)
        let shown = try jsonLines(formatted.standardOutput)
        XCTAssertEqual(shown.count, 2)
        let ids = (shown[0]["data"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
        XCTAssertEqual(firstID(shown[1]), ids.dropFirst().first)
    }

    func testShowHonoursCSVWithOneHeader() throws {
        let run = try Tweetsh().run(["-c", "format csv; search --limit 3 swift; show 3"])
        XCTAssertEqual(run.status, 0, run.standardError)
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 5, "one header, three rows, and show's row: \(run.standardOutput)")
        XCTAssertTrue(lines[0].hasPrefix("id,"), lines[0])
        XCTAssertEqual(lines[4], lines[3], "show 3 is result 3's row")
    }

    func testAWaitPrintsOneLineWhenItStartsAndOneWhenItEnds() throws {
        let stub = try StubServer()
        defer { stub.stop() }
        stub.enqueue(.windowRateLimit(after: 1), path: search)
        let run = try Tweetsh().run(["-c", "search #swift"], environment: api(stub))
        XCTAssertEqual(run.status, 0, run.standardError)
        let waits = run.standardError.split(separator: "\n").filter { $0.contains("rate limit on") }
        XCTAssertEqual(waits.count, 2, run.standardError)
        XCTAssertTrue(waits.first?.contains("retrying in") ?? false, "the start says how long: \(waits)")
        XCTAssertTrue(waits.last?.contains("retrying now") ?? false, "the end says so: \(waits)")
        XCTAssertEqual(stub.requests(path: search).count, 2)
    }

    func testOneShotWordsAreNeitherResplitNorRequoted() throws {
        let stub = try StubServer()
        defer { stub.stop() }
        let tweetsh = Tweetsh()
        for arguments in [["search", "\"open data\""], ["search", "a;b"], ["search", "a;", "show", "1"]] {
            let run = try tweetsh.run(["--source", "x"] + arguments, environment: api(stub))
            XCTAssertFalse(run.standardError.contains("unknown command"), run.standardError)
        }
        XCTAssertEqual(
            stub.requests(path: search).compactMap { $0.query["query"] }, ["\"open data\"", "a;b", "a; show 1"])
        let local = try tweetsh.run(["--source", "local", "search", "\"open data\""])
        XCTAssertEqual(local.status, 0, local.standardError)
        let history = try tweetsh.run(["-c", "history searches"])
        XCTAssertTrue(history.standardOutput.contains("[local] \"open data\" "), history.standardOutput)
    }

    func testUnusableCredentialsInTheEnvironmentAreReported() throws {
        let stub = try StubServer()
        defer { stub.stop() }
        let tweetsh = Tweetsh()
        let refused = try tweetsh.run(
            ["-c", "auth status"],
            environment: api(stub, token: nil).merging(["CONSUMER_KEY": "wrong-key", "CONSUMER_SECRET": "wrong-secret"])
            {
                $1
            })
        XCTAssertEqual(refused.status, 1, "auth status fails while a credential is unusable")
        XCTAssertTrue(
            refused.standardError.contains("CONSUMER_KEY and CONSUMER_SECRET from the environment could not be used"),
            refused.standardError)
        XCTAssertTrue(refused.standardError.contains("code 99"), "what the API answered: \(refused.standardError)")
        XCTAssertTrue(
            refused.standardOutput.contains("unusable: CONSUMER_KEY and CONSUMER_SECRET"), refused.standardOutput)
        XCTAssertFalse(
            refused.standardOutput.contains("wrong-secret") || refused.standardError.contains("wrong-secret"))

        let half = try tweetsh.run(
            ["-c", "auth status"], environment: api(stub, token: nil).merging(["CONSUMER_KEY": "only-key"]) { $1 })
        XCTAssertTrue(half.standardError.contains("CONSUMER_KEY is set but CONSUMER_SECRET is not"), half.standardError)

        let malformed = try tweetsh.run(["-c", "auth status"], environment: api(stub, token: "not a token"))
        XCTAssertTrue(
            malformed.standardError.contains("X_BEARER_TOKEN is set but is not a bearer token"),
            malformed.standardError)
        XCTAssertTrue(malformed.standardOutput.contains("unusable: X_BEARER_TOKEN"), malformed.standardOutput)

        let wrong = try tweetsh.run(["-c", "auth status"], environment: api(stub, token: "AAAAwrongButWellFormed"))
        XCTAssertEqual(wrong.status, 1)
        XCTAssertTrue(wrong.standardOutput.contains("(from X_BEARER_TOKEN)"), wrong.standardOutput)
        XCTAssertTrue(wrong.standardOutput.contains("the API did not accept it"), wrong.standardOutput)
        XCTAssertTrue(wrong.standardOutput.contains("401"), wrong.standardOutput)
        let refusedSearch = try tweetsh.run(
            ["--source", "x", "-c", "search #swift"], environment: api(stub, token: "AAAAwrongButWellFormed"))
        XCTAssertEqual(refusedSearch.status, 1)
        XCTAssertTrue(
            refusedSearch.standardError.contains("The token came from X_BEARER_TOKEN"), refusedSearch.standardError)

        let good = try tweetsh.run(["-c", "auth status"], environment: api(stub))
        XCTAssertEqual(good.status, 0, good.standardError)
        XCTAssertTrue(good.standardOutput.contains("the API accepted it"), good.standardOutput)
    }

    func testABadAPIBaseOrConfigPathIsAUsageError() throws {
        let tweetsh = Tweetsh()
        let base = try tweetsh.run(["-c", "search swift"], environment: ["TWEETSH_API_BASE": "ftp://example.com"])
        XCTAssertEqual(base.status, 2)
        XCTAssertTrue(base.standardError.contains("TWEETSH_API_BASE is \"ftp://example.com\""), base.standardError)
        XCTAssertEqual(base.standardOutput, "", "nothing ran")

        let missing = tweetsh.home.file("no-such-config")
        let config = try tweetsh.run(["--config", missing, "-c", "search swift"])
        XCTAssertEqual(config.status, 2)
        XCTAssertTrue(config.standardError.contains("--config \(missing): no such file"), config.standardError)

        let file = tweetsh.home.file("bad-base-config")
        try "page_size = 5\napi_base = api.x.com\n".write(toFile: file, atomically: true, encoding: .utf8)
        let bad = try tweetsh.run(["--config", file, "-c", "search swift"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.standardError.contains("\(file):2: config key api_base"), bad.standardError)

        try "page_size = 5\n".write(toFile: file, atomically: true, encoding: .utf8)
        let good = try tweetsh.run(["--config", file, "-c", "search swift"])
        XCTAssertEqual(good.status, 0, good.standardError)
        XCTAssertEqual(good.standardOutput.split(separator: "\n").count, 5, "the config given was read")
    }
}
