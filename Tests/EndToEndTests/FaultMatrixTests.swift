import Foundation
import Glibc
import TerminalTesting
import XAPIStub
import XCTest

/// The fault matrix of docs/reliability.md: every failure the API contract describes, end to end through the binary on
/// a pseudo-terminal. Each row checks the message shown, that the shell is still alive (its prompt comes back), that
/// the next command works, and that the store is intact and holds exactly what a clean run holds.
final class FaultMatrixTests: XCTestCase {
    private var stub: StubServer!
    private let search = "/2/tweets/search/recent"

    override func setUpWithError() throws {
        _ = FaultFixtures.shared
        stub = try StubServer()
    }

    override func tearDown() {
        stub.stop()
    }

    /// A row whose fault makes the command fail with `message`, without any retry.
    private func failingRow(_ fault: StubFault, message: [String], file: StaticString = #filePath, line: UInt = #line)
        throws
    {
        stub.enqueue(fault, path: search)
        let session = try FaultSession(stub: stub)
        session.name = name
        session.type(FaultSession.probe)
        try session.terminal.waitFor("error: ", timeout: 20)
        for text in message { try session.terminal.waitFor(text, timeout: 5) }
        try session.waitForPrompt()
        XCTAssertEqual(stub.requests(path: search).count, 1, "not retried", file: file, line: line)
        try session.nextCommandWorks(file: file, line: line)
        try session.quitAndCheckStore(file: file, line: line)
    }

    func test401Unauthorized() throws {
        try failingRow(.unauthorized, message: ["did not accept the bearer token", "401", "run `auth`"])
    }

    func test403ClientForbidden() throws {
        try failingRow(.clientForbidden, message: ["403 client-forbidden", "client-not-enrolled", "Project"])
    }

    func test400QueryError() throws {
        try failingRow(.badRequest(position: 7), message: ["rejected the request", "`query`", "(at position 7)"])
    }

    func testUsageCap429() throws {
        try failingRow(.usageCap, message: ["usage cap is used up", "does not help"])
    }

    func testHTML404() throws {
        try failingRow(.html404, message: ["404 with an HTML page", "TWEETSH_API_BASE"])
    }

    func testEmpty404() throws {
        try failingRow(.empty404, message: ["404 with an empty body", "TWEETSH_API_BASE"])
    }

    func testWindow429WaitsForTheResetThenAnswers() throws {
        stub.enqueue(.windowRateLimit(after: 2), path: search)
        let session = try FaultSession(stub: stub)
        session.name = name
        session.type(FaultSession.probe)
        try session.terminal.waitFor(
            "rate limit on GET /2/tweets/search/recent: waiting for the window to reset, retrying in",
            timeout: 20)
        try session.terminal.waitFor(" 1 @", timeout: 20)
        try session.waitForPrompt()
        XCTAssertEqual(stub.requests(path: search).count, 2, "one 429, then one retry after the reset")
        try session.nextCommandWorks()
        try session.quitAndCheckStore()
    }

    func test503ThreeTimesThenSuccess() throws {
        stub.enqueue([.serviceUnavailable, .serviceUnavailable, .serviceUnavailable], path: search)
        let session = try FaultSession(stub: stub)
        session.name = name
        session.type(FaultSession.probe)
        try session.terminal.waitFor("failed (503 Service Unavailable): try 2 of 5", timeout: 20)
        try session.terminal.waitFor("failed (503 Service Unavailable): try 4 of 5", timeout: 20)
        try session.terminal.waitFor(" 1 @", timeout: 30)
        try session.waitForPrompt()
        XCTAssertEqual(stub.requests(path: search).count, 4, "three 503s, then the answer")
        XCTAssertFalse(session.terminal.output.contains("error:"), "a recovered failure is not an error")
        try session.nextCommandWorks()
        try session.quitAndCheckStore()
    }

    func testConnectionRefused() throws {
        // A port that was just free: nothing listens there until the replacement stub starts.
        let port = stub.port
        stub.stop()
        let session = try FaultSession(stub: stub, baseURL: URL(string: "http://127.0.0.1:\(port)")!)
        session.name = name
        session.type(FaultSession.probe)
        try session.terminal.waitFor("failed (connection refused): try 2 of 5", timeout: 20)
        try session.terminal.waitFor(
            "error: Could not reach the X API (GET /2/tweets/search/recent): connection refused, "
                + "after 5 tries", timeout: 40)
        try session.waitForPrompt()
        var configuration = StubServer.Configuration()
        configuration.port = port
        stub = try StubServer(configuration: configuration)
        session.replaceStub(stub)
        try session.nextCommandWorks()
        try session.quitAndCheckStore()
    }

    func testTruncatedBodyIsRetried() throws {
        stub.enqueue(.truncatedBody, path: search)
        let session = try FaultSession(stub: stub)
        session.name = name
        session.type(FaultSession.probe)
        try session.terminal.waitFor("try 2 of 5", timeout: 20)
        try session.terminal.waitFor(" 1 @", timeout: 20)
        try session.waitForPrompt()
        XCTAssertTrue(session.terminal.output.contains("response cut short"), "the countdown names what went wrong")
        XCTAssertFalse(session.terminal.output.contains("network error -1"))
        XCTAssertEqual(stub.requests(path: search).count, 2, "the cut-off answer, then a whole one")
        XCTAssertFalse(session.terminal.output.contains("error:"), "a recovered failure is not an error")
        try session.nextCommandWorks()
        try session.quitAndCheckStore()
    }

    // MARK: Ctrl-C during each wait

    /// Presses Ctrl-C once `waitingText` shows, and expects the prompt back within a few seconds and no further request.
    private func interruptRow(
        _ faults: [StubFault], waitingText: String, requestsBeforeInterrupt: Int,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        stub.enqueue(faults, path: search)
        let session = try FaultSession(stub: stub)
        session.name = name
        session.type(FaultSession.probe)
        try session.terminal.waitFor(waitingText, timeout: 30)
        let pressed = Date()
        session.terminal.type("\u{03}")
        try session.terminal.waitFor("cancelled", timeout: 5)
        try session.waitForPrompt(timeout: 5)
        XCTAssertLessThan(Date().timeIntervalSince(pressed), 5, "back at the prompt at once", file: file, line: line)
        // Time for a retry to go out if the wait had not really been abandoned.
        usleep(3_000_000)
        XCTAssertEqual(
            stub.requests(path: search).count, requestsBeforeInterrupt, "no request after Ctrl-C",
            file: file, line: line)
        stub.clearFaults()
        try session.nextCommandWorks(file: file, line: line)
        try session.quitAndCheckStore(file: file, line: line)
    }

    func testCtrlCDuringARateLimitWait() throws {
        try interruptRow([.windowRateLimit(after: 60)], waitingText: "retrying in", requestsBeforeInterrupt: 1)
    }

    func testCtrlCDuringABackoffWait() throws {
        // The third backoff lasts 2 to 4 s, long enough to press Ctrl-C inside it.
        try interruptRow(
            Array(repeating: .serviceUnavailable, count: 5), waitingText: "try 4 of 5 in",
            requestsBeforeInterrupt: 3)
    }

    /// The timeout row: the client's 30 s request timeout is not configurable, so a response slower than any test
    /// should wait is cut short with Ctrl-C; `FaultTimeoutTests` waits for the real timeout when asked to.
    func testCtrlCDuringASlowResponse() throws {
        stub.enqueue(.slow(seconds: 60), path: search)
        let session = try FaultSession(stub: stub)
        session.name = name
        session.type(FaultSession.probe)
        try session.terminal.waitFor("searching", timeout: 20)
        // The request must be at the server before Ctrl-C, or this would test cancelling before sending.
        let deadline = Date().addingTimeInterval(10)
        while stub.requests(path: search).isEmpty, Date() < deadline { usleep(20_000) }
        let pressed = Date()
        session.terminal.type("\u{03}")
        try session.terminal.waitFor("cancelled", timeout: 5)
        try session.waitForPrompt(timeout: 5)
        XCTAssertLessThan(Date().timeIntervalSince(pressed), 5)
        let hangUp = Date().addingTimeInterval(10)
        while stub.abandonedRequests.isEmpty, Date() < hangUp { usleep(50_000) }
        XCTAssertEqual(stub.abandonedRequests.count, 1, "the client hung up on the slow request")
        try session.nextCommandWorks()
        try session.quitAndCheckStore()
    }
}
