import StreamCore
import StreamTesting
import XCTest

/// handleEvents passes every event through, in any state, as Combine's does.
final class HandleEventsPassThroughTests: XCTestCase {
    func testEventsBeforeTheSubscriptionAreReportedAndForwarded() {
        var log: [String] = []
        let upstream = MisbehavingPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: nil, demandAfterValue: { _ in .max(4) })
        upstream.handleEvents(
            receiveSubscription: { _ in log.append("subscription") },
            receiveOutput: { log.append("value \($0)") },
            receiveCompletion: { _ in log.append("completion") },
            receiveCancel: { log.append("cancel") },
            receiveRequest: { log.append("request \($0)") }
        ).subscribe(tracking)
        upstream.subscriberAsSubscription?.cancel()
        upstream.subscriberAsSubscription?.request(.max(1))
        XCTAssertEqual(upstream.send(7), .max(4))
        let subscription = RecordingSubscription()
        upstream.send(subscription: subscription)
        XCTAssertEqual(log, ["cancel", "request max(1)", "value 7", "request max(4)", "subscription"])
        XCTAssertEqual(tracking.events, [.value(7), .subscription])
        XCTAssertEqual(subscription.calls, [], "the early cancel and request did not reach the later subscription")
    }

    func testCompletionsAndValuesAfterTheEndStillPass() {
        let upstream = MisbehavingPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>(demandAfterValue: { _ in .max(2) })
        upstream.handleEvents().subscribe(tracking)
        upstream.send(subscription: RecordingSubscription())
        upstream.send(completion: .finished)
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(upstream.send(1), .max(2))
        XCTAssertEqual(
            tracking.events, [.subscription, .completion(.finished), .completion(.failure(.boom)), .value(1)])
    }

    func testEachSubscriptionIsReportedAndAnExtraOneCancelled() {
        var reported = 0
        let upstream = MisbehavingPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: nil)
        upstream.handleEvents(receiveSubscription: { _ in reported += 1 }).subscribe(tracking)
        upstream.send(subscription: RecordingSubscription())
        let extra = RecordingSubscription()
        upstream.send(subscription: extra)
        XCTAssertEqual(reported, 2)
        XCTAssertEqual(extra.calls, [.cancel])
        XCTAssertEqual(tracking.subscriptionCount, 1)
    }
}
