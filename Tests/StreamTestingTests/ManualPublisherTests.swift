import StreamCore
import StreamTesting
import XCTest

final class ManualPublisherTests: XCTestCase {
    func testDemandAccounting() {
        let publisher = ManualPublisher<String, Never>()
        let subscriber = TrackingSubscriber<String, Never>(initialDemand: .max(3))
        publisher.subscribe(subscriber)
        publisher.send("a")
        XCTAssertEqual(publisher.demand, .max(2))
        subscriber.request(.max(5))
        XCTAssertEqual(publisher.demand, .max(7))
        XCTAssertEqual(publisher.subscription?.requests, [.max(3), .max(5)])
    }

    func testSendReachesLiveSubscriptionsInSubscriptionOrder() {
        let publisher = ManualPublisher<Int, Never>()
        var order: [String] = []
        let a = TrackingSubscriber<Int, Never>(onEvent: { if case .value = $0 { order.append("a") } })
        let b = TrackingSubscriber<Int, Never>(onEvent: { if case .value = $0 { order.append("b") } })
        publisher.subscribe(a)
        publisher.subscribe(b)
        publisher.send(1)
        XCTAssertEqual(order, ["a", "b"])
        XCTAssertEqual(publisher.liveSubscriptionCount, 2)
        publisher.send(completion: .finished)
        XCTAssertEqual(publisher.liveSubscriptionCount, 0)
        publisher.send(2)
        XCTAssertEqual(a.events, [.subscription, .value(1), .completion(.finished)])
        XCTAssertEqual(b.values, [1])
    }

    func testDeferredSubscriptionLetsATestSendFirst() {
        let publisher = ManualPublisher<Int, Never>(sendsSubscriptionOnSubscribe: false)
        let subscriber = TrackingSubscriber<Int, Never>()
        publisher.subscribe(subscriber)
        XCTAssertEqual(subscriber.events, [])
        publisher.subscription?.send(0)
        publisher.subscription?.sendSubscription()
        XCTAssertEqual(subscriber.events, [.value(0), .subscription])
    }

    func testCancelReleasesTheSubscriberUnlessKept() {
        weak var weakSubscriber: TrackingSubscriber<Int, Never>?
        let publisher = ManualPublisher<Int, Never>()
        do {
            let subscriber = TrackingSubscriber<Int, Never>()
            weakSubscriber = subscriber
            publisher.subscribe(subscriber)
            subscriber.cancel()
        }
        XCTAssertNil(weakSubscriber)
        XCTAssertEqual(publisher.subscription?.hasSubscriber, false)
        XCTAssertEqual(publisher.subscription?.isCancelled, true)

        let keeping = ManualPublisher<Int, Never>(keepsSubscriberAfterCancel: true)
        let kept = TrackingSubscriber<Int, Never>()
        keeping.subscribe(kept)
        kept.cancel()
        kept.cancel()
        XCTAssertEqual(keeping.subscription?.hasSubscriber, true)
        XCTAssertEqual(keeping.cancelCount, 2, "every cancel call is recorded")
    }

    func testRecordsARequestOfNoneSoMisuseIsVisible() {
        let publisher = ManualPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        publisher.subscribe(subscriber)
        subscriber.subscription?.request(.none)
        XCTAssertEqual(publisher.requests, [.none])
    }
}
