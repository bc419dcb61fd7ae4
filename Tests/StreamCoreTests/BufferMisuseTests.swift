import StreamCore
import StreamTesting
import XCTest

/// buffer's answers to misuse and to late events, as Combine gives them.
final class BufferMisuseTests: XCTestCase {
    private func makeBuffer(
        _ upstream: MisbehavingPublisher<Int, S4Error>, size: Int = 3, prefetch: Publishers.PrefetchStrategy,
        whenFull: Publishers.BufferingStrategy<S4Error> = .dropNewest
    ) -> Publishers.Buffer<MisbehavingPublisher<Int, S4Error>> {
        upstream.buffer(size: size, prefetch: prefetch, whenFull: whenFull)
    }

    func testEventsBeforeTheSubscriptionAreIgnored() {
        for prefetch in [Publishers.PrefetchStrategy.keepFull, .byRequest] {
            let upstream = MisbehavingPublisher<Int, S4Error>()
            let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: nil)
            makeBuffer(upstream, prefetch: prefetch).subscribe(tracking)
            XCTAssertEqual(upstream.send(1), .none)
            upstream.send(completion: .finished)
            upstream.subscriberAsSubscription?.request(.max(1))
            upstream.subscriberAsSubscription?.cancel()
            XCTAssertEqual(tracking.events, [])
            let subscription = RecordingSubscription()
            upstream.send(subscription: subscription)
            XCTAssertEqual(subscription.calls, [.request(prefetch == .keepFull ? .max(3) : .unlimited)])
            XCTAssertEqual(tracking.events, [.subscription])
        }
    }

    func testRequestingNoneIsAccepted() {
        let upstream = MisbehavingPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: nil)
        makeBuffer(upstream, prefetch: .byRequest).subscribe(tracking)
        upstream.send(subscription: RecordingSubscription())
        upstream.send(1)
        tracking.subscription?.request(.none)
        XCTAssertEqual(tracking.values, [])
        tracking.request(.max(1))
        XCTAssertEqual(tracking.values, [1])
    }

    func testKeepFullReturnsTheRefillFromReceiveAndRequestsItAfterARequest() {
        let upstream = MisbehavingPublisher<Int, S4Error>()
        let subscription = RecordingSubscription()
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: nil)
        makeBuffer(upstream, size: 5, prefetch: .keepFull).subscribe(tracking)
        upstream.send(subscription: subscription)
        XCTAssertEqual(upstream.send(1), .none, "buffered: nothing to refill yet")
        XCTAssertEqual(upstream.send(2), .none)
        tracking.request(.max(3))
        XCTAssertEqual(tracking.values, [1, 2])
        XCTAssertEqual(subscription.calls, [.request(.max(5)), .request(.max(2))])
        XCTAssertEqual(upstream.send(3), .max(1), "delivered at once: the refill is the returned demand")
        XCTAssertEqual(subscription.calls, [.request(.max(5)), .request(.max(2))])
    }

    func testAFullBufferFailureWaitsForTheBufferedValuesWhileThereIsDemand() {
        let upstream = MisbehavingPublisher<Int, S4Error>()
        let subscription = RecordingSubscription()
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: nil)
        makeBuffer(upstream, prefetch: .byRequest, whenFull: .customError { .boom }).subscribe(tracking)
        upstream.send(subscription: subscription)
        for value in 1...5 { upstream.send(value) }
        XCTAssertEqual(tracking.events, [.subscription], "no demand: the failure waits")
        XCTAssertEqual(subscription.calls, [.request(.unlimited), .cancel])
        tracking.request(.max(5))
        XCTAssertEqual(tracking.events, [.subscription, .value(1), .value(2), .value(3), .completion(.failure(.boom))])
    }

    func testKeepFullStillAsksForTheRefillWhenTheDrainEndsWithTheHeldFailure() {
        let upstream = MisbehavingPublisher<Int, S4Error>()
        let subscription = RecordingSubscription()
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: nil)
        makeBuffer(upstream, size: 2, prefetch: .keepFull, whenFull: .customError { .boom }).subscribe(tracking)
        upstream.send(subscription: subscription)
        for value in 1...3 { upstream.send(value) }
        tracking.request(.max(1))
        XCTAssertEqual(tracking.events, [.subscription, .value(1), .completion(.failure(.boom))])
        XCTAssertEqual(subscription.calls, [.request(.max(2)), .cancel, .request(.max(1))])
    }

    func testAFailureWithoutDemandDropsTheBufferedValues() {
        let upstream = MisbehavingPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: nil)
        makeBuffer(upstream, prefetch: .byRequest).subscribe(tracking)
        upstream.send(subscription: RecordingSubscription())
        upstream.send(1)
        upstream.send(completion: .failure(.other))
        XCTAssertEqual(tracking.events, [.subscription, .completion(.failure(.other))])
    }

    func testValuesAfterAFinishAreStillBufferedAndDelivered() {
        let upstream = MisbehavingPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: nil)
        makeBuffer(upstream, prefetch: .byRequest).subscribe(tracking)
        upstream.send(subscription: RecordingSubscription())
        upstream.send(completion: .finished)
        XCTAssertEqual(tracking.events, [.subscription], "the finish waits for demand")
        upstream.send(1)
        upstream.send(2)
        tracking.request(.max(2))
        XCTAssertEqual(tracking.events, [.subscription, .value(1), .value(2)])
        tracking.request(.max(1))
        XCTAssertEqual(tracking.events, [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    func testTheSubscriberIsHeldForTheSubscriptionsLife() {
        weak var released: TrackingSubscriber<Int, S4Error>?
        let upstream = MisbehavingPublisher<Int, S4Error>()
        do {
            let tracking = TrackingSubscriber<Int, S4Error>()
            released = tracking
            makeBuffer(upstream, prefetch: .byRequest).subscribe(tracking)
            upstream.send(subscription: RecordingSubscription())
            upstream.send(completion: .finished)
        }
        // The tracking subscriber keeps its subscription, and the subscription keeps it: Combine's cycle.
        XCTAssertNotNil(released)
        XCTAssertEqual(released?.isFinished, true)
    }
}
