import StreamCore
import StreamTesting
import XCTest

final class IgnoreOutputTests: XCTestCase {
    func testOnlyTheCompletionGetsThrough() {
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Never, S4Error>(initialDemand: nil)
        upstream.ignoreOutput().subscribe(tracking)
        XCTAssertEqual(upstream.requests, [.unlimited], "values are discarded, so upstream may send them all")
        XCTAssertEqual(upstream.send(1), .none)
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(s4Failure(tracking), .boom)
        XCTAssertEqual(tracking.events.count, 2)
    }

    func testFinishedIsForwarded() {
        let tracking = TrackingSubscriber<Never, Never>(initialDemand: nil)
        (1...100).publisher.ignoreOutput().subscribe(tracking)
        XCTAssertTrue(tracking.isFinished)
    }

    func testCancelReachesUpstreamOnce() {
        let upstream = ManualPublisher<Int, S4Error>(keepsSubscriberAfterCancel: true)
        let tracking = TrackingSubscriber<Never, S4Error>()
        upstream.ignoreOutput().subscribe(tracking)
        tracking.cancel()
        tracking.cancel()
        upstream.subscription?.send(completion: .finished)
        XCTAssertEqual(upstream.cancelCount, 1)
        XCTAssertNil(tracking.completion)
    }
}
