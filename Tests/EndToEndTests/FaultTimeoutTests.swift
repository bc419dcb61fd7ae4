import Foundation
import TerminalTesting
import XAPIStub
import XCTest

/// The timeout row with the client's real 30 s request timeout, which no setting shortens. Too slow for the regular
/// suite (half a minute for one timeout, nearly three for five), so it runs only with `TWEETSH_SLOW_FAULTS=1`
/// (`scripts/crash-import.sh` sets it).
final class FaultTimeoutTests: XCTestCase {
    private var stub: StubServer!
    private let search = "/2/tweets/search/recent"

    override func setUpWithError() throws {
        guard ProcessInfo.processInfo.environment["TWEETSH_SLOW_FAULTS"] == "1" else {
            throw XCTSkip("set TWEETSH_SLOW_FAULTS=1 to wait for real 30 s timeouts")
        }
        _ = FaultFixtures.shared
        stub = try StubServer()
    }

    override func tearDown() {
        stub?.stop()
    }

    func testOneTimeoutIsRetried() throws {
        stub.enqueue(.slow(seconds: 45), path: search)
        let session = try FaultSession(stub: stub)
        let started = Date()
        session.type(FaultSession.probe)
        try session.terminal.waitFor("failed (timed out): try 2 of 5", timeout: 60)
        print("fault-timeout: first timeout after \(Int(Date().timeIntervalSince(started))) s")
        try session.terminal.waitFor(" 1 @", timeout: 30)
        try session.waitForPrompt()
        XCTAssertEqual(stub.requests(path: search).count, 2)
        try session.nextCommandWorks()
        try session.quitAndCheckStore()
    }

    func testFiveTimeoutsGiveUpWithAMessage() throws {
        stub.enqueue(Array(repeating: .slow(seconds: 45), count: 5), path: search)
        let session = try FaultSession(stub: stub)
        let started = Date()
        session.type(FaultSession.probe)
        try session.terminal.waitFor(
            "error: The X API did not answer in time (GET /2/tweets/search/recent) after 5 tries",
            timeout: 240)
        print("fault-timeout: gave up after \(Int(Date().timeIntervalSince(started))) s")
        try session.waitForPrompt()
        XCTAssertEqual(stub.requests(path: search).count, 5)
        try session.nextCommandWorks()
        try session.quitAndCheckStore()
    }
}
