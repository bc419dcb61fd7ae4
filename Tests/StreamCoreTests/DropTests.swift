import StreamCore
import StreamTesting
import XCTest

final class DropTests: XCTestCase {
    func testDropFirstAsksForTheDroppedCountAlongWithDownstreamDemand() {
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: .max(3), demandAfterValue: { _ in .none })
        upstream.dropFirst(2).subscribe(tracking)
        XCTAssertEqual(upstream.requests, [.max(5)])
        XCTAssertEqual(upstream.send(1), .none)
        XCTAssertEqual(upstream.send(2), .none)
        upstream.send(3)
        upstream.send(4)
        upstream.send(5)
        XCTAssertEqual(tracking.values, [3, 4, 5])
        XCTAssertEqual(upstream.demand, .none, "exactly the downstream's demand was used")
    }

    func testDropFirstWithoutDownstreamDemandStillRequestsTheDroppedCount() {
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: nil)
        upstream.dropFirst().subscribe(tracking)
        XCTAssertEqual(upstream.requests, [.max(1)])
        upstream.send(1)
        XCTAssertEqual(tracking.values, [])
        tracking.request(.max(1))
        XCTAssertEqual(upstream.requests, [.max(1), .max(1)])
    }

    func testDropFirstHonoursMaxDemandOnASequence() {
        let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        (1...10).publisher.dropFirst(3).subscribe(tracking)
        XCTAssertEqual(tracking.values, [4, 5])
        tracking.request(.unlimited)
        XCTAssertEqual(tracking.values, [4, 5, 6, 7, 8, 9, 10])
        XCTAssertTrue(tracking.isFinished)
    }

    func testDropFirstForwardsCompletionsAndCancel() {
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>()
        upstream.dropFirst().subscribe(tracking)
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(tracking.events, [.subscription, .completion(.failure(.boom))])

        let second = ManualPublisher<Int, S4Error>(keepsSubscriberAfterCancel: true)
        let cancelling = TrackingSubscriber<Int, S4Error>()
        second.dropFirst(0).subscribe(cancelling)
        cancelling.cancel()
        cancelling.cancel()
        second.subscription?.send(1)
        XCTAssertEqual(second.cancelCount, 1)
        XCTAssertEqual(cancelling.events, [.subscription])
    }

    func testSubscriptionReachesDownstreamBeforeUpstreamIsAsked() {
        let upstream = ManualPublisher<Int, S4Error>(sendsSubscriptionOnSubscribe: false)
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: .max(10))
        upstream.dropFirst(4).subscribe(tracking)
        XCTAssertEqual(tracking.subscriptionCount, 1, "Combine hands Drop's subscription down first")
        upstream.subscription?.sendSubscription()
        XCTAssertEqual(upstream.requests, [.max(14)])
    }

    func testAValueBeforeTheUpstreamSubscriptionIsCountedNotLost() {
        let upstream = ManualPublisher<Int, S4Error>(sendsSubscriptionOnSubscribe: false)
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: .max(5))
        upstream.dropFirst(1).subscribe(tracking)
        upstream.subscription?.send(1)
        upstream.subscription?.send(2)
        XCTAssertEqual(tracking.values, [2], "as in Combine, the downstream already holds Drop's subscription")
    }
}
