import StreamCore
import StreamTesting
import XCTest

/// delay and receive(on:) hand the subscription downstream at once (only values and completions go through the
/// scheduler), ignore events before the upstream subscription, and keep what a pending action needs alive.
final class ScheduledHandOffTests: XCTestCase {
    private typealias Make = (MisbehavingPublisher<Int, S4Error>, TestScheduler) -> AnyPublisher<Int, S4Error>

    private let operators: [(String, Make)] = [
        ("receive(on:)", { $0.receive(on: $1).eraseToAnyPublisher() }),
        ("delay", { $0.delay(for: .seconds(1), scheduler: $1).eraseToAnyPublisher() }),
    ]

    func testTheSubscriptionIsNotScheduled() {
        for (name, make) in operators {
            let scheduler = TestScheduler()
            let upstream = MisbehavingPublisher<Int, S4Error>()
            let subscription = RecordingSubscription()
            let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: .max(2))
            make(upstream, scheduler).subscribe(tracking)
            upstream.send(subscription: subscription)
            XCTAssertEqual(tracking.events, [.subscription], name)
            XCTAssertEqual(subscription.calls, [.request(.max(2))], name)
            XCTAssertEqual(scheduler.pendingActionCount, 0, name)
            upstream.send(1)
            upstream.send(completion: .finished)
            XCTAssertEqual(scheduler.pendingActionCount, 2, "\(name): one action per value and completion")
            scheduler.advance(by: .seconds(1))
            XCTAssertEqual(tracking.events, [.subscription, .value(1), .completion(.finished)], name)
        }
    }

    func testEventsBeforeTheSubscriptionAreIgnored() {
        for (name, make) in operators {
            let scheduler = TestScheduler()
            let upstream = MisbehavingPublisher<Int, S4Error>()
            let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: nil)
            make(upstream, scheduler).subscribe(tracking)
            XCTAssertEqual(upstream.send(1), .none, name)
            upstream.send(completion: .finished)
            upstream.subscriberAsSubscription?.cancel()
            scheduler.advance(by: .seconds(1))
            XCTAssertEqual(tracking.events, [], name)
            let subscription = RecordingSubscription()
            upstream.send(subscription: subscription)
            XCTAssertEqual(tracking.events, [.subscription], "\(name): the early cancel did not end it")
            XCTAssertEqual(subscription.calls, [], name)
        }
    }

    func testAScheduledCompletionOutlivesACancelButAScheduledValueDoesNot() {
        for (name, make) in operators {
            let scheduler = TestScheduler()
            let upstream = MisbehavingPublisher<Int, S4Error>()
            let subscription = RecordingSubscription()
            let tracking = TrackingSubscriber<Int, S4Error>()
            make(upstream, scheduler).subscribe(tracking)
            upstream.send(subscription: subscription)
            upstream.send(1)
            tracking.cancel()
            scheduler.advance(by: .seconds(1))
            XCTAssertEqual(tracking.values, [], name)
            XCTAssertEqual(subscription.calls, [.request(.unlimited), .cancel], name)

            let second = TrackingSubscriber<Int, S4Error>()
            let upstream2 = MisbehavingPublisher<Int, S4Error>()
            make(upstream2, scheduler).subscribe(second)
            upstream2.send(subscription: RecordingSubscription())
            upstream2.send(completion: .failure(.boom))
            second.cancel()
            scheduler.advance(by: .seconds(1))
            XCTAssertEqual(second.completion, .failure(.boom), name)
        }
    }

    func testAPendingActionKeepsTheSubscriberAlive() {
        for (name, make) in operators {
            let scheduler = TestScheduler()
            weak var released: TrackingSubscriber<Int, S4Error>?
            do {
                let upstream = MisbehavingPublisher<Int, S4Error>()
                let tracking = TrackingSubscriber<Int, S4Error>()
                released = tracking
                make(upstream, scheduler).subscribe(tracking)
                upstream.send(subscription: RecordingSubscription())
                upstream.send(completion: .finished)
            }
            XCTAssertNotNil(released, "\(name): the scheduled completion holds the chain")
            scheduler.advance(by: .seconds(1))
            XCTAssertEqual(released?.isFinished, true, name)
        }
    }
}
