import Dispatch
import Foundation
import StreamCore
import StreamFoundation
import StreamTesting
import XCTest

/// Real schedulers run on real threads and clocks, so these tests wait with expectations; they assert ordering and
/// placement, never durations beyond "not before the due time".
final class DispatchQueueSchedulerTests: XCTestCase {
    typealias Stride = DispatchQueue.SchedulerTimeType.Stride

    func testStrideShapesMatchCombine() {
        XCTAssertEqual(Stride.seconds(0.5), Stride.milliseconds(500))
        XCTAssertEqual(Stride.milliseconds(250).magnitude, 250_000_000)
        let literal: Stride = 2
        XCTAssertEqual(literal, .seconds(2))
        let fractional: Stride = 0.001
        XCTAssertEqual(fractional, .milliseconds(1))
        XCTAssertEqual(Stride(.microseconds(5)).magnitude, 5_000)
        let start = DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1_000))
        XCTAssertEqual(start.advanced(by: .nanoseconds(500)).dispatchTime.uptimeNanoseconds, 1_500)
        XCTAssertEqual(start.distance(to: start.advanced(by: .seconds(1))), .seconds(1))
        XCTAssertEqual(start.advanced(by: .seconds(-5)).dispatchTime.uptimeNanoseconds, 1, "clamped, never 'now'")
    }

    func testScheduleRunsOnTheQueue() {
        let queue = DispatchQueue(label: "scheduler-test")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 42)
        let ran = expectation(description: "ran")
        queue.schedule {
            XCTAssertEqual(DispatchQueue.getSpecific(key: key), 42)
            ran.fulfill()
        }
        wait(for: [ran], timeout: 5)
    }

    func testScheduleAfterWaitsForTheDate() {
        let queue = DispatchQueue(label: "scheduler-test")
        let due = queue.now.advanced(by: .milliseconds(30))
        let ran = expectation(description: "ran")
        queue.schedule(after: due, tolerance: .zero, options: .init(qos: .userInitiated)) {
            XCTAssertGreaterThanOrEqual(queue.now, due)
            ran.fulfill()
        }
        wait(for: [ran], timeout: 5)
    }

    func testRepeatingStopsWhenCancelled() {
        let queue = DispatchQueue(label: "scheduler-test")
        let threeFires = expectation(description: "three fires")
        threeFires.expectedFulfillmentCount = 3
        let count = LockedCounter()
        var cancellable: (any Cancellable)?
        cancellable = queue.schedule(after: queue.now, interval: .milliseconds(5)) {
            // Runs on the serial queue; the third fire cancels, so exactly three fires happen.
            if count.increment() <= 3 { threeFires.fulfill() }
            if count.value == 3 { cancellable?.cancel() }
        }
        wait(for: [threeFires], timeout: 5)
        let flushed = expectation(description: "flushed")
        queue.asyncAfter(deadline: .now() + .milliseconds(30)) { flushed.fulfill() }
        wait(for: [flushed], timeout: 5)
        XCTAssertEqual(count.value, 3)
        _ = cancellable
    }
}

final class RunLoopSchedulerTests: XCTestCase {
    func testScheduleRunsOnTheRunLoopThread() {
        let runLoop = RunLoop.current
        var ran = false
        runLoop.schedule { ran = true }
        spin(until: { ran })
        XCTAssertTrue(ran)
    }

    func testScheduleAfterAndRepeatingWithCancel() {
        let runLoop = RunLoop.current
        var order: [String] = []
        let due = runLoop.now.advanced(by: .milliseconds(20))
        runLoop.schedule(after: due) {
            XCTAssertGreaterThanOrEqual(Date(), due.date)
            order.append("after")
        }
        var ticks = 0
        var cancellable: (any Cancellable)?
        cancellable = runLoop.schedule(after: runLoop.now, interval: .milliseconds(2)) {
            ticks += 1
            if ticks == 3 { cancellable?.cancel() }
        }
        spin(until: { order == ["after"] && ticks >= 3 })
        spin(seconds: 0.02)
        XCTAssertEqual(order, ["after"])
        XCTAssertEqual(ticks, 3)
    }

