import Dispatch
import Foundation
import StreamCore
import StreamTesting
import XCTest

/// S1 publishers, subjects and sinks used from several threads at once. Meant to run under `--sanitize=thread` too.
final class SubjectConcurrencyTests: XCTestCase {
    func testSubscribeCancelChurnWhileSending() {
        let subject = PassthroughSubject<Int, Never>()
        let delivered = S1Counter()
        let stop = DispatchSemaphore(value: 0)
        let sender = Thread {
            var i = 0
            while stop.wait(timeout: .now()) == .timedOut {
                subject.send(i)
                i += 1
            }
        }
        sender.start()
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            for _ in 0..<300 {
                let c = subject.map { $0 + 1 }.sink { _ in delivered.increment() }
                c.cancel()
            }
        }
        stop.signal()
        subject.send(completion: .finished)
        XCTAssertLessThanOrEqual(delivered.maxConcurrent, 2)
    }

    func testNothingIsLeftQueuedWhenConcurrentSendersReturn() {
        for round in 0..<20 {
            let subject = PassthroughSubject<Int, Never>()
            let counter = S1Counter()
            let c = subject.filter { $0 % 3 != 0 || round % 2 == 0 }.sink { _ in counter.increment() }
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                for i in 0..<3_000 { subject.send(i) }
            }
            let expected = round % 2 == 0 ? 12_000 : 8_000
            XCTAssertEqual(counter.value, expected, "every value sent has been delivered once all senders returned")
            XCTAssertEqual(counter.maxConcurrent, 1)
            _ = c
        }
    }

    func testCurrentValueSubjectRequestsRaceWithSends() {
        for _ in 0..<50 {
            let subject = CurrentValueSubject<Int, Never>(0)
            let recorder = LockedRecorder()
            subject.subscribe(recorder)
            DispatchQueue.concurrentPerform(iterations: 3) { index in
                if index == 0 {
                    for _ in 0..<20 { recorder.request(.max(1)) }
                } else {
                    for i in 1...50 { subject.send(i) }
                }
            }
            let values = recorder.values
            XCTAssertLessThanOrEqual(values.count, 20, "never more than requested")
            XCTAssertEqual(values.first, values.isEmpty ? nil : values.first)
        }
    }

    func testCancelFromAnotherThreadDuringDeliveryReleasesClosuresAfterIt() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakToken: S1Token?
        let received = S1Counter()
        var holder: SendableBox<AnyCancellable>?
        do {
            let token = S1Token()
            weakToken = token
            let slot = CancellableSlot()
            let cancellable = subject.sink { _ in
                withExtendedLifetime(token) { received.increment() }
                // Cancel from another thread while this delivery is still running, and wait for it.
                let done = DispatchSemaphore(value: 0)
                let box = SendableBox(slot)
                Thread {
                    box.value.cancellable?.cancel()
                    done.signal()
                }.start()
                done.wait()
            }
            slot.cancellable = cancellable
            holder = SendableBox(cancellable)
        }
        subject.send(1)
        subject.send(2)
        XCTAssertEqual(received.value, 1, "nothing is delivered after cancel returns")
        XCTAssertNil(weakToken, "the delivering thread released the closures when it finished")
        _ = holder
    }

    func testPublishedPropertyWrittenOnOneThreadAndReadOnAnother() {
        let model = ConcurrentModel()
        let source = PassthroughSubject<Int, Never>()
        source.assign(to: &model.$count)
        let changes = S1Counter()
        let c = model.objectWillChange.sink { changes.increment() }
        let writer = Thread { for i in 1...2_000 { source.send(i) } }
        writer.start()
        var lastSeen = 0
        while lastSeen < 2_000 {
            let now = model.count
            XCTAssertGreaterThanOrEqual(now, lastSeen, "values only move forward")
            lastSeen = now
        }
        XCTAssertEqual(changes.value, 2_000)
        _ = c
    }

    func testCurrentValueSubjectSubscribingWhileSendingNeverGoesBackwards() {
        for _ in 0..<30 {
            let subject = CurrentValueSubject<Int, Never>(0)
            let log = LockedRecorder()
            let finished = DispatchSemaphore(value: 0)
            let sender = Thread {
                for i in 1...2_000 { subject.send(i) }
                finished.signal()
            }
            sender.start()
            let c = subject.sink { _ = log.receive($0) }
            finished.wait()
            let values = log.values
            XCTAssertEqual(values, values.sorted(), "the current value never arrives after a newer one")
            XCTAssertEqual(values.last, 2_000)
            _ = c
        }
    }

    func testFutureFulfilledWhileSubscribersArriveFromManyThreads() {
        let promiseSlot = PromiseSlot()
        let future = Future<Int, S1Error> { promiseSlot.promise = $0 }
        let trackers = (0..<64).map { _ in TrackingSubscriber<Int, S1Error>(initialDemand: .max(1)) }
        let box = SendableBox((future, trackers, promiseSlot))
        DispatchQueue.concurrentPerform(iterations: 65) { index in
            let (future, trackers, slot) = box.value
            if index == 64 {
                slot.promise?(.success(9))
            } else {
                future.subscribe(trackers[index])
            }
        }
        for tracker in trackers {
            XCTAssertEqual(tracker.values, [9])
            XCTAssertTrue(tracker.isFinished)
        }
    }

    func testFutureFailureNeverOvertakesTheSubscription() {
        for _ in 0..<20 {
            let promiseSlot = PromiseSlot()
            let future = Future<Int, S1Error> { promiseSlot.promise = $0 }
            let trackers = (0..<16).map { _ in TrackingSubscriber<Int, S1Error>(initialDemand: nil) }
            let box = SendableBox((future, trackers, promiseSlot))
            DispatchQueue.concurrentPerform(iterations: 17) { index in
                let (future, trackers, slot) = box.value
                if index == 16 {
                    slot.promise?(.failure(S1Error(code: 5)))
                } else {
                    future.subscribe(trackers[index])
                }
            }
            for tracker in trackers {
                XCTAssertEqual(tracker.events.map(\.description), ["subscription", "failure(S1Error(code: 5))"])
            }
        }
    }

    func testSequenceRequestsFromManyThreadsDeliverExactlyTheDemand() {
        let tracker = TrackingSubscriber<Int, Never>(initialDemand: nil)
        (0..<Int.max).publisher.subscribe(tracker)
        let box = SendableBox(tracker)
        DispatchQueue.concurrentPerform(iterations: 100) { _ in box.value.request(.max(1)) }
        XCTAssertEqual(tracker.values, Array(0..<100), "in order, each once, no more than requested")
        tracker.cancel()
    }

    func testCompletionRacesWithCancel() {
        for _ in 0..<200 {
            let subject = PassthroughSubject<Int, Never>()
            let completions = S1Counter()
            let c = SendableBox(
                subject.sink(receiveCompletion: { _ in completions.increment() }, receiveValue: { _ in }))
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == 0 { subject.send(completion: .finished) } else { c.value.cancel() }
            }
            XCTAssertLessThanOrEqual(completions.value, 1)
        }
    }
}

/// A subscriber safe to drive from several threads: it records values under a lock and requests on demand.
private final class LockedRecorder: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never
    private let lock = NSLock()
    private var subscription: (any Subscription)?
    private var received: [Int] = []

    func receive(subscription: any Subscription) {
        lock.lock()
        self.subscription = subscription
        lock.unlock()
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        lock.lock()
        received.append(input)
        lock.unlock()
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {}

    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        let subscription = self.subscription
        lock.unlock()
        subscription?.request(demand)
    }

    var values: [Int] {
        lock.lock()
        defer { lock.unlock() }
        return received
    }
}

private final class ConcurrentModel: ObservableObject, @unchecked Sendable {
    @Published var count = 0
}

/// Keeps a future's promise for a test to call later.
private final class PromiseSlot: @unchecked Sendable {
    var promise: Future<Int, S1Error>.Promise?
}

/// Lets a sink's closure reach its own cancellable.
private final class CancellableSlot: @unchecked Sendable {
    weak var cancellable: AnyCancellable?
}

/// Hands a value that is safe to share (here an AnyCancellable, whose cancel is thread-safe) to concurrent code.
private struct SendableBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
