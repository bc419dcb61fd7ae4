import StreamCore
import StreamTesting
import XCTest

final class ContainsTests: XCTestCase {
    func testContainsFinishesEarlyAndCancelsUpstream() {
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Bool, S4Error>(initialDemand: nil)
        upstream.contains(3).subscribe(tracking)
        XCTAssertEqual(upstream.requests, [.unlimited])
        upstream.send(1)
        upstream.send(3)
        XCTAssertEqual(upstream.cancelCount, 1, "found: upstream is cancelled at once")
        XCTAssertEqual(tracking.values, [], "but the answer waits for demand")
        tracking.request(.max(1))
        XCTAssertEqual(tracking.events, [.subscription, .value(true), .completion(.finished)])
    }

    func testContainsIsFalseWhenUpstreamFinishesWithoutIt() {
        s4AssertReduces({ $0.contains(9) }, sending: [1, 2], expect: false)
    }

    func testContainsForwardsFailureAndCancellation() {
        s4AssertReducerForwardsFailure { $0.contains(9) }
        s4AssertReducerCancels { $0.contains(9) }
    }

    func testContainsWhere() {
        s4AssertReduces({ $0.contains { $0 > 10 } }, sending: [1, 2], expect: false)
        let tracking = TrackingSubscriber<Bool, Never>()
        (1...).publisher.contains { $0 > 10 }.subscribe(tracking)
        XCTAssertEqual(tracking.events, [.subscription, .value(true), .completion(.finished)])
        s4AssertReducerForwardsFailure { $0.contains { $0 > 10 } }
        s4AssertReducerCancels { $0.contains { $0 > 10 } }
    }

    func testTryContainsWhere() {
        s4AssertReduces({ $0.tryContains { $0 > 10 } }, sending: [1, 2], expect: false)
        s4AssertReducerForwardsFailure { $0.tryContains { $0 > 10 } }
        s4AssertReducerCancels { $0.tryContains { $0 > 10 } }
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Bool, any Error>()
        upstream.tryContains { value in
            if value < 0 { throw S4Error.other }
            return false
        }.subscribe(tracking)
        upstream.send(1)
        upstream.send(-1)
        XCTAssertEqual(s4Failure(tracking), .other)
        XCTAssertEqual(upstream.cancelCount, 1)
    }
}
