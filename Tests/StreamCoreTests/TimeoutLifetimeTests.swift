import StreamCore
import StreamTesting
import XCTest

/// timeout's lifetimes and late cancels, as Combine has them.
final class TimeoutLifetimeTests: XCTestCase {
    func testTheRunningTimerHoldsTheSubscriber() {
        let scheduler = TestScheduler()
        weak var released: TrackingSubscriber<Int, S4Error>?
        do {
            let upstream = MisbehavingPublisher<Int, S4Error>()
            let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: nil)
            released = tracking
            upstream.timeout(.seconds(1), scheduler: scheduler).subscribe(tracking)
            upstream.send(subscription: RecordingSubscription())
        }
        XCTAssertNotNil(released, "the timer still holds the chain")
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(released?.isFinished, true, "and times it out")
    }

    func testACancelAfterUpstreamCompletedReachesUpstreamAndStopsTheScheduledCompletion() {
        let scheduler = TestScheduler()
        let upstream = MisbehavingPublisher<Int, S4Error>()
        let subscription = RecordingSubscription()
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: .max(1))
        upstream.timeout(.seconds(1), scheduler: scheduler).subscribe(tracking)
        upstream.send(subscription: subscription)
        upstream.send(completion: .failure(.boom))
        tracking.cancel()
        scheduler.advance(by: .seconds(5))
        XCTAssertEqual(subscription.calls, [.request(.max(1)), .cancel])
        XCTAssertEqual(tracking.events, [.subscription])
    }

    func testACancelBeforeTheSubscriptionIsIgnored() {
        let scheduler = TestScheduler()
        let upstream = MisbehavingPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: nil)
        upstream.timeout(.seconds(1), scheduler: scheduler).subscribe(tracking)
        upstream.subscriberAsSubscription?.cancel()
        let subscription = RecordingSubscription()
        upstream.send(subscription: subscription)
        XCTAssertEqual(subscription.calls, [])
        XCTAssertEqual(tracking.events, [.subscription])
    }
}
