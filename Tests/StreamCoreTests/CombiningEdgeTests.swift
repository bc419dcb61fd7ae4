import StreamCore
import StreamTesting
import XCTest

/// Cancellation, reentrancy and misuse cases across S2's operators.
final class CombiningEdgeTests: XCTestCase {
    func testReentrantSendIntoMergeIsDeliveredAfterTheCurrentValue() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        var seen: [Int] = []
        let cancellable = a.merge(with: b).sink { value in
            seen.append(value)
            if value == 1 { b.send(2) }
            seen.append(-value)
        }
        a.send(1)
        XCTAssertEqual(seen, [1, -1, 2, -2], "serialized: the reentrant value waits for the current call to return")
        cancellable.cancel()
    }

    func testSwitchToLatestReentrantSwitchFromSink() {
        let outer = PassthroughSubject<AnyPublisher<Int, Never>, Never>()
        var seen: [Int] = []
        let cancellable = outer.switchToLatest().sink { value in
            seen.append(value)
            if value == 1 { outer.send(Just(2).eraseToAnyPublisher()) }
        }
        outer.send([1, 10].publisher.eraseToAnyPublisher())
        XCTAssertEqual(seen, [1, 2], "the switch cancels the first inner publisher before it sends 10")
        cancellable.cancel()
    }

    func testCancelReleasesDownstreamAndClosures() {
        final class Token {}
        weak var weakToken: Token?
        let subject = PassthroughSubject<Int, Never>()
        var cancellable: AnyCancellable?
        do {
            let token = Token()
            weakToken = token
            cancellable = subject.flatMap { _ in Just(token).map { _ in 1 } }.sink { _ in }
            subject.send(0)
        }
        cancellable?.cancel()
        cancellable = nil
        XCTAssertNil(weakToken, "nothing keeps the transform's captures after cancel")
    }

    func testZipAndCombineLatestIgnoreEventsAfterCancel() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let zipped = TrackingSubscriber<(Int, Int), Never>()
        let latest = TrackingSubscriber<(Int, Int), Never>()
        a.zip(b).subscribe(zipped)
        a.combineLatest(b).subscribe(latest)
        zipped.cancel()
        latest.cancel()
        a.send(1)
        b.send(2)
        a.send(completion: .finished)
        XCTAssertTrue(zipped.values.isEmpty && zipped.completion == nil)
        XCTAssertTrue(latest.values.isEmpty && latest.completion == nil)
    }

    func testCatchAndRetryCancelTheCurrentUpstreamOnce() {
        let upstream = ManualPublisher<Int, S2Error>()
        let tracker = TrackingSubscriber<Int, S2Error>()
        upstream.retry(3).subscribe(tracker)
        upstream.send(completion: .failure(S2Error()))
        tracker.cancel()
        tracker.cancel()
        XCTAssertEqual(upstream.subscriptions.map(\.cancelCount), [0, 1])
    }

    func testSecondSubscriptionIsCancelled() {
        let twice = SubscribesTwice()
        let trackers = (0..<4).map { _ in TrackingSubscriber<Int, Never>() }
        twice.flatMap { Just($0) }.subscribe(trackers[0])
        twice.merge(with: Empty(completeImmediately: false)).subscribe(trackers[1])
        twice.map { Just($0) }.switchToLatest().subscribe(trackers[2])
        twice.debounce(for: .seconds(1), scheduler: TestScheduler()).subscribe(trackers[3])
        XCTAssertEqual(twice.extras.map(\.cancelled), [true, true, true, true])
        XCTAssertEqual(twice.firsts.map(\.cancelled), [false, false, false, false])
    }

    func testDebounceWithImmediateSchedulerDeliversInOrder() {
        let subject = PassthroughSubject<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>()
        subject.receive(on: ImmediateScheduler.shared).delay(for: .zero, scheduler: ImmediateScheduler.shared)
            .subscribe(tracker)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        XCTAssertTrue(tracker.saw([1, 2], .finished))
    }
}

/// A misbehaving publisher that hands each subscriber two subscriptions.
private final class SubscribesTwice: Publisher, @unchecked Sendable {
    typealias Output = Int
    typealias Failure = Never

    final class Recorded: Subscription {
        var cancelled = false
        func request(_ demand: Subscribers.Demand) {}
        func cancel() { cancelled = true }
    }

    var firsts: [Recorded] = []
    var extras: [Recorded] = []

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        let first = Recorded()
        let extra = Recorded()
        firsts.append(first)
        extras.append(extra)
        subscriber.receive(subscription: first)
        subscriber.receive(subscription: extra)
    }
}