    func testRunLoopAndOperationQueueTimeTypesAreDistinct() throws {
        // Combine declares two types of the same shape; an overload on each must resolve, not collide.
        func label(_: RunLoop.SchedulerTimeType.Stride) -> String { "run loop" }
        func label(_: OperationQueue.SchedulerTimeType.Stride) -> String { "operation queue" }
        XCTAssertEqual(label(RunLoop.SchedulerTimeType.Stride.milliseconds(1500)), "run loop")
        XCTAssertEqual(label(OperationQueue.SchedulerTimeType.Stride(1.5)), "operation queue")
        XCTAssertNotEqual(
            ObjectIdentifier(RunLoop.SchedulerTimeType.self), ObjectIdentifier(OperationQueue.SchedulerTimeType.self))

        let a: RunLoop.SchedulerTimeType.Stride = .milliseconds(1500)
        let b: OperationQueue.SchedulerTimeType.Stride = 1.5
        XCTAssertEqual(a.timeInterval, b.timeInterval)
        let whole: OperationQueue.SchedulerTimeType.Stride = 2
        XCTAssertEqual(whole.magnitude, 2)
        XCTAssertEqual(
            RunLoop.SchedulerTimeType(Date(timeIntervalSince1970: 1)).advanced(by: .seconds(2)).date,
            Date(timeIntervalSince1970: 3))
        XCTAssertEqual(
            OperationQueue.SchedulerTimeType(Date(timeIntervalSince1970: 1)).distance(
                to: OperationQueue.SchedulerTimeType(Date(timeIntervalSince1970: 4))),
            .seconds(3))

        // Combine's coding: the stride as its magnitude in seconds, the instant as its date.
        let encoded = try JSONEncoder().encode(OperationQueue.SchedulerTimeType.Stride.seconds(1024.5))
        XCTAssertEqual(String(decoding: encoded, as: UTF8.self), #"{"magnitude":1024.5}"#)
        XCTAssertEqual(try JSONDecoder().decode(RunLoop.SchedulerTimeType.Stride.self, from: encoded), .seconds(1024.5))
        let instant = RunLoop.SchedulerTimeType(Date(timeIntervalSinceReferenceDate: 1024.75))
        XCTAssertEqual(String(decoding: try JSONEncoder().encode(instant), as: UTF8.self), #"{"date":1024.75}"#)
    }
}

final class OperationQueueSchedulerTests: XCTestCase {
    func testScheduleAddsAnOperation() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let ran = expectation(description: "ran")
        queue.schedule {
            XCTAssertTrue(OperationQueue.current === queue)
            ran.fulfill()
        }
        wait(for: [ran], timeout: 5)
    }

    func testScheduleAfterAndRepeating() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let due = queue.now.advanced(by: .milliseconds(20))
        let after = expectation(description: "after")
        queue.schedule(after: due) {
            XCTAssertGreaterThanOrEqual(Date(), due.date)
            after.fulfill()
        }
        let ticks = expectation(description: "ticks")
        ticks.expectedFulfillmentCount = 3
        let count = LockedCounter()
        let cancellable = queue.schedule(after: queue.now, interval: .milliseconds(5)) {
            if count.increment() <= 3 { ticks.fulfill() }
        }
        wait(for: [after, ticks], timeout: 5)
        cancellable.cancel()
    }
}

/// Runs the current run loop until `condition` holds (or five seconds pass, so a broken test fails instead of hanging).
func spin(until condition: () -> Bool) {
    let deadline = Date().addingTimeInterval(5)
    while !condition(), Date() < deadline {
        RunLoop.current.run(until: Date().addingTimeInterval(0.005))
    }
}

/// Runs the current run loop for a while, to give unwanted events the chance to show up.
func spin(seconds: TimeInterval) {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        RunLoop.current.run(until: deadline)
    }
}

final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    /// Adds one and returns the new count.
    @discardableResult
    func increment(by delta: Int = 1) -> Int {
        lock.withLock {
            count += delta
            return count
        }
    }
    var value: Int { lock.withLock { count } }
}
