import StreamCore
import StreamTesting
import XCTest

/// collect(n) forwards every completion, as Combine's does, and ignores a cancel before the subscription.
final class CollectByCountLateEventsTests: XCTestCase {
    func testEveryCompletionIsForwarded() {
        let upstream = MisbehavingPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<[Int], S4Error>()
        upstream.collect(2).subscribe(tracking)
        upstream.send(completion: .finished)
        upstream.send(subscription: RecordingSubscription())
        upstream.send(1)
        upstream.send(completion: .finished)
        upstream.send(completion: .failure(.boom))
        upstream.send(3)
        XCTAssertEqual(
            tracking.events,
            [.completion(.finished), .subscription, .value([1]), .completion(.finished), .completion(.failure(.boom))])
    }

    func testAFinishAfterACancelIsForwardedWithoutThePartialGroup() {
        let upstream = MisbehavingPublisher<Int, S4Error>()
        let subscription = RecordingSubscription()
        let tracking = TrackingSubscriber<[Int], S4Error>()
        upstream.collect(2).subscribe(tracking)
        upstream.send(subscription: subscription)
        upstream.send(1)
        tracking.cancel()
        upstream.send(completion: .finished)
        XCTAssertEqual(tracking.events, [.subscription, .completion(.finished)])
        XCTAssertEqual(subscription.calls, [.request(.unlimited), .cancel])
    }

    func testACancelBeforeTheSubscriptionIsIgnored() {
        let upstream = MisbehavingPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<[Int], S4Error>(initialDemand: nil)
        upstream.collect(2).subscribe(tracking)
        upstream.subscriberAsSubscription?.cancel()
        let subscription = RecordingSubscription()
        upstream.send(subscription: subscription)
        XCTAssertEqual(tracking.events, [.subscription])
        XCTAssertEqual(subscription.calls, [])
    }
}
