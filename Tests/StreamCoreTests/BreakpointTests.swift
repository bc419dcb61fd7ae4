import StreamCore
import StreamTesting
import Synchronization
import XCTest

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SIGTRAPs caught by the test handler, instead of stopping the process.
private let caughtTraps = Atomic<Int>(0)

final class BreakpointTests: XCTestCase {
    /// Runs `body` with SIGTRAP counted instead of delivered, so a breakpoint can be observed without a debugger.
    private func countingTraps(_ body: () -> Void) -> Int {
        caughtTraps.store(0, ordering: .relaxed)
        let previous = signal(SIGTRAP) { _ in caughtTraps.add(1, ordering: .relaxed) }
        defer { signal(SIGTRAP, previous) }
        body()
        return caughtTraps.load(ordering: .relaxed)
    }

    func testNoSignalWhileClosuresReturnFalse() {
        let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        let traps = countingTraps {
            (1...5).publisher.breakpoint(
                receiveSubscription: { _ in false },
                receiveOutput: { _ in false },
                receiveCompletion: { _ in false }
            ).subscribe(tracking)
        }
        XCTAssertEqual(traps, 0)
        XCTAssertEqual(tracking.values, [1, 2], "demand passes straight through")
    }

    func testSignalRaisedWhenAClosureReturnsTrueAndTheEventStillArrives() {
        let tracking = TrackingSubscriber<Int, Never>()
        let traps = countingTraps {
            [1, 2, 3].publisher.breakpoint(receiveOutput: { $0 == 2 }).subscribe(tracking)
        }
        XCTAssertEqual(traps, 1)
        XCTAssertEqual(tracking.events, [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    func testBreakpointOnErrorStopsOnlyOnFailure() {
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>()
        let traps = countingTraps {
            upstream.breakpointOnError().subscribe(tracking)
            upstream.send(1)
            upstream.send(completion: .failure(.boom))
        }
        XCTAssertEqual(traps, 1)
        XCTAssertEqual(tracking.events, [.subscription, .value(1), .completion(.failure(.boom))])

        let finishing = TrackingSubscriber<Int, Never>()
        XCTAssertEqual(countingTraps { [1].publisher.breakpointOnError().subscribe(finishing) }, 0)
    }

    func testCancelReachesUpstream() {
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>()
        upstream.breakpoint().subscribe(tracking)
        tracking.cancel()
        XCTAssertEqual(upstream.cancelCount, 1)
    }
}
