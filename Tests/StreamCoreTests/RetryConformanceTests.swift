import StreamCore
import StreamTesting
import XCTest

/// retry follows Combine's rules for the hand-off, demand and synchronous failures.
final class RetryConformanceTests: XCTestCase {
    func testTheSubscriptionReachesDownstreamWithTheUpstreamsAndDemandIsRequested() {
        let upstream = MisbehavingPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: .max(3), demandAfterValue: { .max($0) })
        upstream.retry(2).subscribe(tracking)
        XCTAssertEqual(tracking.events, [])
        let subscription = RecordingSubscription()
        upstream.send(subscription: subscription)
        XCTAssertEqual(upstream.send(5), .none, "the downstream's extra demand is requested, not returned")
        XCTAssertEqual(subscription.calls, [.request(.max(3)), .request(.max(5))])
    }

    func testEachResubscriptionIsAskedForTheOwedDemand() {
        let upstream = MisbehavingPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: .max(2))
        upstream.retry(1).subscribe(tracking)
        upstream.send(subscription: RecordingSubscription())
        upstream.send(1)
        upstream.send(completion: .failure(.boom))
        let second = RecordingSubscription()
        upstream.send(subscription: second)
        XCTAssertEqual(second.calls, [.request(.max(1))])
        upstream.send(completion: .failure(.other))
        XCTAssertEqual(s4Failure(tracking), .other, "no retries left")
        XCTAssertEqual(tracking.subscriptionCount, 1)
    }

    func testAValueWhileResubscribingIsDeliveredAndItsDemandOwed() {
        let upstream = MisbehavingPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: .max(3), demandAfterValue: { _ in .max(2) })
        upstream.retry(1).subscribe(tracking)
        upstream.send(subscription: RecordingSubscription())
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(upstream.send(1), .none)
        let second = RecordingSubscription()
        upstream.send(subscription: second)
        XCTAssertEqual(tracking.values, [1])
        XCTAssertEqual(second.calls, [.request(.max(4))], "3 - 1 + 2")
    }

    func testTheSubscriberIsReleasedAtCompletion() {
        weak var released: TrackingSubscriber<Int, S4Error>?
        let upstream = MisbehavingPublisher<Int, S4Error>()
        do {
            let tracking = TrackingSubscriber<Int, S4Error>()
            released = tracking
            upstream.retry(1).subscribe(tracking)
            upstream.send(subscription: RecordingSubscription())
            upstream.send(completion: .finished)
        }
        XCTAssertNil(released)
    }

    func testSynchronousFailuresAreRetriedInALoop() {
        var attempts = 0
        let tracking = TrackingSubscriber<Int, S4Error>()
        Deferred { () -> AnyPublisher<Int, S4Error> in
            attempts += 1
            return attempts < 4
                ? Fail(error: .boom).eraseToAnyPublisher()
                : Just(7).setFailureType(to: S4Error.self)
                    .eraseToAnyPublisher()
        }
        .retry(5)
        .subscribe(tracking)
        XCTAssertEqual(attempts, 4)
        XCTAssertEqual(tracking.events, [.subscription, .value(7), .completion(.finished)])
    }
}
