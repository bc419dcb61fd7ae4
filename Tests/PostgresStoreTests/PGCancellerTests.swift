import Foundation
import Testing

@testable import PostgresStore

/// `PGCanceller` waits a bounded time for a cancel request, so a server gone from the network cannot hold the thread
/// that pressed Ctrl-C, or a shell closing, for the system's TCP timeout. The request itself is stood in for: what is
/// under test is the wait, not libpq.
@Suite("Cancel requests")
struct PGCancellerTests {
    @Test func aRequestTheServerTakesReportsIt() {
        #expect(PGCanceller(send: { true }).cancel())
        #expect(!PGCanceller(send: { false }).cancel())
    }

    @Test func aRequestThatNeverEndsIsGivenUpAfterTheLimit() {
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let canceller = PGCanceller(send: {
            release.wait()
            finished.signal()
            return true
        })
        let start = Date()
        #expect(!canceller.cancel(), "a request still under way is not a request taken")
        let waited = Date().timeIntervalSince(start)
        #expect(waited >= PGCanceller.waitLimit - 0.5)
        #expect(waited < PGCanceller.waitLimit + 30, "bounded by the limit, not by the request")
        // The request still ends on its own thread once the server (here, the semaphore) lets it.
        release.signal()
        #expect(finished.wait(timeout: .now() + 30) == .success)
    }
}
