import StreamCore
import StreamTesting
import XCTest

/// dropFirst keeps only the current upstream subscription, as Combine's does.
final class DropFirstReuseTests: XCTestCase {
    func testEveryCompletionIsForwarded() {
        let upstream = MisbehavingPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>()
        upstream.dropFirst(1).subscribe(tracking)
        upstream.send(completion: .finished)
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(tracking.events, [.subscription, .completion(.finished), .completion(.failure(.boom))])
    }

    func testASubscriptionAfterACompletionIsAskedForWhatIsOwed() {
        let upstream = MisbehavingPublisher<Int, S4Error>()
        let first = RecordingSubscription()
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: nil, demandAfterValue: { _ in .max(3) })
        upstream.dropFirst(2).subscribe(tracking)
        upstream.send(subscription: first)
        upstream.send(completion: .finished)
        tracking.cancel()
        tracking.request(.max(10))
        XCTAssertEqual(upstream.send(1), .none, "still counted as dropped")
        let second = RecordingSubscription()
        upstream.send(subscription: second)
        XCTAssertEqual(first.calls, [.request(.max(2))])
        XCTAssertEqual(second.calls, [.request(.max(11))], "10 asked for, plus the one value still to drop")
        XCTAssertEqual(upstream.send(2), .none)
        XCTAssertEqual(upstream.send(3), .max(3))
        XCTAssertEqual(tracking.values, [3])
    }

    func testACancelBeforeTheSubscriptionIsIgnored() {
        let upstream = MisbehavingPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: nil)
        upstream.dropFirst(0).subscribe(tracking)
        tracking.cancel()
        let subscription = RecordingSubscription()
        upstream.send(subscription: subscription)
        XCTAssertEqual(subscription.calls, [])
        tracking.request(.max(1))
        XCTAssertEqual(subscription.calls, [.request(.max(1))])
    }
}
