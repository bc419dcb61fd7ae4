import StreamCore
import StreamTesting
import XCTest

final class TestSchedulerTests: XCTestCase {
    typealias Time = TestScheduler.SchedulerTimeType

    func testStrideLiteralsAndUnits() {
        XCTAssertEqual(Time.Stride.seconds(0.5), Time.Stride.milliseconds(500))
        XCTAssertEqual(Time.Stride.milliseconds(250).magnitude, 250_000_000)
        XCTAssertEqual(Time.Stride.microseconds(3).magnitude, 3_000)
        XCTAssertEqual(Time.Stride.nanoseconds(7).magnitude, 7)
        XCTAssertEqual(Time.Stride.seconds(2).magnitude, 2_000_000_000)
        let literal: Time.Stride = 1
        XCTAssertEqual(literal, .seconds(1))
        let fractional: Time.Stride = 0.25
        XCTAssertEqual(fractional, .milliseconds(250))
        XCTAssertEqual(Time.Stride.seconds(2) * 3, .seconds(6))
        XCTAssertEqual(-Time.Stride.seconds(1), .seconds(-1))
        XCTAssertEqual(Time.zero.advanced(by: .seconds(Int.max)), Time(nanoseconds: Int.max), "saturates")
        XCTAssertEqual(Time(.seconds(1)).distance(to: Time(.seconds(3))), .seconds(2))
    }

    func testNothingRunsUntilAdvanced() {
        let scheduler = TestScheduler()
        var ran: [String] = []
        scheduler.schedule { ran.append("now") }
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { ran.append("1s") }
        XCTAssertEqual(ran, [])
        scheduler.advance()
        XCTAssertEqual(ran, ["now"])
        scheduler.advance(by: .milliseconds(999))
        XCTAssertEqual(ran, ["now"])
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(ran, ["now", "1s"])
        XCTAssertEqual(scheduler.now, Time(.seconds(1)))
    }

    func testTimeOrderThenArrivalOrderAmongEqualTimes() {
        let scheduler = TestScheduler()
        var ran: [Int] = []
        let t1 = Time(.seconds(1))
        scheduler.schedule(after: Time(.seconds(2))) { ran.append(4) }
        scheduler.schedule(after: t1) { ran.append(1) }
        scheduler.schedule(after: t1) { ran.append(2) }
        scheduler.schedule(after: t1) { ran.append(3) }
        scheduler.advance(to: Time(.seconds(5)))
        XCTAssertEqual(ran, [1, 2, 3, 4])
        XCTAssertEqual(scheduler.now, Time(.seconds(5)))
    }

    func testActionsSeeTheirDueTimeAndNestedSchedulesRunInTheSameAdvance() {
        let scheduler = TestScheduler()
        var seen: [Time] = []
        scheduler.schedule(after: Time(.seconds(1))) {
            seen.append(scheduler.now)
            scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { seen.append(scheduler.now) }
            scheduler.schedule(after: scheduler.now.advanced(by: .seconds(10))) { seen.append(scheduler.now) }
        }
        scheduler.advance(by: .seconds(3))
        XCTAssertEqual(seen, [Time(.seconds(1)), Time(.seconds(2))])
        XCTAssertEqual(scheduler.pendingActionCount, 1)
        XCTAssertTrue(scheduler.run())
        XCTAssertEqual(seen.last, Time(.seconds(11)))
    }

    func testPastDatesRunAtTheNextAdvanceWithoutMovingTheClockBack() {
        let scheduler = TestScheduler(now: Time(.seconds(10)))
        var ran = false
        scheduler.schedule(after: Time(.seconds(1))) { ran = true }
        scheduler.advance(to: Time(.seconds(2)))
        XCTAssertTrue(ran)
        XCTAssertEqual(scheduler.now, Time(.seconds(10)))
    }

    func testRepeatingScheduleFiresAtEachIntervalUntilCancelled() {
        let scheduler = TestScheduler()
        var fires: [Time] = []
        let cancellable = scheduler.schedule(after: Time(.seconds(1)), interval: .seconds(2)) {
            fires.append(scheduler.now)
        }
        scheduler.advance(by: .seconds(6))
        XCTAssertEqual(fires, [Time(.seconds(1)), Time(.seconds(3)), Time(.seconds(5))])
        cancellable.cancel()
        XCTAssertEqual(scheduler.pendingActionCount, 0)
        scheduler.advance(by: .seconds(10))
        XCTAssertEqual(fires.count, 3)
    }

    func testRepeatingScheduleCancelledFromItsOwnAction() {
        let scheduler = TestScheduler()
        var count = 0
        var cancellable: (any Cancellable)?
        cancellable = scheduler.schedule(after: .zero, interval: .seconds(1)) {
            count += 1
            if count == 3 { cancellable?.cancel() }
        }
        XCTAssertTrue(scheduler.run())
        XCTAssertEqual(count, 3)
        XCTAssertEqual(scheduler.now, Time(.seconds(2)))
    }

    func testRunStopsAtTheStepLimitForEndlessRepetition() {
        let scheduler = TestScheduler()
        var count = 0
        let cancellable = scheduler.schedule(after: .zero, interval: .nanoseconds(0)) { count += 1 }
        XCTAssertFalse(scheduler.run(maximumSteps: 50))
        XCTAssertEqual(count, 50)
        cancellable.cancel()
    }

    func testRecordsEveryCall() {
        let scheduler = TestScheduler()
        scheduler.advance(by: .seconds(1))
        scheduler.schedule {}
        scheduler.schedule(after: Time(.seconds(3)), tolerance: .milliseconds(5)) {}
        let repeating = scheduler.schedule(after: Time(.seconds(4)), interval: .seconds(1), tolerance: .zero) {}
        XCTAssertEqual(
            scheduler.calls,
            [
                .immediate(now: Time(.seconds(1))),
                .after(Time(.seconds(3)), tolerance: .milliseconds(5)),
                .repeating(after: Time(.seconds(4)), interval: .seconds(1), tolerance: .zero),
            ])
        repeating.cancel()
    }

    func testSchedulingFromManyThreadsLosesNothing() {
        let scheduler = TestScheduler()
        let counter = Counter()
        DispatchQueue.concurrentPerform(iterations: 1_000) { i in
            scheduler.schedule(after: Time(nanoseconds: i % 10)) { counter.increment() }
        }
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(counter.value, 1_000)
        XCTAssertEqual(scheduler.calls.count, 1_000)
    }
}

/// A thread-safe counter for the multithreaded test.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
