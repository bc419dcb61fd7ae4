import StreamCore
import StreamTesting
import XCTest

/// catch and tryCatch follow Combine's rules for the hand-off, demand and late events.
final class CatchConformanceTests: XCTestCase {
    func testTheSubscriptionReachesDownstreamWithTheUpstreams() {
        let upstream = MisbehavingPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, Never>(initialDemand: nil)
        upstream.catch { _ in Just(0) }.subscribe(tracking)
        upstream.send(completion: .finished)
        XCTAssertEqual(tracking.events, [], "nothing before the upstream subscription")
        upstream.send(subscription: RecordingSubscription())
        XCTAssertEqual(tracking.events, [.subscription])
    }

    func testTheReplacementIsAskedForTheOwedDemand() {
        let upstream = MisbehavingPublisher<Int, S4Error>()
        let replacement = MisbehavingPublisher<Int, S4Error>()
        let replacementSubscription = RecordingSubscription()
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: .max(5), demandAfterValue: { _ in .max(2) })
        upstream.catch { _ in replacement }.subscribe(tracking)
        upstream.send(subscription: RecordingSubscription())
        XCTAssertEqual(upstream.send(1), .max(2))
        upstream.send(completion: .failure(.boom))
        replacement.send(subscription: replacementSubscription)
        XCTAssertEqual(replacementSubscription.calls, [.request(.max(6))], "5 - 1 + 2")
    }

    func testACancelWhileTheReplacementSubscribesIsIgnored() {
        let upstream = MisbehavingPublisher<Int, S4Error>()
        let replacement = MisbehavingPublisher<Int, S4Error>()
        let replacementSubscription = RecordingSubscription()
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: .max(3))
        upstream.catch { _ in replacement }.subscribe(tracking)
        upstream.send(subscription: RecordingSubscription())
        upstream.send(completion: .failure(.boom))
        tracking.cancel()
        replacement.send(subscription: replacementSubscription)
        XCTAssertEqual(replacementSubscription.calls, [.request(.max(3))])
        replacement.send(completion: .finished)
        XCTAssertEqual(tracking.events, [.subscription, .completion(.finished)])
    }

    func testValuesAfterACancelStillPass() {
        let upstream = MisbehavingPublisher<Int, S4Error>()
        let subscription = RecordingSubscription()
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: .max(1), demandAfterValue: { _ in .max(3) })
        upstream.catch { _ in Empty<Int, S4Error>() }.subscribe(tracking)
        upstream.send(subscription: subscription)
        tracking.cancel()
        XCTAssertEqual(upstream.send(1), .max(3))
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(tracking.events, [.subscription, .value(1)], "the failure after the cancel is not recovered")
        XCTAssertEqual(subscription.calls, [.request(.max(1)), .cancel])
    }

    func testTryCatchIgnoresAFailureAfterTheFinish() {
        let upstream = MisbehavingPublisher<Int, S4Error>()
        var handled = 0
        let tracking = TrackingSubscriber<Int, any Error>()
        upstream.tryCatch { error -> Fail<Int, S4Error> in
            handled += 1
            return Fail(error: error)
        }.subscribe(tracking)
        upstream.send(subscription: RecordingSubscription())
        upstream.send(completion: .finished)
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(handled, 0)
        XCTAssertTrue(tracking.isFinished)
    }
}
