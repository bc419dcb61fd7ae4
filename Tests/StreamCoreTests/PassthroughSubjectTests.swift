import Dispatch
import StreamCore
import StreamTesting
import XCTest

final class PassthroughSubjectTests: XCTestCase {
    func testDeliversValuesInOrderThenCompletion() {
        let subject = PassthroughSubject<Int, S1Error>()
        let recorder = TrackingSubscriber<Int, S1Error>()
        subject.subscribe(recorder)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        subject.send(3)
        XCTAssertEqual(recorder.values, [1, 2])
        XCTAssertTrue(recorder.isFinished)
    }

    func testValuesWithoutDemandAreNotDelivered() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TrackingSubscriber<Int, Never>(initialDemand: nil)
        subject.subscribe(recorder)
        subject.send(1)
        recorder.request(.max(2))
        subject.send(2)
        subject.send(3)
        subject.send(4)
        XCTAssertEqual(recorder.values, [2, 3])
        recorder.request(.max(1))
        subject.send(5)
        XCTAssertEqual(recorder.values, [2, 3, 5])
    }

    func testDemandReturnedFromReceiveIsAdded() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TrackingSubscriber<Int, Never>(initialDemand: .max(1), demandAfterValue: { _ in .max(1) })
        subject.subscribe(recorder)
        for i in 0..<5 { subject.send(i) }
        XCTAssertEqual(recorder.values, [0, 1, 2, 3, 4])
    }

    func testSubscribersReceiveInSubscriptionOrder() {
        let subject = PassthroughSubject<Int, Never>()
        var log: [String] = []
        let a = subject.sink { log.append("a\($0)") }
        let b = subject.sink { log.append("b\($0)") }
        let c = subject.sink { log.append("c\($0)") }
        subject.send(1)
        b.cancel()
        subject.send(2)
        XCTAssertEqual(log, ["a1", "b1", "c1", "a2", "c2"])
        _ = (a, c)
    }

    func testLateSubscriberGetsCompletion() {
        let subject = PassthroughSubject<Int, S1Error>()
        subject.send(completion: .failure(S1Error(code: 7)))
        let recorder = TrackingSubscriber<Int, S1Error>()
        subject.subscribe(recorder)
        XCTAssertEqual(recorder.subscriptionCount, 1)
        XCTAssertEqual(recorder.failure, S1Error(code: 7))
    }

    func testCancelStopsDeliveryAndReleasesSubscriber() {
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        weak var weakToken: S1Token?
        var cancellable: AnyCancellable?
        do {
            let token = S1Token()
            weakToken = token
            cancellable = subject.sink { value in
                withExtendedLifetime(token) { received.append(value) }
            }
        }
        subject.send(1)
        cancellable?.cancel()
        subject.send(2)
        XCTAssertEqual(received, [1])
        XCTAssertNil(weakToken, "cancel releases the sink's closure")
        _ = cancellable
    }

    func testReentrantSendDeliversNestedWithoutDeadlock() {
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        let c = subject.sink { value in
            if value == 1 { subject.send(2) }
            received.append(value)
        }
        subject.send(1)
        XCTAssertEqual(received, [2, 1], "nested delivery, as Combine's recursive lock gives")
        _ = c
    }

    func testSubscribingFromInsideDeliveryDoesNotSeeCurrentValue() {
        let subject = PassthroughSubject<Int, Never>()
        var inner: [Int] = []
        var cancellables: [AnyCancellable] = []
        subject.sink { value in
            if value == 1 {
                subject.sink { inner.append($0) }.store(in: &cancellables)
            }
        }.store(in: &cancellables)
        subject.send(1)
        subject.send(2)
        XCTAssertEqual(inner, [2])
    }

    func testConcurrentSendsAreSerializedAndAllDelivered() {
        let subject = PassthroughSubject<Int, Never>()
        let counter = S1Counter()
        let c = subject.sink { _ in counter.increment() }
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for i in 0..<10_000 { subject.send(i) }
        }
        XCTAssertEqual(counter.value, 40_000)
        XCTAssertEqual(counter.maxConcurrent, 1, "downstream calls never overlap")
        _ = c
    }

    func testUpstreamSubscriptionIsRequestedUnlimitedOnceThereIsDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let upstream = S1ManualSubscription()
        subject.send(subscription: upstream)
        XCTAssertEqual(upstream.requests, [])
        let c = subject.sink { _ in }
        XCTAssertEqual(upstream.requests, [.unlimited])
        _ = c
    }
}

extension PassthroughSubjectTests {
    func testSubscriptionKeepsSubjectAndSubscriberUntilCancelled() {
        var subscription: (any Subscription)?
        weak var weakSubject: PassthroughSubject<Int, Never>?
        weak var weakRecorder: TrackingSubscriber<Int, Never>?
        do {
            let subject = PassthroughSubject<Int, Never>()
            let recorder = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
            weakSubject = subject
            weakRecorder = recorder
            subject.subscribe(recorder)
            subscription = recorder.subscription
        }
        XCTAssertNotNil(weakSubject, "the subscription retains its subject, as in Combine")
        XCTAssertNotNil(weakRecorder)
        subscription?.cancel()
        XCTAssertNil(weakSubject)
        XCTAssertNil(weakRecorder)
    }

    func testCompletionReleasesSubjectAndSubscriber() {
        var subscription: (any Subscription)?
        weak var weakSubject: PassthroughSubject<Int, Never>?
        weak var weakRecorder: TrackingSubscriber<Int, Never>?
        do {
            let subject = PassthroughSubject<Int, Never>()
            let recorder = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
            weakSubject = subject
            weakRecorder = recorder
            subject.subscribe(recorder)
            subscription = recorder.subscription
        }
        weakSubject?.send(completion: .finished)
        XCTAssertNil(weakSubject)
        XCTAssertNil(weakRecorder)
        _ = subscription
    }

    func testUpstreamSubscriptionsSurviveCompletion() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakUpstream: S1ManualSubscription?
        do {
            let upstream = S1ManualSubscription()
            weakUpstream = upstream
            subject.send(subscription: upstream)
        }
        subject.send(completion: .finished)
        XCTAssertNotNil(weakUpstream, "kept until the subject goes, as in Combine")
    }
}

/// A subscription that records what it is asked.
final class S1ManualSubscription: Subscription, @unchecked Sendable {
    private(set) var requests: [Subscribers.Demand] = []
    private(set) var cancels = 0
    func request(_ demand: Subscribers.Demand) { requests.append(demand) }
    func cancel() { cancels += 1 }
}
