import StreamCore
import StreamTesting
import XCTest

final class DebounceTests: XCTestCase {
    func testPublishesLatestAfterQuietPeriod() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>()
        subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(tracker)
        subject.send(1)
        scheduler.advance(by: .milliseconds(500))
        subject.send(2)
        scheduler.advance(by: .milliseconds(900))
        XCTAssertEqual(tracker.values, [], "the timer restarted at 2")
        scheduler.advance(by: .milliseconds(100))
        XCTAssertEqual(tracker.values, [2])
        scheduler.advance(by: .seconds(5))
        XCTAssertEqual(tracker.values, [2], "published once")
    }

    func testCompletionIsDeliveredAtOnceAndDropsPendingValue() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>()
        subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(tracker)
        subject.send(1)
        subject.send(completion: .finished)
        scheduler.advance()
        XCTAssertTrue(tracker.isFinished)
        scheduler.advance(by: .seconds(2))
        XCTAssertEqual(tracker.values, [])
    }

    func testNoDemandDropsTheValueAndUpstreamIsUnlimited() {
        let scheduler = TestScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>(initialDemand: nil)
        upstream.debounce(for: .seconds(1), scheduler: scheduler).subscribe(tracker)
        XCTAssertEqual(upstream.requests, [.unlimited])
        _ = upstream.send(1)
        scheduler.advance(by: .seconds(1))
        tracker.request(.max(1))
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(tracker.values, [])
        _ = upstream.send(2)
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(tracker.values, [2])
    }

    func testCancelStopsTimerAndUpstream() {
        let scheduler = TestScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>()
        upstream.debounce(for: .seconds(1), scheduler: scheduler).subscribe(tracker)
        _ = upstream.send(1)
        tracker.cancel()
        scheduler.advance(by: .seconds(2))
        XCTAssertEqual(tracker.values, [])
        XCTAssertEqual(upstream.cancelCount, 1)
        XCTAssertEqual(scheduler.pendingActionCount, 0, "the repeating timer was cancelled")
    }
}

final class ThrottleTests: XCTestCase {
    func testFirstValueImmediatelyThenLatestPerInterval() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>()
        subject.throttle(for: .seconds(10), scheduler: scheduler, latest: true).subscribe(tracker)
        subject.send(1)
        scheduler.advance()
        XCTAssertEqual(tracker.values, [1])
        scheduler.advance(by: .seconds(2))
        subject.send(2)
        subject.send(3)
        scheduler.advance(by: .seconds(7))
        XCTAssertEqual(tracker.values, [1])
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(tracker.values, [1, 3])
        scheduler.advance(by: .seconds(30))
        subject.send(4)
        scheduler.advance()
        XCTAssertEqual(tracker.values, [1, 3, 4], "after a quiet interval the next value goes at once")
    }

    func testLatestFalsePublishesFirstOfInterval() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>()
        subject.throttle(for: .seconds(10), scheduler: scheduler, latest: false).subscribe(tracker)
        subject.send(1)
        subject.send(2)
        scheduler.advance()
        subject.send(3)
        subject.send(4)
        scheduler.advance(by: .seconds(10))
        XCTAssertEqual(tracker.values, [1, 3])
    }

    func testCompletionFollowsAScheduledValue() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, S2Error>()
        let tracker = TrackingSubscriber<Int, S2Error>()
        subject.throttle(for: .seconds(10), scheduler: scheduler, latest: true).subscribe(tracker)
        subject.send(1)
        scheduler.advance()
        subject.send(2)
        subject.send(completion: .failure(S2Error(1)))
        XCTAssertNil(tracker.completion)
        scheduler.advance(by: .seconds(10))
        XCTAssertTrue(tracker.saw([1, 2], .failure(S2Error(1))))
    }

    func testValuesWithoutDemandAreDropped() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        subject.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(tracker)
        subject.send(1)
        scheduler.advance(by: .seconds(5))
        subject.send(2)
        scheduler.advance(by: .seconds(5))
        XCTAssertEqual(tracker.values, [1])
        XCTAssertEqual(scheduler.pendingActionCount, 0)
    }
}

