import Foundation
import StreamCore
import StreamFoundation
import StreamTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where Combine's Foundation integrations behave in ways that are easy to get wrong: Dispatch time arithmetic at the
/// ends of the clock, coding keys, `Timer.publish`'s tolerance, how `OperationQueue` waits, and how a data task's
/// outcome becomes a `URLError`.
final class FoundationConformanceTests: XCTestCase {
    private typealias Time = DispatchQueue.SchedulerTimeType

    private func time(_ nanoseconds: UInt64) -> Time {
        Time(DispatchTime(uptimeNanoseconds: nanoseconds))
    }

    func testDispatchDistancesToTheDistantFutureAreTheLongestStride() {
        let now = time(10_000)
        let future = Time(.distantFuture)
        XCTAssertEqual(now.distance(to: time(10_431)), .nanoseconds(431))
        XCTAssertEqual(time(10_431).distance(to: now), .nanoseconds(-431))
        XCTAssertEqual(now.distance(to: future), .nanoseconds(.max))
        XCTAssertEqual(future.distance(to: now), .nanoseconds(.max), "in either direction")
        XCTAssertEqual(future.distance(to: future), .nanoseconds(0))
        let latest = time(UInt64(Int64.max))
        XCTAssertEqual(latest.distance(to: now), .nanoseconds(-(Int.max - 10_000)))
    }

    func testDispatchAdvancingSaturatesAtBothEndsOfTheClock() {
        XCTAssertEqual(time(10_000).advanced(by: .nanoseconds(-220)), time(9_780))
        XCTAssertEqual(time(10_000).advanced(by: .nanoseconds(.max)).dispatchTime, .distantFuture)
        XCTAssertEqual(time(1).advanced(by: .nanoseconds(-1_000)).dispatchTime, DispatchTime(uptimeNanoseconds: 1))
        XCTAssertEqual(Time(.distantFuture).advanced(by: .nanoseconds(-5)).dispatchTime, .distantFuture)
    }

