import Dispatch
import Foundation
import StreamCore
import StreamTesting
import XCTest

// Thread-safety stress tests, which scripts/sanitizers.sh runs under ThreadSanitizer; they are a target of their own
// so that pass builds them without the rest of StreamCore's suite. Each one drives an operator from several threads at
// once and checks that nothing is lost, nothing is duplicated, and downstream is never entered by two threads at the
// same time. Iteration counts are kept modest so a TSan run stays quick.

/// Something tests share across threads; the tests synchronize through the stream under test or `StressCounter`.
private final class Shared<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// Counts deliveries and catches overlapping calls downstream.
private final class StressCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var inside = 0
    private(set) var overlaps = 0
    private var total = 0
    private var sum = 0
    private(set) var completions = 0

    func enter() {
        lock.lock()
        inside += 1
        if inside > 1 { overlaps += 1 }
        lock.unlock()
    }

    func leave(_ value: Int) {
        lock.lock()
        inside -= 1
        total += 1
        sum &+= value
        lock.unlock()
    }

    func completed() {
        lock.lock()
        completions += 1
        lock.unlock()
    }

    var snapshot: (count: Int, sum: Int, overlaps: Int, completions: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (total, sum, overlaps, completions)
    }

    /// A sink-like subscriber that records into this counter.
    func subscriber() -> AnySubscriber<Int, Never> {
        AnySubscriber(
            receiveSubscription: { $0.request(.unlimited) },
            receiveValue: { value in
                self.enter()
                self.leave(value)
                return .none
            },
            receiveCompletion: { _ in self.completed() }
        )
    }
}

/// A scheduler over a serial dispatch queue, for receive(on:) across threads (StreamCore itself has no Dispatch).
private final class StressQueueScheduler: Scheduler, @unchecked Sendable {
    typealias SchedulerTimeType = TestScheduler.SchedulerTimeType
    typealias SchedulerOptions = Never

    let queue: DispatchQueue
    init(label: String) { queue = DispatchQueue(label: label) }

    var now: SchedulerTimeType { SchedulerTimeType(nanoseconds: Int(DispatchTime.now().uptimeNanoseconds)) }
    var minimumTolerance: SchedulerTimeType.Stride { .zero }

    func schedule(options: Never?, _ action: @escaping () -> Void) {
        let box = Shared(action)
        queue.async { box.value() }
    }

    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?,
        _ action: @escaping () -> Void
    ) {
        let box = Shared(action)
        let delay = max(0, date.nanoseconds - now.nanoseconds)
        queue.asyncAfter(deadline: .now() + .nanoseconds(delay)) { box.value() }
    }

    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: Never?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        let box = Shared(action)
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let delay = max(0, date.nanoseconds - now.nanoseconds)
        timer.schedule(deadline: .now() + .nanoseconds(delay), repeating: .nanoseconds(max(1, interval.magnitude)))
        timer.setEventHandler { box.value() }
        timer.resume()
        return AnyCancellable { timer.cancel() }
    }
}

/// Threads driving each test, and elements each thread sends.
private let threads = 4
private let perThread = 2_000

final class StressTests: XCTestCase {
    func testStressSubjectConcurrentSendsAndSubscribes() {
        let subject = PassthroughSubject<Int, Never>()
        let counter = StressCounter()
        subject.subscribe(counter.subscriber())
        let churn = StressCounter()
        DispatchQueue.concurrentPerform(iterations: threads + 1) { index in
            if index == threads {
                // Subscribers come and go while values flow.
                for _ in 0..<200 {
                    let cancellable = subject.sink { _ in
                        churn.enter()
                        churn.leave(0)
                    }
                    cancellable.cancel()
                }
                return
            }
            for value in 0..<perThread { subject.send(value) }
        }
        subject.send(completion: .finished)
        let result = counter.snapshot
        XCTAssertEqual(result.count, threads * perThread)
        XCTAssertEqual(result.completions, 1)
    }

