import Foundation
import StreamCore
import StreamTesting
import XCTest

private struct BridgeError: Error, Equatable {}

/// A publisher that emits 0, 1, 2, … synchronously inside `request`, within demand, and counts requests and cancels,
/// so the tests see exactly what `values` asks for.
private final class CountingPublisher: Publisher, @unchecked Sendable {
    typealias Output = Int
    typealias Failure = Never

    let limit: Int
    private let lock = NSLockLike()
    private var requestLog: [Subscribers.Demand] = []
    private var cancels = 0

    init(limit: Int) { self.limit = limit }

    var requests: [Subscribers.Demand] { lock.locked { requestLog } }
    var cancelCount: Int { lock.locked { cancels } }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        subscriber.receive(subscription: Inner(publisher: self, downstream: AnySubscriber(subscriber)))
    }

    private final class Inner: Subscription {
        let publisher: CountingPublisher
        var downstream: AnySubscriber<Int, Never>?
        var nextValue = 0
        var demand = Subscribers.Demand.none
        var emitting = false

        init(publisher: CountingPublisher, downstream: AnySubscriber<Int, Never>) {
            self.publisher = publisher
            self.downstream = downstream
        }

        func request(_ more: Subscribers.Demand) {
            publisher.lock.locked { publisher.requestLog.append(more) }
            demand += more
            guard !emitting else { return }
            emitting = true
            while demand > 0, let downstream, nextValue < publisher.limit {
                demand -= 1
                let value = nextValue
                nextValue += 1
                demand += downstream.receive(value)
            }
            emitting = false
            if nextValue == publisher.limit, let downstream {
                self.downstream = nil
                downstream.receive(completion: .finished)
            }
        }

        func cancel() {
            publisher.lock.locked { publisher.cancels += 1 }
            downstream = nil
        }
    }
}

/// NSLock with a closure helper, for the test doubles here.
private final class NSLockLike: @unchecked Sendable {
    private let lock = NSLock()
    func locked<T>(_ body: () -> T) -> T { lock.withLock(body) }
}

