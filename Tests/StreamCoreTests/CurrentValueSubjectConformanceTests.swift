import StreamCore
import StreamTesting
import XCTest

/// CurrentValueSubject's upstream subscriptions and late values, and Demand's overflow, as Combine has them.
final class CurrentValueSubjectConformanceTests: XCTestCase {
    func testAnUpstreamSubscriptionIsAskedForEverythingAtOnceAndCancelledAtRelease() {
        let subscription = RecordingSubscription()
        do {
            let subject = CurrentValueSubject<Int, Never>(0)
            subject.send(subscription: subscription)
            XCTAssertEqual(subscription.calls, [.request(.unlimited)])
            let tracking = TrackingSubscriber<Int, Never>()
            subject.subscribe(tracking)
            XCTAssertEqual(subscription.calls, [.request(.unlimited)], "a subscriber's demand does not ask again")
            tracking.cancel()
        }
        XCTAssertEqual(subscription.calls, [.request(.unlimited), .cancel])
    }

    func testTheValueChangesAfterCompletionButNothingIsSent() {
        let subject = CurrentValueSubject<Int, Never>(1)
        let tracking = TrackingSubscriber<Int, Never>()
        subject.subscribe(tracking)
        subject.send(completion: .finished)
        subject.value = 5
        XCTAssertEqual(subject.value, 5)
        subject.send(6)
        XCTAssertEqual(subject.value, 5, "a value sent after completion is ignored; only an assignment is stored")
        XCTAssertEqual(tracking.events, [.subscription, .value(1), .completion(.finished)])
    }

    func testSubtractingANegativeCountThatOverflowsIsNone() {
        XCTAssertEqual(Subscribers.Demand.max(Int.max) - (-1), .none)
        var demand = Subscribers.Demand.max(Int.max)
        demand -= -1
        XCTAssertEqual(demand, .none)
        XCTAssertEqual(Subscribers.Demand.max(3) - (-2), .max(5))
    }
}
