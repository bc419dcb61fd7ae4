import StreamCore
import StreamTesting
import XCTest

final class ReplaceEmptyTests: XCTestCase {
    func testEmptyStreamPublishesTheReplacement() {
        let tracking = TrackingSubscriber<Int, Never>()
        [Int]().publisher.replaceEmpty(with: 42).subscribe(tracking)
        XCTAssertEqual(tracking.events, [.subscription, .value(42), .completion(.finished)])
    }

    func testNonEmptyStreamIsUnchanged() {
        let tracking = TrackingSubscriber<Int, Never>()
        [1, 2].publisher.replaceEmpty(with: 42).subscribe(tracking)
        XCTAssertEqual(tracking.events, [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    func testReplacementWaitsForDemand() {
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: nil)
        upstream.replaceEmpty(with: 22).subscribe(tracking)
        upstream.send(completion: .finished)
        XCTAssertEqual(tracking.events, [.subscription])
        tracking.request(.max(1))
        XCTAssertEqual(tracking.events, [.subscription, .value(22), .completion(.finished)])
    }

    func testDemandPassesThroughAndIsNeverExceeded() {
        let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        (1...5).publisher.replaceEmpty(with: 0).subscribe(tracking)
        XCTAssertEqual(tracking.values, [1, 2])
        XCTAssertNil(tracking.completion)
    }

    func testFailureIsForwardedWithoutReplacement() {
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: nil)
        upstream.replaceEmpty(with: 1).subscribe(tracking)
        upstream.send(completion: .failure(.boom))
        tracking.request(.unlimited)
        XCTAssertEqual(tracking.events, [.subscription, .completion(.failure(.boom))])
    }

    func testCancelReachesUpstreamOnce() {
        let upstream = ManualPublisher<Int, S4Error>(keepsSubscriberAfterCancel: true)
        let tracking = TrackingSubscriber<Int, S4Error>()
        upstream.replaceEmpty(with: 1).subscribe(tracking)
        tracking.cancel()
        tracking.cancel()
        upstream.subscription?.send(completion: .finished)
        XCTAssertEqual(upstream.cancelCount, 1)
        XCTAssertEqual(tracking.events, [.subscription])
    }
}
