import StreamCore
import StreamTesting
import XCTest

final class DropWhileTests: XCTestCase {
    func testDropWhileReplacesEachDroppedValueWithOneMoreRequest() {
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: .max(1))
        var calls = 0
        upstream.drop {
            calls += 1
            return $0 < 3
        }.subscribe(tracking)
        XCTAssertEqual(upstream.requests, [.max(1)])
        XCTAssertEqual(upstream.send(1), .max(1))
        XCTAssertEqual(upstream.send(2), .max(1))
        XCTAssertEqual(upstream.send(3), .none)
        XCTAssertEqual(tracking.values, [3])
        tracking.request(.max(1))
        upstream.send(0)
        XCTAssertEqual(tracking.values, [3, 0], "once an element passed, nothing more is dropped")
        XCTAssertEqual(calls, 3)
    }

    func testDropWhileHonoursMaxDemandOnASequence() {
        let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        [1, 2, 3, 4, 5, 6].publisher.drop { $0 < 3 }.subscribe(tracking)
        XCTAssertEqual(tracking.values, [3, 4])
        XCTAssertNil(tracking.completion)
    }

    func testDropWhileForwardsFailureAndCancel() {
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>()
        upstream.drop { $0 < 3 }.subscribe(tracking)
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(tracking.events, [.subscription, .completion(.failure(.boom))])

        let second = ManualPublisher<Int, S4Error>()
        let cancelling = TrackingSubscriber<Int, S4Error>()
        second.drop { $0 < 3 }.subscribe(cancelling)
        cancelling.cancel()
        XCTAssertEqual(second.cancelCount, 1)
    }

    func testTryDropWhile() {
        let tracking = TrackingSubscriber<Int, any Error>()
        [1, 5, 1].publisher.tryDrop { $0 < 3 }.subscribe(tracking)
        XCTAssertEqual(tracking.values, [5, 1])
        XCTAssertTrue(tracking.isFinished)

        let upstream = ManualPublisher<Int, S4Error>()
        let failing = TrackingSubscriber<Int, any Error>()
        upstream.tryDrop { _ in throw S4Error.other }.subscribe(failing)
        upstream.send(1)
        XCTAssertEqual(s4Failure(failing), .other)
        XCTAssertEqual(upstream.cancelCount, 1)
    }
}