final class DelayReceiveOnTests: XCTestCase {
    func testDelayHoldsValuesAndCompletion() {
        let scheduler = TestScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(5), demandAfterValue: { _ in .max(1) })
        upstream.delay(for: .seconds(2), scheduler: scheduler).subscribe(tracker)
        XCTAssertEqual(tracker.subscriptionCount, 1, "the subscription is handed downstream at once, as in Combine")
        XCTAssertEqual(upstream.requests, [.max(5)])
        XCTAssertEqual(scheduler.pendingActionCount, 0)
        _ = upstream.send(1)
        scheduler.advance(by: .seconds(1))
        upstream.send(completion: .finished)
        XCTAssertEqual(tracker.values, [])
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(tracker.values, [1])
        XCTAssertNil(tracker.completion)
        scheduler.advance(by: .seconds(1))
        XCTAssertTrue(tracker.isFinished)
        XCTAssertEqual(upstream.requests, [.max(5), .max(1)], "demand returned by downstream goes upstream")
    }

    func testReceiveOnSchedulesEveryEvent() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>()
        subject.receive(on: scheduler).subscribe(tracker)
        scheduler.advance()
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        XCTAssertEqual(tracker.values, [])
        scheduler.advance()
        XCTAssertTrue(tracker.saw([1, 2], .finished))
    }

    func testReceiveOnCancelDropsScheduledValues() {
        let scheduler = TestScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>()
        upstream.receive(on: scheduler).subscribe(tracker)
        scheduler.advance()
        _ = upstream.send(1)
        tracker.cancel()
        scheduler.advance()
        XCTAssertEqual(tracker.values, [])
        XCTAssertEqual(upstream.cancelCount, 1)
    }

    func testSubscribeOnSubscribesRequestsAndCancelsOnScheduler() {
        let scheduler = TestScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>()
        upstream.subscribe(on: scheduler).subscribe(tracker)
        XCTAssertEqual(upstream.events, [])
        scheduler.advance()
        XCTAssertEqual(
            upstream.events, [.subscribe, .request(.unlimited)], "the request too ran as a scheduled action")
        _ = upstream.send(3)
        XCTAssertEqual(tracker.values, [3], "values pass straight through")
        tracker.cancel()
        XCTAssertEqual(upstream.cancelCount, 0)
        scheduler.advance()
        XCTAssertEqual(upstream.cancelCount, 1)
    }
}

final class TimeoutMeasureTests: XCTestCase {
    func testTimeoutFinishesAfterSilence() {
        let scheduler = TestScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>()
        upstream.timeout(.seconds(5), scheduler: scheduler).subscribe(tracker)
        scheduler.advance(by: .seconds(4))
        _ = upstream.send(1)
        scheduler.advance(by: .seconds(4))
        XCTAssertTrue(tracker.saw([1], nil), "each value restarts the timer")
        scheduler.advance(by: .seconds(1))
        XCTAssertTrue(tracker.saw([1], .finished))
        XCTAssertEqual(upstream.cancelCount, 1)
    }

    func testTimeoutRestartsAtFirstRequest() {
        let scheduler = TestScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>(initialDemand: nil)
        upstream.timeout(.seconds(5), scheduler: scheduler).subscribe(tracker)
        scheduler.advance(by: .seconds(3))
        tracker.request(.max(1))
        scheduler.advance(by: .seconds(4))
        XCTAssertNil(tracker.completion, "the wait counts from the first request")
        tracker.request(.max(1))
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(tracker.completion, .finished, "later requests don't restart it")
    }

    func testTimeoutWithCustomErrorFails() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, S2Error>()
        let tracker = TrackingSubscriber<Int, S2Error>()
        subject.timeout(.seconds(1), scheduler: scheduler, customError: { S2Error(42) }).subscribe(tracker)
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(tracker.completion, .failure(S2Error(42)))
    }

    func testMeasureIntervalRequestsExtraDemandUpstream() {
        let scheduler = TestScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let tracker = TrackingSubscriber<TestScheduler.SchedulerTimeType.Stride, Never>(
            initialDemand: .max(1), demandAfterValue: { _ in .max(1) })
        upstream.measureInterval(using: scheduler).subscribe(tracker)
        XCTAssertEqual(upstream.send(0), .none)
        XCTAssertEqual(upstream.requests, [.max(1), .max(1)])
    }

    func testMeasureInterval() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let tracker = TrackingSubscriber<TestScheduler.SchedulerTimeType.Stride, Never>()
        subject.measureInterval(using: scheduler).subscribe(tracker)
        scheduler.advance(by: .seconds(2))
        subject.send(0)
        scheduler.advance(by: .milliseconds(300))
        subject.send(0)
        XCTAssertEqual(tracker.values, [.seconds(2), .milliseconds(300)])
    }
}
