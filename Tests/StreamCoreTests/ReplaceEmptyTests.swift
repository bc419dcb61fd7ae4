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

    func testUpstreamIsAlsoAskedForEverythingAsInCombine() {
        // Combine's replaceEmpty passes the downstream's demand on and also requests `.unlimited` right after the
        // hand-off, so a synchronous upstream delivers everything, whatever the downstream asked for.
        let upstream = MisbehavingPublisher<Int, Never>()
        let subscription = RecordingSubscription()
        let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        upstream.replaceEmpty(with: 0).subscribe(tracking)
        upstream.send(subscription: subscription)
        XCTAssertEqual(subscription.calls, [.request(.max(2)), .request(.unlimited)])
        let all = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        (1...5).publisher.replaceEmpty(with: 0).subscribe(all)
        XCTAssertEqual(all.values, [1, 2, 3, 4, 5])
    }

    func testACancelBeforeTheSubscriptionIsIgnored() {
        let upstream = MisbehavingPublisher<Int, Never>()
        let tracking = TrackingSubscriber<Int, Never>(initialDemand: nil)
        upstream.replaceEmpty(with: 0).subscribe(tracking)
        upstream.subscriberAsSubscription?.cancel()
        let subscription = RecordingSubscription()
        upstream.send(subscription: subscription)
        XCTAssertEqual(subscription.calls, [.request(.unlimited)])
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
