import StreamCore
import StreamTesting
import XCTest

final class AllSatisfyTests: XCTestCase {
    func testAllSatisfyIsTrueWhenEveryElementPasses() {
        s4AssertReduces({ $0.allSatisfy { $0 > 0 } }, sending: [1, 2, 3], expect: true)
        s4AssertReduces({ $0.allSatisfy { $0 > 0 } }, sending: [], expect: true)
    }

    func testAllSatisfyStopsAtTheFirstFailingElement() {
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Bool, S4Error>(initialDemand: .max(1))
        var checked: [Int] = []
        upstream.allSatisfy {
            checked.append($0)
            return $0 < 3
        }.subscribe(tracking)
        upstream.send(1)
        upstream.send(5)
        XCTAssertEqual(tracking.events, [.subscription, .value(false), .completion(.finished)])
        XCTAssertEqual(upstream.cancelCount, 1)
        XCTAssertEqual(checked, [1, 5])
    }

    func testAllSatisfyForwardsFailureAndCancellation() {
        s4AssertReducerForwardsFailure { $0.allSatisfy { $0 > 0 } }
        s4AssertReducerCancels { $0.allSatisfy { $0 > 0 } }
    }

    func testTryAllSatisfy() {
        s4AssertReduces({ $0.tryAllSatisfy { $0 > 0 } }, sending: [1, 2], expect: true)
        s4AssertReduces({ $0.tryAllSatisfy { $0 > 1 } }, sending: [2, 1, 3], expect: false)
        s4AssertReducerForwardsFailure { $0.tryAllSatisfy { $0 > 0 } }
        s4AssertReducerCancels { $0.tryAllSatisfy { $0 > 0 } }
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Bool, any Error>()
        upstream.tryAllSatisfy { _ in throw S4Error.other }.subscribe(tracking)
        upstream.send(1)
        XCTAssertEqual(s4Failure(tracking), .other)
        XCTAssertEqual(upstream.cancelCount, 1)
    }
}
