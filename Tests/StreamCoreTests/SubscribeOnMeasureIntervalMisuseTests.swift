import StreamCore
import StreamTesting
import XCTest

/// subscribe(on:) and measureInterval ignore events before the upstream subscription, hold their subscriber for
/// the subscription's life, and (subscribe(on:)) keep the subscription alive while a request or cancel is scheduled.
final class SubscribeOnMeasureIntervalMisuseTests: XCTestCase {
    func testEventsBeforeTheSubscriptionAreIgnored() {
        let scheduler = TestScheduler()
        let operators: [(String, (MisbehavingPublisher<Int, S4Error>) -> AnyPublisher<Int, S4Error>)] = [
            ("subscribe(on:)", { $0.subscribe(on: scheduler).eraseToAnyPublisher() }),
            ("measureInterval", { $0.measureInterval(using: scheduler).map { _ in 0 }.eraseToAnyPublisher() }),
        ]
        for (name, make) in operators {
            let upstream = MisbehavingPublisher<Int, S4Error>()
            let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: nil)
            make(upstream).subscribe(tracking)
            scheduler.advance()
            XCTAssertEqual(upstream.send(1), .none, name)
            upstream.send(completion: .finished)
            upstream.subscriberAsSubscription?.cancel()
            scheduler.advance()
            XCTAssertEqual(tracking.events, [], name)
            upstream.send(subscription: RecordingSubscription())
            XCTAssertEqual(tracking.events, [.subscription], name)
        }
    }

    func testAScheduledCancelKeepsTheSubscriptionAndSubscriberAlive() {
        let scheduler = TestScheduler()
        let subscription = RecordingSubscription()
        weak var released: TrackingSubscriber<Int, S4Error>?
        do {
            let upstream = MisbehavingPublisher<Int, S4Error>()
            let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: .max(1))
            released = tracking
            upstream.subscribe(on: scheduler).subscribe(tracking)
            scheduler.advance()
            upstream.send(subscription: subscription)
            tracking.cancel()
            XCTAssertEqual(subscription.calls, [], "both are scheduled")
        }
        XCTAssertNotNil(released)
        scheduler.advance()
        XCTAssertEqual(subscription.calls, [.request(.max(1)), .cancel])
    }

    /// A scheduler that counts how often its clock is read.
    private final class ClockCountingScheduler: Scheduler, @unchecked Sendable {
        typealias SchedulerTimeType = TestScheduler.SchedulerTimeType
        typealias SchedulerOptions = Never
        let base = TestScheduler()
        var reads = 0
        var now: SchedulerTimeType {
            reads += 1
            return base.now
        }
        var minimumTolerance: SchedulerTimeType.Stride { base.minimumTolerance }
        func schedule(options: Never?, _ action: @escaping () -> Void) { base.schedule(action) }
        func schedule(
            after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?,
            _ action: @escaping () -> Void
        ) { base.schedule(after: date, tolerance: tolerance, action) }
        func schedule(
            after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
            options: Never?, _ action: @escaping () -> Void
        ) -> any Cancellable { base.schedule(after: date, interval: interval, tolerance: tolerance, action) }
    }

    func testMeasureIntervalDoesNotReadTheClockAfterACancel() {
        let scheduler = ClockCountingScheduler()
        let upstream = MisbehavingPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<TestScheduler.SchedulerTimeType.Stride, S4Error>()
        upstream.measureInterval(using: scheduler).subscribe(tracking)
        upstream.send(subscription: RecordingSubscription())
        XCTAssertEqual(scheduler.reads, 1, "the start time")
        upstream.send(1)
        XCTAssertEqual(scheduler.reads, 2)
        tracking.cancel()
        XCTAssertEqual(upstream.send(2), .none)
        XCTAssertEqual(scheduler.reads, 2)
        XCTAssertEqual(tracking.values.count, 1)
    }
}