    func testStressShareFromManyThreads() {
        let subject = PassthroughSubject<Int, Never>()
        let shared = Shared(subject.share())
        let counters = (0..<threads).map { _ in StressCounter() }
        let cancellables = Shared<[AnyCancellable]>([])
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: threads) { index in
            let cancellable = shared.value.sink { value in
                counters[index].enter()
                counters[index].leave(value)
            }
            lock.lock()
            cancellables.value.append(cancellable)
            lock.unlock()
        }
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for value in 0..<perThread { subject.send(value) }
        }
        for counter in counters {
            XCTAssertEqual(counter.snapshot.count, threads * perThread)
        }
        DispatchQueue.concurrentPerform(iterations: threads) { index in
            lock.lock()
            let cancellable = cancellables.value[index]
            lock.unlock()
            cancellable.cancel()
        }
    }

    func testStressFlatMapSerializesDownstream() {
        let subject = PassthroughSubject<Int, Never>()
        let counter = StressCounter()
        subject.flatMap { value in Just(value) }.subscribe(counter.subscriber())
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for value in 0..<perThread { subject.send(value) }
        }
        subject.send(completion: .finished)
        let result = counter.snapshot
        XCTAssertEqual(result.count, threads * perThread)
        XCTAssertEqual(result.sum, threads * (perThread * (perThread - 1) / 2))
        XCTAssertEqual(result.overlaps, 0, "downstream was entered by two threads at once")
        XCTAssertEqual(result.completions, 1)
    }

    func testStressFlatMapInnersOnOtherThreads() {
        let subject = PassthroughSubject<Int, Never>()
        let counter = StressCounter()
        let queues = (0..<threads).map { DispatchQueue(label: "stress.inner.\($0)") }
        let done = DispatchGroup()
        subject.flatMap { value -> Future<Int, Never> in
            done.enter()
            return Future { promise in
                let fulfil = Shared(promise)
                queues[value % queues.count].async {
                    fulfil.value(.success(value))
                    done.leave()
                }
            }
        }.subscribe(counter.subscriber())
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for value in 0..<(perThread / 4) { subject.send(thread * perThread + value) }
        }
        done.wait()
        subject.send(completion: .finished)
        let result = counter.snapshot
        XCTAssertEqual(result.count, threads * (perThread / 4))
        XCTAssertEqual(result.overlaps, 0)
        XCTAssertEqual(result.completions, 1)
    }

    func testStressSwitchToLatestFromManyThreads() {
        let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
        let counter = StressCounter()
        outer.switchToLatest().subscribe(counter.subscriber())
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for value in 0..<(perThread / 2) {
                let inner = PassthroughSubject<Int, Never>()
                outer.send(inner)
                inner.send(value)
                inner.send(completion: .finished)
            }
        }
        outer.send(completion: .finished)
        let result = counter.snapshot
        XCTAssertLessThanOrEqual(result.count, threads * perThread / 2, "only values of the then-latest inner pass")
        XCTAssertEqual(result.overlaps, 0)
        XCTAssertEqual(result.completions, 1)
    }

    func testStressMergeSerializesDownstream() {
        let subjects = (0..<threads).map { _ in PassthroughSubject<Int, Never>() }
        let counter = StressCounter()
        Publishers.MergeMany(subjects).subscribe(counter.subscriber())
        DispatchQueue.concurrentPerform(iterations: threads) { index in
            for value in 0..<perThread { subjects[index].send(value) }
            subjects[index].send(completion: .finished)
        }
        let result = counter.snapshot
        XCTAssertEqual(result.count, threads * perThread)
        XCTAssertEqual(result.overlaps, 0)
        XCTAssertEqual(result.completions, 1)
    }

    func testStressZipPairsInOrderAcrossThreads() {
        let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
        let counter = StressCounter()
        // Each thread feeds one side in order, so every tuple must hold four equal values; one that does not costs
        // the sum a million.
        subjects[0].zip(subjects[1], subjects[2], subjects[3])
            .map { $0.0 == $0.1 && $0.1 == $0.2 && $0.2 == $0.3 ? $0.0 : -1_000_000 }
            .subscribe(counter.subscriber())
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            for value in 0..<perThread { subjects[index].send(value) }
            subjects[index].send(completion: .finished)
        }
        let result = counter.snapshot
        XCTAssertEqual(result.count, perThread)
        XCTAssertEqual(result.sum, perThread * (perThread - 1) / 2)
        XCTAssertEqual(result.overlaps, 0, "downstream was entered by two threads at once")
        XCTAssertEqual(result.completions, 1)
    }

    func testStressMergeWithBackpressure() {
        let subjects = (0..<threads).map { _ in PassthroughSubject<Int, Never>() }
        let received = StressCounter()
        let subscription = Shared<(any Subscription)?>(nil)
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { sub in
                subscription.value = sub
                sub.request(.max(10))
            },
            receiveValue: { value in
                received.enter()
                received.leave(value)
                return .max(1)
            },
            receiveCompletion: { _ in received.completed() }
        )
        Publishers.MergeMany(subjects.map { $0.buffer(size: perThread, prefetch: .byRequest, whenFull: .dropNewest) })
            .subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: threads) { index in
            for value in 0..<perThread { subjects[index].send(value) }
            subjects[index].send(completion: .finished)
        }
        let result = received.snapshot
        XCTAssertEqual(result.count, threads * perThread, "one-at-a-time demand still gets everything")
        XCTAssertEqual(result.overlaps, 0)
        XCTAssertEqual(result.completions, 1)
        _ = subscription
    }

    func testStressReceiveOnAcrossThreads() {
        let subject = PassthroughSubject<Int, Never>()
        let scheduler = StressQueueScheduler(label: "stress.receive")
        let counter = StressCounter()
        let finished = DispatchSemaphore(value: 0)
        let cancellable = subject.receive(on: scheduler).sink(
            receiveCompletion: { _ in
                counter.completed()
                finished.signal()
            },
            receiveValue: { value in
                counter.enter()
                counter.leave(value)
            }
        )
        // Let the scheduled subscription land before sending.
        scheduler.queue.sync {}
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for value in 0..<perThread { subject.send(value) }
        }
        subject.send(completion: .finished)
        XCTAssertEqual(finished.wait(timeout: .now() + 60), .success)
        let result = counter.snapshot
        XCTAssertEqual(result.count, threads * perThread)
        XCTAssertEqual(result.overlaps, 0)
        cancellable.cancel()
    }

    func testStressCancelRacingValues() {
        for _ in 0..<200 {
            let subject = PassthroughSubject<Int, Never>()
            let counter = StressCounter()
            let cancellable = Shared<AnyCancellable?>(nil)
            cancellable.value = subject.flatMap { Just($0) }.merge(with: subject).sink { value in
                counter.enter()
                counter.leave(value)
            }
            DispatchQueue.concurrentPerform(iterations: 3) { index in
                if index == 0 {
                    cancellable.value?.cancel()
                } else {
                    for value in 0..<50 { subject.send(value) }
                }
            }
            XCTAssertEqual(counter.snapshot.overlaps, 0)
        }
    }
}
