import StreamCore
import StreamTesting
import XCTest

/// append and prepend follow Combine's rules for the hand-off, demand and lifetimes.
final class ConcatenateConformanceTests: XCTestCase {
    func testTheSubscriptionReachesDownstreamWithThePrefixs() {
        let prefix = MisbehavingPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>(demandAfterValue: { _ in .max(42) })
        prefix.append(Empty()).subscribe(tracking)
        XCTAssertEqual(prefix.send(1), .none)
        prefix.send(completion: .finished)
        XCTAssertEqual(tracking.events, [], "events before the prefix's subscription are ignored")
        prefix.send(subscription: RecordingSubscription())
        XCTAssertEqual(tracking.events, [.subscription])
    }

    func testAValueBeyondTheDemandIsDropped() {
        let prefix = MisbehavingPublisher<Int, S4Error>()
        var sent = 1
        let tracking = TrackingSubscriber<Int, S4Error>(
            initialDemand: .max(3),
            onEvent: { event in
                guard case .value = event, sent < 10 else { return }
                sent += 1
                prefix.send(sent)
            })
        prefix.append(Empty()).subscribe(tracking)
        prefix.send(subscription: RecordingSubscription())
        prefix.send(1)
        XCTAssertEqual(tracking.values, [1, 2, 3])
    }

    func testTheSuffixIsHeldUntilACancel() {
        weak var released: MisbehavingPublisher<Int, S4Error>?
        let tracking = TrackingSubscriber<Int, S4Error>()
        do {
            let prefix = MisbehavingPublisher<Int, S4Error>()
            let suffix = MisbehavingPublisher<Int, S4Error>()
            released = suffix
            prefix.append(suffix).subscribe(tracking)
            prefix.send(subscription: RecordingSubscription())
        }
        XCTAssertNotNil(released)
        tracking.cancel()
        XCTAssertNil(released)
    }

    func testTheSuffixIsAskedForTheOwedDemand() {
        let prefix = MisbehavingPublisher<Int, S4Error>()
        let suffix = MisbehavingPublisher<Int, S4Error>()
        let suffixSubscription = RecordingSubscription()
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: .max(4))
        prefix.append(suffix).subscribe(tracking)
        prefix.send(subscription: RecordingSubscription())
        prefix.send(1)
        prefix.send(completion: .finished)
        suffix.send(subscription: suffixSubscription)
        XCTAssertEqual(suffixSubscription.calls, [.request(.max(3))])
        suffix.send(2)
        suffix.send(completion: .finished)
        XCTAssertEqual(tracking.events, [.subscription, .value(1), .value(2), .completion(.finished)])
    }
}
