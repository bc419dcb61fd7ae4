import StreamCore
import StreamTesting
import XCTest

final class SequencePublisherTests: XCTestCase {
    func testUnlimitedDemandSendsAllThenFinishes() {
        let recorder = TrackingSubscriber<Int, Never>()
        [1, 2, 3].publisher.subscribe(recorder)
        XCTAssertEqual(recorder.values, [1, 2, 3])
        XCTAssertTrue(recorder.isFinished)
    }

    func testBackpressureSendsOnlyWhatIsRequestedAndFinishesAfterLast() {
        let recorder = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        (1...5).publisher.subscribe(recorder)
        XCTAssertEqual(recorder.values, [1, 2])
        XCTAssertTrue(recorder.completion == nil)
        recorder.request(.max(2))
        XCTAssertEqual(recorder.values, [1, 2, 3, 4])
        XCTAssertTrue(recorder.completion == nil)
        recorder.request(.max(1))
        XCTAssertEqual(recorder.values, [1, 2, 3, 4, 5])
        XCTAssertTrue(recorder.isFinished, "finishes right after the last element, without more demand")
    }

    func testDemandReturnedFromReceiveIsHonoured() {
        let recorder = TrackingSubscriber<Int, Never>(initialDemand: .max(1), demandAfterValue: { _ in .max(1) })
        (0..<4).publisher.subscribe(recorder)
        XCTAssertEqual(recorder.values, [0, 1, 2, 3])
        XCTAssertTrue(recorder.isFinished)
    }

    func testEmptySequenceFinishesAtOnce() {
        let recorder = TrackingSubscriber<Int, Never>(initialDemand: nil)
        [Int]().publisher.subscribe(recorder)
        XCTAssertEqual(recorder.subscriptionCount, 1)
        XCTAssertTrue(recorder.isFinished)
    }

    func testCancelFromInsideReceiveStopsAtOnce() {
        let subscription = SubscriptionSlot()
        let recorder = TrackingSubscriber<Int, Never>(onEvent: { event in
            if case .value(2) = event { subscription.value?.cancel() }
        })
        subscription.value = recorder
        (1...10).publisher.subscribe(recorder)
        XCTAssertEqual(recorder.values, [1, 2])
        XCTAssertTrue(recorder.completion == nil)
    }

    func testReentrantRequestDoesNotRecurse() {
        let subscription = SubscriptionSlot()
        let recorder = TrackingSubscriber<Int, Never>(
            initialDemand: .max(1),
            onEvent: { event in
                if case .value = event { subscription.value?.request(.max(1)) }
            })
        subscription.value = recorder
        (0..<10_000).publisher.subscribe(recorder)
        XCTAssertEqual(recorder.values.count, 10_000)
        XCTAssertTrue(recorder.isFinished)
    }

    func testEachSubscriberIteratesAfresh() {
        let publisher = [1, 2].publisher
        XCTAssertEqual(publisher.sequence, [1, 2])
        let a = TrackingSubscriber<Int, Never>()
        let b = TrackingSubscriber<Int, Never>()
        publisher.subscribe(a)
        publisher.subscribe(b)
        XCTAssertEqual(a.values, [1, 2])
        XCTAssertEqual(b.values, [1, 2])
    }
}

/// Lets a subscriber's event handler reach the subscriber itself, which does not exist yet when the handler is made.
private final class SubscriptionSlot: @unchecked Sendable {
    weak var value: TrackingSubscriber<Int, Never>?
}
