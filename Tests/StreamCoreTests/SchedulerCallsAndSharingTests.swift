import StreamCore
import StreamTesting
import XCTest

/// A virtual clock (a `TestScheduler`) that also logs every call an operator makes on it, clock reads included,
/// with the options it was given.
private final class LoggingScheduler: Scheduler, @unchecked Sendable {
    typealias SchedulerTimeType = TestScheduler.SchedulerTimeType
    typealias SchedulerOptions = Int

    let clock = TestScheduler()
    private(set) var log: [String] = []

    var now: SchedulerTimeType {
        log.append("now")
        return clock.now
    }

    var minimumTolerance: SchedulerTimeType.Stride { clock.minimumTolerance }

    func schedule(options: Int?, _ action: @escaping () -> Void) {
        log.append("schedule(\(options.map(String.init) ?? "nil"))")
        clock.schedule(action)
    }

    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Int?,
        _ action: @escaping () -> Void
    ) {
        log.append("after(\(options.map(String.init) ?? "nil"))")
        clock.schedule(after: date, tolerance: tolerance, action)
    }

    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: Int?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        log.append("repeating(\(options.map(String.init) ?? "nil"))")
        return clock.schedule(after: date, interval: interval, tolerance: tolerance, action)
    }
}

/// A text stream that keeps each `write` call apart.
private final class WriteLog: TextOutputStream, @unchecked Sendable {
    var writes: [String] = []
    func write(_ string: String) { writes.append(string) }
}

/// The scheduler calls Combine's timing operators make, autoconnect's and share's pass-through subscription, and
/// print's and introspection's observable calls.
final class SchedulerCallsAndSharingTests: XCTestCase {
    func testThrottleReadsTheClockAsCombineDoes() {
        let scheduler = LoggingScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let tracking = TrackingSubscriber<Int, Never>()
        upstream.throttle(for: .seconds(10), scheduler: scheduler, latest: true).subscribe(tracking)
        // Once when its subscriber is made, once when the subscription arrives.
        XCTAssertEqual(scheduler.log, ["now", "now"])
        _ = upstream.send(1)
        _ = upstream.send(2)
        XCTAssertEqual(scheduler.log, ["now", "now", "now", "schedule(nil)", "now"])
        scheduler.clock.advance()
        XCTAssertEqual(tracking.values, [2])
        upstream.send(completion: .finished)
        XCTAssertEqual(scheduler.log.suffix(3), ["now", "now", "schedule(nil)"])
        scheduler.clock.advance()
        XCTAssertTrue(tracking.isFinished)
        // Nothing after the end reads the clock.
        let count = scheduler.log.count
        _ = upstream.send(3)
        XCTAssertEqual(scheduler.log.count, count)
    }

    func testThrottleIgnoresACompletionBeforeItsSubscription() {
        let upstream = HoldingPublisher<Int, Never>()
        let tracking = TrackingSubscriber<Int, Never>()
        upstream.throttle(for: .seconds(1), scheduler: ImmediateScheduler.shared, latest: true).subscribe(tracking)
        upstream.subscriber?.receive(completion: .finished)
        upstream.subscriber?.receive(subscription: NamedSubscription("Upstream"))
        XCTAssertEqual(tracking.subscriptionCount, 1)
        XCTAssertNil(tracking.completion)
    }

    func testDebounceSchedulesItsCompletionWithoutTheOptionsAndItsTimerHoldsTheSubscriber() {
        let scheduler = LoggingScheduler()
        weak var released: TrackingSubscriber<Int, Never>?
        do {
            let upstream = HoldingPublisher<Int, Never>()
            let tracking = TrackingSubscriber<Int, Never>()
            released = tracking
            upstream.debounce(for: .seconds(1), scheduler: scheduler, options: 7).subscribe(tracking)
            upstream.subscriber?.receive(subscription: NamedSubscription("Upstream"))
            _ = upstream.subscriber?.receive(1)
        }
        // Only the pending timer holds the chain now, and it keeps the subscriber alive, as in Combine.
        XCTAssertNotNil(released)
        scheduler.clock.advance(by: .seconds(1))
        XCTAssertEqual(released?.values, [1])

        let upstream = HoldingPublisher<Int, Never>()
        let tracking = TrackingSubscriber<Int, Never>()
        upstream.debounce(for: .seconds(1), scheduler: scheduler, options: 7).subscribe(tracking)
        upstream.subscriber?.receive(subscription: NamedSubscription("Upstream"))
        _ = upstream.subscriber?.receive(2)
        upstream.subscriber?.receive(completion: .finished)
        XCTAssertEqual(scheduler.log.filter { $0 != "now" }.suffix(2), ["repeating(7)", "schedule(nil)"])
        scheduler.clock.advance()
        XCTAssertEqual(tracking.values, [])
        XCTAssertTrue(tracking.isFinished)
    }

    func testAutoconnectHandsTheUpstreamsSubscriptionThroughAndKeepsForwarding() {
        var disconnects = 0
        let upstream = CountingConnectable(onConnect: {}, onDisconnect: { disconnects += 1 })
        let tracking = TrackingSubscriber<Int, Never>()
        upstream.autoconnect().subscribe(tracking)
        let subscription = upstream.subscription
        XCTAssertEqual(tracking.subscription.map { "\($0)" }, "Upstream")
        XCTAssertEqual(tracking.subscription?.combineIdentifier, subscription.combineIdentifier)
        // As in Combine: no terminal state, values after a completion still pass.
        _ = upstream.subscriber?.receive(1)
        upstream.subscriber?.receive(completion: .finished)
        _ = upstream.subscriber?.receive(2)
        XCTAssertEqual(tracking.values, [1, 2])
        // Every cancel reaches the upstream's subscription; the connection ends once.
        tracking.subscription?.cancel()
        tracking.subscription?.cancel()
        XCTAssertEqual(subscription.cancels, 2)
        XCTAssertEqual(disconnects, 1)
    }

