import StreamCore
import StreamTesting
import XCTest

final class JustEmptyFailTests: XCTestCase {
    func testJustWaitsForDemandThenSendsValueAndFinishes() {
        let recorder = TrackingSubscriber<Int, Never>(initialDemand: nil)
        Just(5).subscribe(recorder)
        XCTAssertEqual(recorder.subscriptionCount, 1)
        XCTAssertEqual(recorder.values, [])
        XCTAssertTrue(recorder.completion == nil)
        recorder.request(.max(1))
        XCTAssertEqual(recorder.values, [5])
        XCTAssertTrue(recorder.isFinished)
        recorder.request(.max(1))
        XCTAssertEqual(recorder.values, [5], "a second request sends nothing more")
    }

    func testJustCancelledBeforeDemandSendsNothing() {
        let recorder = TrackingSubscriber<Int, Never>(initialDemand: nil)
        Just(5).subscribe(recorder)
        recorder.cancel()
        recorder.request(.unlimited)
        XCTAssertEqual(recorder.values, [])
        XCTAssertTrue(recorder.completion == nil)
    }

    func testSubscriptionReleasesTheSubscriberButKeepsTheValue() {
        final class Value {}
        var subscriptions: [any Subscription] = []
        weak var weakSubscriber: TrackingSubscriber<Value, Never>?
        weak var weakValue: Value?
        for cancel in [false, true] {
            do {
                let value = Value()
                weakValue = value
                let subscriber = TrackingSubscriber<Value, Never>(initialDemand: nil)
                weakSubscriber = subscriber
                Just(value).subscribe(subscriber)
                subscriptions.append(subscriber.subscription!)
            }
            XCTAssertNotNil(weakSubscriber)
            if cancel { subscriptions.last?.cancel() } else { subscriptions.last?.request(.unlimited) }
            XCTAssertNil(weakSubscriber, "released after \(cancel ? "cancel" : "completion"), as Combine does")
            XCTAssertNotNil(weakValue, "the value stays with the subscription")
        }
    }

    func testJustIsEquatable() {
        XCTAssertEqual(Just(1), Just(1))
        XCTAssertNotEqual(Just(1), Just(2))
    }

    func testEmptyFinishesImmediatelyOrNever() {
        let now = TrackingSubscriber<Int, S1Error>(initialDemand: nil)
        Empty<Int, S1Error>().subscribe(now)
        XCTAssertEqual(now.subscriptionCount, 1)
        XCTAssertTrue(now.isFinished)

        let never = TrackingSubscriber<Int, S1Error>()
        Empty(completeImmediately: false, outputType: Int.self, failureType: S1Error.self).subscribe(never)
        XCTAssertEqual(never.subscriptionCount, 1)
        XCTAssertTrue(never.completion == nil)
        XCTAssertEqual(Empty<Int, Never>(), Empty<Int, Never>())
        XCTAssertNotEqual(Empty<Int, Never>(), Empty<Int, Never>(completeImmediately: false))
    }

    func testFailSendsErrorWithoutDemand() {
        let recorder = TrackingSubscriber<String, S1Error>(initialDemand: nil)
        Fail<String, S1Error>(error: S1Error(code: 3)).subscribe(recorder)
        XCTAssertEqual(recorder.subscriptionCount, 1)
        XCTAssertEqual(recorder.failure, S1Error(code: 3))
        XCTAssertEqual(Fail(outputType: Int.self, failure: S1Error()), Fail<Int, S1Error>(error: S1Error()))
    }
}
