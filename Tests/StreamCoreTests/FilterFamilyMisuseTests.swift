import Foundation
import StreamCore
import StreamTesting
import XCTest

/// The one-in, at-most-one-out operators answer protocol violations as Combine does, each its own way.
final class FilterFamilyMisuseTests: XCTestCase {
    private func subscribe<P: Publisher>(
        _ make: (MisbehavingPublisher<Int, S4Error>) -> P, returning demand: Subscribers.Demand = .max(42)
    ) -> (MisbehavingPublisher<Int, S4Error>, TrackingSubscriber<P.Output, P.Failure>) {
        let upstream = MisbehavingPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<P.Output, P.Failure>(initialDemand: nil, demandAfterValue: { _ in demand })
        make(upstream).subscribe(tracking)
        return (upstream, tracking)
    }

    func testTryMapForwardsValuesBeforeTheSubscriptionAndAfterItsEnd() throws {
        let (upstream, tracking) = subscribe {
            $0.tryMap { value -> Int in
                if value == 3 { throw S4Error.boom }
                return value * 10
            }
        }
        XCTAssertEqual(upstream.send(1), .max(42), "a value before the subscription is forwarded")
        upstream.send(completion: .finished)
        XCTAssertEqual(tracking.values, [10], "a completion before it is ignored")
        upstream.send(subscription: RecordingSubscription())
        XCTAssertEqual(upstream.send(3), .none)
        XCTAssertEqual(upstream.send(4), .max(42), "a value after the thrown error is still forwarded")
        XCTAssertEqual(tracking.values, [10, 40])
        upstream.send(completion: .finished)
        XCTAssertEqual(s4Failure(tracking), .boom)
        XCTAssertEqual(tracking.events.count, 4, "10, the subscription, the failure, 40: the late finish is not passed")
        upstream.send(3)
        XCTAssertEqual(tracking.events.count, 5, "but, as in Combine, a late value that throws fails again")

        // After a cancel, by contrast, completions are not forwarded (values still are).
        let (second, cancelled) = subscribe { $0.tryMap { $0 } }
        second.send(subscription: RecordingSubscription())
        cancelled.cancel()
        XCTAssertEqual(second.send(1), .max(42))
        second.send(completion: .finished)
        XCTAssertEqual(cancelled.events.count, 2, "the subscription and 1")
    }

    func testEncodeForwardsEarlyEventsAndIgnoresAnEarlyCancel() {
        let (upstream, tracking) = subscribe { $0.encode(encoder: JSONEncoder()) }
        XCTAssertEqual(upstream.send(7), .max(42))
        XCTAssertEqual(tracking.values, [Data("7".utf8)])
        upstream.send(completion: .finished)
        XCTAssertTrue(tracking.isFinished)

        let (second, _) = subscribe { $0.encode(encoder: JSONEncoder()) }
        second.subscriberAsSubscription?.cancel()
        let subscription = RecordingSubscription()
        second.send(subscription: subscription)
        XCTAssertEqual(subscription.calls, [], "the early cancel neither ended the stream nor reached upstream")
    }

    func testOutputCountsValuesBeforeTheSubscription() {
        let (upstream, tracking) = subscribe { $0.output(in: 1..<3) }
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(upstream.send(1), .max(1), "skipped: replaced")
        XCTAssertEqual(upstream.send(2), .max(42))
        XCTAssertEqual(upstream.send(3), .max(42))
        XCTAssertEqual(upstream.send(4), .none, "past the range")
        XCTAssertEqual(tracking.values, [2, 3])
        upstream.send(subscription: RecordingSubscription())
        XCTAssertEqual(tracking.subscriptionCount, 1, "the early completion was ignored")
    }

    func testDropWhileIgnoresAnEarlyCancel() {
        let (upstream, tracking) = subscribe { $0.drop { $0 < 2 } }
        upstream.subscriberAsSubscription?.cancel()
        let subscription = RecordingSubscription()
        upstream.send(subscription: subscription)
        XCTAssertEqual(tracking.subscriptionCount, 1)
        XCTAssertEqual(subscription.calls, [])
    }
}