    func testAutoconnectConnectsAgainForASubscriberAddedWhileConnecting() {
        var connects = 0
        var disconnects = 0
        let upstream = CountingConnectable(onConnect: { connects += 1 }, onDisconnect: { disconnects += 1 })
        let autoconnect = upstream.autoconnect()
        let inner = TrackingSubscriber<Int, Never>()
        let outer = TrackingSubscriber<Int, Never>(onEvent: { event in
            if case .subscription = event { autoconnect.subscribe(inner) }
        })
        autoconnect.subscribe(outer)
        XCTAssertEqual(connects, 2)
        // The later connection is kept, counting one subscriber: the outer cancel disconnects it.
        outer.subscription?.cancel()
        XCTAssertEqual(disconnects, 1)
        inner.subscription?.cancel()
        XCTAssertEqual(disconnects, 1)
    }

    func testShareSubscriptionIsCalledMulticast() {
        let subject = PassthroughSubject<Int, Never>()
        let tracking = TrackingSubscriber<Int, Never>()
        subject.share().subscribe(tracking)
        XCTAssertEqual(tracking.subscription.map { "\($0)" }, "Multicast")
        subject.send(4)
        XCTAssertEqual(tracking.values, [4])
    }

    func testPrintWritesAsPrintDoesAndCancelsASecondSubscription() {
        let log = WriteLog()
        let upstream = HoldingPublisher<Int, Never>()
        let tracking = TrackingSubscriber<Int, Never>(initialDemand: nil)
        upstream.print("p", to: log).subscribe(tracking)
        let first = NamedSubscription("First")
        let second = NamedSubscription("Second")
        upstream.subscriber?.receive(subscription: first)
        upstream.subscriber?.receive(subscription: second)
        tracking.subscription?.cancel()
        upstream.subscriber?.receive(subscription: second)
        XCTAssertEqual(first.cancels, 1)
        XCTAssertEqual(second.cancels, 2)
        XCTAssertEqual(log.writes.prefix(3), ["", "p: receive subscription: (First)", "\n"])
        XCTAssertEqual(log.writes.filter { $0.contains("receive subscription") }.count, 3)
    }

    private final class Counting: _Introspection {
        var subscriptionEvents = 0
        var subscribers: [String] = []

        func willReceive<Upstream: Publisher, Downstream: Subscriber>(publisher: Upstream, subscriber: Downstream)
        where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input {
            subscribers.append("\(type(of: subscriber))")
        }

        func willReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: any Subscription) {
            subscriptionEvents += 1
        }
    }

    func testIntrospectionReportsEachEventOnceThroughNestedSubscribeCalls() {
        let counting = Counting()
        let subject = PassthroughSubject<Int, Never>()
        let forwarding = PassingOn(upstream: subject)
        let tracking = TrackingSubscriber<Int, Never>()
        counting.enable()
        forwarding.subscribe(tracking)
        counting.disable()
        XCTAssertEqual(counting.subscriptionEvents, 1)
        // The nested call (the operator subscribing the subject) sees the forwarder as an AnySubscriber.
        XCTAssertEqual(counting.subscribers, ["TrackingSubscriber<Int, Never>", "AnySubscriber<Int, Never>"])
    }
}

/// An operator that passes its subscriber on to its upstream's `subscribe(_:)` unchanged.
private struct PassingOn<Upstream: Publisher>: Publisher {
    typealias Output = Upstream.Output
    typealias Failure = Upstream.Failure
    let upstream: Upstream

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        upstream.subscribe(subscriber)
    }
}

/// Keeps the subscriber an operator attaches, so a test can send it events in any order.
private final class HoldingPublisher<Output, Failure: Error>: Publisher {
    private(set) var subscriber: AnySubscriber<Output, Failure>?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        self.subscriber = AnySubscriber(subscriber)
    }
}

/// A subscription with a name for its description, that counts its cancels and holds nothing.
private final class NamedSubscription: Subscription, CustomStringConvertible {
    let description: String
    private(set) var cancels = 0
    init(_ name: String) { description = name }
    func request(_ demand: Subscribers.Demand) {}
    func cancel() { cancels += 1 }
}

/// A connectable publisher that counts its connections and disconnections, and hands each subscriber the same
/// subscription.
private final class CountingConnectable: ConnectablePublisher {
    typealias Output = Int
    typealias Failure = Never
    let subscription = NamedSubscription("Upstream")
    private(set) var subscriber: AnySubscriber<Int, Never>?
    private let onConnect: () -> Void
    private let onDisconnect: () -> Void

    init(onConnect: @escaping () -> Void, onDisconnect: @escaping () -> Void) {
        self.onConnect = onConnect
        self.onDisconnect = onDisconnect
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        self.subscriber = AnySubscriber(subscriber)
        subscriber.receive(subscription: subscription)
    }

    func connect() -> any Cancellable {
        onConnect()
        return Disconnect(onDisconnect)
    }

    private final class Disconnect: Cancellable {
        let action: () -> Void
        init(_ action: @escaping () -> Void) { self.action = action }
        func cancel() { action() }
    }
}
