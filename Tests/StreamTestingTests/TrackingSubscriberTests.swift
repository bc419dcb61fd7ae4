import StreamCore
import StreamTesting
import XCTest

private struct Boom: Error, Equatable {}

final class TrackingSubscriberTests: XCTestCase {
    func testRecordsSubscriptionValuesAndCompletionInOrder() {
        let publisher = ManualPublisher<Int, Boom>()
        let subscriber = TrackingSubscriber<Int, Boom>()
        publisher.subscribe(subscriber)
        publisher.send(1)
        publisher.send(2)
        publisher.send(completion: .failure(Boom()))
        XCTAssertEqual(subscriber.events, [.subscription, .value(1), .value(2), .completion(.failure(Boom()))])
        XCTAssertEqual(subscriber.values, [1, 2])
        XCTAssertEqual(subscriber.failure, Boom())
        XCTAssertFalse(subscriber.isFinished)
        XCTAssertEqual(publisher.requests, [.unlimited])
    }

    func testInitialAndPerValueDemand() {
        let publisher = ManualPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(2)) { value in
            value == 2 ? .max(3) : .none
        }
        publisher.subscribe(subscriber)
        XCTAssertEqual(publisher.requests, [.max(2)])
        XCTAssertEqual(publisher.demand, .max(2))
        XCTAssertEqual(publisher.send(1), .none)
        XCTAssertEqual(publisher.send(2), .max(3))
        XCTAssertEqual(publisher.demand, .max(3))
    }

    func testNoInitialDemandAndManualRequest() {
        let publisher = ManualPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        subscriber.request(.max(4))  // before subscription: ignored
        publisher.subscribe(subscriber)
        XCTAssertEqual(publisher.requests, [])
        subscriber.request(.none)  // would trap in Combine; the tracker never forwards it
        subscriber.request(.max(1))
        subscriber.subscription?.request(.max(2))
        XCTAssertEqual(publisher.requests, [.max(1), .max(2)])
    }

    func testCancelCancelsTheSubscription() {
        let publisher = ManualPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        publisher.subscribe(subscriber)
        subscriber.cancel()
        XCTAssertTrue(subscriber.isCancelled)
        XCTAssertEqual(publisher.events, [.subscribe, .request(.unlimited), .cancel])
        publisher.send(1)
        XCTAssertEqual(subscriber.values, [], "a live-only send skips the cancelled subscription")
    }

    func testSecondSubscriptionIsRecordedAndCancelled() {
        let first = ManualPublisher<Int, Never>()
        let second = ManualPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        first.subscribe(subscriber)
        second.subscribe(subscriber)
        XCTAssertEqual(subscriber.subscriptionCount, 2)
        XCTAssertEqual(second.events, [.subscribe, .cancel])
        XCTAssertEqual(first.cancelCount, 0)
        XCTAssertEqual(subscriber.subscription?.combineIdentifier, first.subscription?.combineIdentifier)
    }

    func testOnEventRunsOutsideTheLockSoReentrancyWorks() {
        let publisher = ManualPublisher<Int, Never>()
        var subscriber: TrackingSubscriber<Int, Never>!
        subscriber = TrackingSubscriber(onEvent: { event in
            // Reading the records from the callback would deadlock if it ran under the lock.
            if case .value(1) = event { XCTAssertEqual(subscriber.values, [1]) }
        })
        publisher.subscribe(subscriber)
        publisher.send(1)
        XCTAssertEqual(subscriber.values, [1])
    }

    func testRecordsViolationsSuchAsValuesAfterCompletion() {
        let publisher = ManualPublisher<Int, Never>(keepsSubscriberAfterCancel: true)
        let subscriber = TrackingSubscriber<Int, Never>()
        publisher.subscribe(subscriber)
        subscriber.cancel()
        publisher.subscription?.send(9)
        XCTAssertEqual(subscriber.events, [.subscription, .value(9)], "the raw send reaches a cancelled subscriber")
        XCTAssertEqual(subscriber.description, "TrackingSubscriber[subscription, value(9)]")
    }
}