    func testDispatchStrideEncodesItsNanosecondsUnderCombinesKey() throws {
        struct Wrapper: Codable { let value: Time.Stride }
        let data = try JSONEncoder().encode(Wrapper(value: .nanoseconds(419_872)))
        XCTAssertEqual(String(decoding: data, as: UTF8.self), #"{"value":{"_nanoseconds":419872}}"#)
        XCTAssertEqual(try JSONDecoder().decode(Wrapper.self, from: data).value, .nanoseconds(419_872))
    }

    func testTimerPublishLeavesTheToleranceOutAsCombineDoes() {
        let published = Timer.publish(every: 0.25, tolerance: 0.02, on: .main, in: .default)
        XCTAssertNil(published.tolerance)
        XCTAssertEqual(published.interval, 0.25)
        let direct = Timer.TimerPublisher(interval: 0.25, tolerance: 0.4, runLoop: .main, mode: .default)
        XCTAssertEqual(direct.tolerance, 0.4)

        let tracking = TrackingSubscriber<Date, Never>(initialDemand: nil)
        direct.subscribe(tracking)
        let subscription: Any = tracking.subscription!
        XCTAssertFalse(subscription is CustomStringConvertible)
        XCTAssertFalse(subscription is CustomReflectable)
    }

    /// A queue that records the operations added to it.
    private final class RecordingQueue: OperationQueue, @unchecked Sendable {
        private let lock = NSLock()
        private var added: [Operation] = []

        var operationsAdded: [Operation] { lock.withLock { added } }

        override func addOperation(_ op: Operation) {
            lock.withLock { added.append(op) }
            super.addOperation(op)
        }
    }

    func testOperationQueueAddsADelayedActionAtOnceAsAnOperationThatBecomesReady() throws {
        let queue = RecordingQueue()
        let runs = LockedCounter()
        queue.schedule(after: queue.now.advanced(by: 0.05)) { runs.increment() }
        let operation = try XCTUnwrap(queue.operationsAdded.first)
        XCTAssertEqual(queue.operationsAdded.count, 1)
        XCTAssertFalse(operation is BlockOperation)
        XCTAssertFalse(operation.isReady)
        XCTAssertTrue(operation is any Cancellable)
        queue.waitUntilAllOperationsAreFinished()
        XCTAssertEqual(runs.value, 1)
        operation.main()
        XCTAssertEqual(runs.value, 1, "the action runs once")

        queue.schedule { runs.increment() }
        XCTAssertEqual(queue.operationsAdded.count, 2, "one addOperation call")
        XCTAssertTrue(queue.operationsAdded.last is BlockOperation)
        queue.waitUntilAllOperationsAreFinished()
        XCTAssertEqual(runs.value, 2)
    }

    func testOperationQueueRepeatsWithOneOperationPerTickUntilCancelled() {
        let queue = RecordingQueue()
        let ticks = expectation(description: "three ticks")
        ticks.expectedFulfillmentCount = 3
        let runs = LockedCounter()
        let cancellable = queue.schedule(after: queue.now.advanced(by: 0.01), interval: 0.01) {
            if runs.increment() <= 3 { ticks.fulfill() }
        }
        XCTAssertEqual(queue.operationsAdded.count, 1)
        wait(for: [ticks], timeout: 10)
        cancellable.cancel()
        queue.waitUntilAllOperationsAreFinished()
        // Each tick's operation added the next one before running the action; the last one was cancelled.
        XCTAssertEqual(queue.operationsAdded.count, runs.value + 1)
        XCTAssertTrue(queue.operationsAdded.last?.isCancelled ?? false)
    }

    /// A session whose data tasks never touch the network: the test completes them.
    private final class ScriptedSession: URLSession, @unchecked Sendable {
        let task = CountingTask()
        private let lock = NSLock()
        private var handlers: [@Sendable (Data?, URLResponse?, (any Error)?) -> Void] = []
        private(set) var tasksMade = 0

        override func dataTask(
            with request: URLRequest,
            completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
        ) -> URLSessionDataTask {
            lock.withLock {
                tasksMade += 1
                handlers.append(completionHandler)
            }
            return task
        }

        func complete(_ data: Data?, _ response: URLResponse?, _ error: (any Error)?) {
            for handler in lock.withLock({ handlers }) {
                handler(data, response, error)
            }
        }
    }

    /// A data task that counts its `resume()` calls instead of running.
    private final class CountingTask: URLSessionDataTask, @unchecked Sendable {
        private let lock = NSLock()
        private var resumes = 0
        var resumeCount: Int { lock.withLock { resumes } }

        override func resume() {
            lock.withLock { resumes += 1 }
        }

        override func cancel() {}
    }

    private struct Unrelated: Error {}

    private func outcome(
        _ data: Data?, _ response: URLResponse?, _ error: (any Error)?
    ) -> TrackingSubscriber<(data: Data, response: URLResponse), URLError> {
        let session = ScriptedSession(configuration: .ephemeral)
        let tracking = TrackingSubscriber<(data: Data, response: URLResponse), URLError>(initialDemand: .max(1))
        session.dataTaskPublisher(for: URL(string: "http://127.0.0.1/")!).subscribe(tracking)
        session.complete(data, response, error)
        session.complete(data, response, error)
        return tracking
    }

    func testDataTaskOutcomesBecomeURLErrorsAsInCombine() {
        let response = URLResponse(
            url: URL(string: "http://127.0.0.1/")!, mimeType: nil, expectedContentLength: 0, textEncodingName: nil)
        XCTAssertEqual(outcome(nil, nil, nil).failure, URLError(.unknown), "no response and no error")
        XCTAssertEqual(outcome(Data("x".utf8), nil, nil).failure, URLError(.unknown))
        XCTAssertEqual(outcome(nil, response, Unrelated()).failure, URLError(.unknown), "a non-URLError")
        let timedOut = URLError(.timedOut)
        XCTAssertEqual(outcome(nil, nil, timedOut).failure, timedOut)
        let success = outcome(nil, response, nil)
        XCTAssertEqual(success.values.map(\.data), [Data()])
        XCTAssertTrue(success.isFinished)
    }

    func testEveryDemandResumesTheOneDataTask() throws {
        let session = ScriptedSession(configuration: .ephemeral)
        let publisher = session.dataTaskPublisher(for: URL(string: "http://127.0.0.1/")!)
        let tracking = TrackingSubscriber<(data: Data, response: URLResponse), URLError>(initialDemand: nil)
        publisher.subscribe(tracking)
        let subscription = try XCTUnwrap(tracking.subscription)
        let before = Mirror(reflecting: subscription).children.map { $0.label ?? "?" }
        XCTAssertEqual(before, ["task", "downstream", "parent", "demand"])
        XCTAssertEqual(String(describing: Mirror(reflecting: subscription).children.first!.value), "nil")
        tracking.request(.max(2))
        tracking.request(.max(1))
        XCTAssertEqual(session.tasksMade, 1)
        XCTAssertEqual(session.task.resumeCount, 2)
        tracking.cancel()
        tracking.request(.max(1))
        XCTAssertEqual(session.task.resumeCount, 2, "nothing after cancel")
    }
}