/// Polls until `condition` holds; a waiting aid for cross-task hand-offs, not a timing assertion.
private func eventually(_ condition: @escaping () -> Bool, file: StaticString = #filePath, line: UInt = #line) async {
    for _ in 0..<5_000 {
        if condition() { return }
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    XCTFail("condition never held", file: file, line: line)
}

final class AsyncPublisherTests: XCTestCase {
    func testRequestsOneValuePerNextAndEndsOnFinish() async {
        let publisher = ManualPublisher<Int, Never>()
        let task = Task {
            var seen: [Int] = []
            for await value in publisher.values { seen.append(value) }
            return seen
        }
        for value in 1...3 {
            await eventually { publisher.demand == .max(1) }
            publisher.send(value)
        }
        await eventually { publisher.demand == .max(1) }
        publisher.send(completion: .finished)
        let seen = await task.value
        XCTAssertEqual(seen, [1, 2, 3])
        XCTAssertEqual(publisher.requests, [.max(1), .max(1), .max(1), .max(1)])
        XCTAssertEqual(publisher.cancelCount, 0)
    }

    func testValuesSentFromAnotherThreadArriveInOrderOnePerRequest() async {
        let publisher = ManualPublisher<Int, Never>()
        let count = 2_000
        let task = Task {
            var seen: [Int] = []
            for await value in publisher.values { seen.append(value) }
            return seen
        }
        // A producer thread that sends each value only once it has been asked for, as a well-behaved publisher does,
        // so the iterator alternates between finding a value ready and parking a continuation.
        let producer = Thread {
            for value in 0...count {
                while publisher.demand == .none { sched_yield() }
                if value == count {
                    publisher.send(completion: .finished)
                } else {
                    publisher.send(value)
                }
            }
        }
        producer.start()
        let seen = await task.value
        XCTAssertEqual(seen, Array(0..<count))
        XCTAssertEqual(publisher.requests.count, count + 1)
        XCTAssertTrue(publisher.requests.allSatisfy { $0 == .max(1) })
    }

    func testSynchronousPublisherIsDrainedWithoutOverRequesting() async {
        let publisher = CountingPublisher(limit: 1_000)
        var sum = 0
        for await value in publisher.values { sum += value }
        XCTAssertEqual(sum, 999 * 1_000 / 2)
        XCTAssertEqual(publisher.requests.count, 1_000, "one request per value; the end arrives with the last one")
        XCTAssertTrue(publisher.requests.allSatisfy { $0 == .max(1) })
    }

    func testBreakingOutOfTheLoopCancelsTheSubscription() async {
        let publisher = CountingPublisher(limit: 1_000)
        for await value in publisher.values where value == 2 { break }
        XCTAssertEqual(publisher.cancelCount, 1)
        XCTAssertEqual(publisher.requests.count, 3)
    }

    func testCancellingTheTaskCancelsTheSubscriptionAndEndsTheLoop() async {
        let publisher = ManualPublisher<Int, Never>()
        let task = Task {
            var seen: [Int] = []
            for await value in publisher.values { seen.append(value) }
            return seen
        }
        await eventually { publisher.demand == .max(1) }
        publisher.send(7)
        await eventually { publisher.demand == .max(1) }
        task.cancel()
        let seen = await task.value
        XCTAssertEqual(seen, [7])
        XCTAssertEqual(publisher.cancelCount, 1)
    }

    func testValuesSentBeforeTheSubscriptionArrivesAreRequestedLater() async {
        let publisher = ManualPublisher<Int, Never>(sendsSubscriptionOnSubscribe: false)
        let task = Task { () -> Int? in
            var iterator = publisher.values.makeAsyncIterator()
            return await iterator.next()
        }
        await eventually { publisher.subscription != nil }
        publisher.subscription?.sendSubscription()
        await eventually { publisher.demand == .max(1) }
        publisher.send(5)
        let value = await task.value
        XCTAssertEqual(value, 5)
    }

    func testThrowingValuesDeliverThenThrowTheFailureOnce() async {
        let publisher = ManualPublisher<Int, BridgeError>()
        let task = Task { () -> ([Int], (any Error)?, Int?) in
            var seen: [Int] = []
            var iterator = publisher.values.makeAsyncIterator()
            do {
                while let value = try await iterator.next() { seen.append(value) }
                return (seen, nil, nil)
            } catch {
                let after = try? await iterator.next()
                return (seen, error, after ?? nil)
            }
        }
        await eventually { publisher.demand == .max(1) }
        publisher.send(1)
        await eventually { publisher.demand == .max(1) }
        publisher.send(completion: .failure(BridgeError()))
        let (seen, error, after) = await task.value
        XCTAssertEqual(seen, [1])
        XCTAssertEqual(error as? BridgeError, BridgeError())
        XCTAssertNil(after, "after the failure the sequence ends")
    }

    func testThrowingValuesFinishNormally() async throws {
        let publisher = ManualPublisher<String, BridgeError>()
        let task = Task { () throws -> [String] in
            var seen: [String] = []
            for try await value in publisher.values { seen.append(value) }
            return seen
        }
        await eventually { publisher.demand == .max(1) }
        publisher.send("a")
        await eventually { publisher.demand == .max(1) }
        publisher.send(completion: .finished)
        let seen = try await task.value
        XCTAssertEqual(seen, ["a"])
    }
}

final class FutureValueTests: XCTestCase {
    func testValueOfAFulfilledFuture() async {
        let future = Future<Int, Never> { promise in promise(.success(42)) }
        let value = await future.value
        XCTAssertEqual(value, 42)
    }

    func testValueAwaitsALaterFulfilment() async throws {
        let captured = PromiseBox<String>()
        let future = Future<String, any Error> { promise in captured.store(promise) }
        let task = Task { try await future.value }
        await eventually { captured.isStored }
        captured.fulfil(.success("later"))
        let value = try await task.value
        XCTAssertEqual(value, "later")
    }

    func testValueThrowsTheFailure() async {
        let future = Future<Int, BridgeError> { promise in promise(.failure(BridgeError())) }
        do {
            _ = try await future.value
            XCTFail("expected a throw")
        } catch {
            XCTAssertEqual(error as? BridgeError, BridgeError())
        }
    }

    func testCancellingTheAwaitingTaskThrowsCancellationError() async {
        let future = Future<Int, BridgeError> { _ in }
        let task = Task { try await future.value }
        try? await Task.sleep(nanoseconds: 1_000_000)
        task.cancel()
        let result = await task.result
        XCTAssertTrue((try? result.get()) == nil)
        if case .failure(let error) = result {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
    }
}

private final class PromiseBox<Output>: @unchecked Sendable {
    private let lock = NSLockLike()
    private var promise: Future<Output, any Error>.Promise?
    func store(_ promise: @escaping Future<Output, any Error>.Promise) { lock.locked { self.promise = promise } }
    var isStored: Bool { lock.locked { promise != nil } }
    func fulfil(_ result: Result<Output, any Error>) { lock.locked { promise }?(result) }
}

final class TaskPublisherTests: XCTestCase {
    func testPublishesTheOperationResultThenFinishes() async {
        let done = expectation(description: "completion")
        let subscriber = TrackingSubscriber<Int, Never>(onEvent: { if case .completion = $0 { done.fulfill() } })
        TaskPublisher { 6 * 7 }.subscribe(subscriber)
        await fulfillment(of: [done], timeout: 10)
        XCTAssertEqual(subscriber.events, [.subscription, .value(42), .completion(.finished)])
    }

    func testAThrownErrorBecomesTheFailure() async {
        let done = expectation(description: "completion")
        let subscriber = TrackingSubscriber<Int, any Error>(onEvent: { if case .completion = $0 { done.fulfill() } })
        TaskPublisher { () async throws -> Int in throw BridgeError() }.subscribe(subscriber)
        await fulfillment(of: [done], timeout: 10)
        XCTAssertEqual(subscriber.values, [])
        XCTAssertEqual(subscriber.failure as? BridgeError, BridgeError())
    }

    func testTheOperationStartsAtTheFirstDemandOncePerSubscriber() async {
        let runs = RunCounter()
        let publisher = TaskPublisher { () async -> Int in runs.increment() }
        let done = expectation(description: "completion")
        done.expectedFulfillmentCount = 2
        let lazy = TrackingSubscriber<Int, Never>(
            initialDemand: nil,
            onEvent: {
                if case .completion = $0 { done.fulfill() }
            })
        let eager = TrackingSubscriber<Int, Never>(onEvent: { if case .completion = $0 { done.fulfill() } })
        publisher.subscribe(lazy)
        publisher.subscribe(eager)
        await eventually { eager.isFinished }
        XCTAssertEqual(runs.value, 1, "the subscriber without demand has not started its task")
        lazy.request(.max(1))
        await fulfillment(of: [done], timeout: 10)
        XCTAssertEqual(runs.value, 2)
        XCTAssertEqual(Set(lazy.values + eager.values), [1, 2])
    }

    func testCancellingTheSubscriptionCancelsTheTask() async {
        let sawCancellation = expectation(description: "operation saw cancellation")
        let started = expectation(description: "operation started")
        let subscriber = TrackingSubscriber<Int, any Error>()
        TaskPublisher { () async throws -> Int in
            started.fulfill()
            do {
                try await Task.sleep(nanoseconds: 60_000_000_000)
            } catch {
                sawCancellation.fulfill()
                throw error
            }
            return 1
        }.subscribe(subscriber)
        await fulfillment(of: [started], timeout: 10)
        subscriber.cancel()
        await fulfillment(of: [sawCancellation], timeout: 10)
        XCTAssertEqual(subscriber.events.count, 1, "no value and no completion after cancel: \(subscriber)")
    }
}

private final class RunCounter: @unchecked Sendable {
    private let lock = NSLockLike()
    private var count = 0
    func increment() -> Int {
        lock.locked {
            count += 1
            return count
        }
    }
    var value: Int { lock.locked { count } }
}

/// An async sequence of 0..<limit that counts how many elements were pulled, to show backpressure.
private struct PullCountingSequence: AsyncSequence, Sendable {
    typealias Element = Int
    typealias Failure = Never
    let limit: Int
    let pulls: RunCounter

    struct AsyncIterator: AsyncIteratorProtocol {
        typealias Failure = Never
        let limit: Int
        let pulls: RunCounter
        var next = 0
        mutating func next() async -> Int? {
            guard next < limit else { return nil }
            _ = pulls.increment()
            defer { next += 1 }
            return next
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(limit: limit, pulls: pulls) }
}

final class AsyncSequencePublisherTests: XCTestCase {
    func testPullsOnlyWhatIsDemanded() async {
        let pulls = RunCounter()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        PullCountingSequence(limit: 5, pulls: pulls).publisher.subscribe(subscriber)
        await eventually { subscriber.values.count == 2 }
        try? await Task.sleep(nanoseconds: 20_000_000)
        XCTAssertEqual(pulls.value, 2, "no element is pulled without demand")
        subscriber.request(.max(1))
        await eventually { subscriber.values.count == 3 }
        XCTAssertNil(subscriber.completion)
        subscriber.request(.unlimited)
        await eventually { subscriber.isFinished }
        XCTAssertEqual(subscriber.values, [0, 1, 2, 3, 4])
        XCTAssertEqual(pulls.value, 5)
    }

    func testDemandReturnedFromReceiveIsHonoured() async {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1), demandAfterValue: { _ in .max(1) })
        PullCountingSequence(limit: 4, pulls: RunCounter()).publisher.subscribe(subscriber)
        await eventually { subscriber.isFinished }
        XCTAssertEqual(subscriber.values, [0, 1, 2, 3])
    }

    func testAThrownErrorFailsThePublisher() async {
        let stream = AsyncThrowingStream<Int, any Error> { continuation in
            continuation.yield(1)
            continuation.finish(throwing: BridgeError())
        }
        let subscriber = TrackingSubscriber<Int, any Error>()
        stream.publisher.subscribe(subscriber)
        await eventually { subscriber.completion != nil }
        XCTAssertEqual(subscriber.values, [1])
        XCTAssertEqual(subscriber.failure as? BridgeError, BridgeError())
    }

    func testCancelCancelsTheIteratingTask() async {
        let terminated = expectation(description: "stream terminated")
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        continuation.onTermination = { termination in
            if case .cancelled = termination { terminated.fulfill() }
        }
        let subscriber = TrackingSubscriber<Int, Never>()
        stream.publisher.subscribe(subscriber)
        continuation.yield(1)
        await eventually { subscriber.values == [1] }
        subscriber.cancel()
        await fulfillment(of: [terminated], timeout: 10)
        continuation.yield(2)
        XCTAssertEqual(subscriber.events, [.subscription, .value(1)])
    }
}
