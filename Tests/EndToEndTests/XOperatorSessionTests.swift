import Foundation
import TerminalTesting
import XAPIStub
import XCTest

/// Operators only X evaluates, through the real shell: sent to X as typed, refused for the local store at their column.
final class XOperatorSessionTests: XCTestCase {
    func testXOnlyOperatorsReachXAndAreRefusedLocally() throws {
        let stub = try StubServer()
        defer { stub.stop() }
        let tweetsh = Tweetsh()
        let environment = [
            "TWEETSH_API_BASE": stub.baseURL.absoluteString, "X_BEARER_TOKEN": StubServer.defaultBearerToken,
        ]
        let run = try tweetsh.run(
            [
                "-c", "search --source x #swift is:verified",
                "-c", "search --source x in_reply_to_status_id:\(StubCorpus.Fixture.threadRoot)",
                "-c", "rules check #swift bio:developer sample:10",
            ], environment: environment)
        XCTAssertEqual(run.status, 0, run.standardError)
        let sent = stub.requests(path: "/2/tweets/search/recent").compactMap { $0.query["query"] }
        XCTAssertEqual(sent, ["#swift is:verified", "in_reply_to_status_id:\(StubCorpus.Fixture.threadRoot)"])
        // The stub's fixtures: 8 of the 25 #swift tweets are by the verified @XDevelopers; three replies to the root.
        let lines = run.standardOutput.split(separator: "\n")
        XCTAssertEqual(lines.filter { $0.contains("Learning #swift") }.count, 8, run.standardOutput)
        XCTAssertTrue(lines.filter { $0.contains("Learning #swift") }.allSatisfy { $0.contains("@XDevelopers") })
        XCTAssertEqual(lines.filter { $0.contains("@alice") || $0.contains("Part 2") }.count, 3, run.standardOutput)
        XCTAssertTrue(run.standardOutput.contains("X accepts the rule"), run.standardOutput)

        // The same operator for the local store: refused where it stands, nothing searched, and the script goes on.
        let local = try tweetsh.run(
            ["-c", "search --source local data place_country:US", "-c", "count --source local data is:verified"],
            environment: environment)
        XCTAssertEqual(local.status, 1)
        XCTAssertTrue(
            local.standardError.contains(
                "in the query at column 6: 'place_country:' is matched by X only, not by the local store; search X "
                    + "with --source x"), local.standardError)
        XCTAssertTrue(local.standardError.contains("'is:verified' is matched by X only"), local.standardError)
        XCTAssertFalse(local.standardOutput.contains("matches"), local.standardOutput)
        XCTAssertEqual(stub.requests(path: "/2/tweets/search/recent").count, 2, "nothing more went to X")
    }
}
