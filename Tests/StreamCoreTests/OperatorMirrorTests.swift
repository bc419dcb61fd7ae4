import StreamCore
import StreamTesting
import XCTest

/// A publisher that keeps the subscriber an operator attaches to it, so a test can look at that subscriber's
/// description and mirror, and hands it a `ManualSubscription`-like subscription of its own.
private final class CapturingPublisher<Output, Failure: Error>: Publisher {
    private(set) var subscriber: Any?
    private var send: ((any Subscription) -> Void)?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        self.subscriber = subscriber
        send = { subscriber.receive(subscription: $0) }
    }

    /// Hands the captured subscriber its subscription.
    func sendSubscription(_ subscription: any Subscription) {
        send?(subscription)
    }
}

/// A text stream that forgets what it is given.
private struct NullStream: TextOutputStream {
    mutating func write(_ string: String) {}
}

/// A subscription that does nothing, with a description of its own.
private final class QuietSubscription: Subscription, CustomStringConvertible {
    func request(_ demand: Subscribers.Demand) {}
    func cancel() {}
    var description: String { "Quiet" }
}

/// Combine's debugging surface for the operators' subscriptions: the name a playground shows, and the children a
/// mirror shows (Combine's field names), for the subscriber an operator attaches upstream and for the subscription
/// its downstream gets.
final class OperatorMirrorTests: XCTestCase {
    /// The labels of a value's custom mirror, or nil when it has none.
    private func labels(_ value: Any?) -> [String?]? {
        // Unwrapped first: an Optional is itself reflectable.
        guard let value else { return nil }
        return (value as? any CustomReflectable)?.customMirror.children.map(\.label)
    }

    private func playground(_ value: Any?) -> String? {
        guard let value else { return nil }
        return (value as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
    }

    /// The values of a value's custom mirror, described.
    private func childValues(_ value: Any?) -> [String]? {
        guard let value else { return nil }
        return (value as? any CustomReflectable)?.customMirror.children.map { "\($0.value)" }
    }

    /// Subscribes `make(upstream)` and checks the name and mirror labels of the attached subscriber and (when
    /// `subscriptionToo`) of the subscription handed downstream.
    private func check<P: Publisher>(
        _ name: String, _ expected: [String], subscriptionToo: Bool = true, line: UInt = #line,
        _ make: (CapturingPublisher<Int, S4Error>) -> P
    ) {
        check(name, expected, subscriptionToo: subscriptionToo, failing: S4Error.self, line: line, make)
    }

    private func check<Failure: Error, P: Publisher>(
        _ name: String, _ expected: [String], subscriptionToo: Bool, failing: Failure.Type, line: UInt,
        _ make: (CapturingPublisher<Int, Failure>) -> P
    ) {
        let upstream = CapturingPublisher<Int, Failure>()
        let tracking = TrackingSubscriber<P.Output, P.Failure>(initialDemand: nil)
        make(upstream).subscribe(tracking)
        let subscriber = upstream.subscriber
        XCTAssertEqual((subscriber as? any CustomStringConvertible)?.description, name, line: line)
        XCTAssertEqual(playground(subscriber), name, line: line)
        XCTAssertEqual(labels(subscriber), expected, line: line)
        guard subscriptionToo else { return }
        upstream.sendSubscription(QuietSubscription())
        XCTAssertEqual((tracking.subscription as? any CustomStringConvertible)?.description, name, line: line)
        XCTAssertEqual(playground(tracking.subscription), name, line: line)
        XCTAssertEqual(labels(tracking.subscription), expected, line: line)
    }

    func testTimingOperatorsShowCombinesChildren() {
        let scheduler = TestScheduler()
        check("Throttle", []) { $0.throttle(for: .seconds(1), scheduler: scheduler, latest: true) }
        check("Debounce", ["downstream", "downstreamDemand", "currentValue"]) {
            $0.debounce(for: .seconds(1), scheduler: scheduler)
        }
        check("Timeout", []) { $0.timeout(.seconds(1), scheduler: scheduler) }
        check("MeasureInterval", []) { $0.measureInterval(using: scheduler) }
        check("SubscribeOn", []) { $0.subscribe(on: ImmediateScheduler.shared) }
    }

    func testDelaysSubscriptionDescribesNothing() {
        let upstream = CapturingPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: nil)
        upstream.delay(for: .seconds(1), scheduler: TestScheduler()).subscribe(tracking)
        upstream.sendSubscription(QuietSubscription())
        for case let value? in [upstream.subscriber, tracking.subscription as Any?] {
            XCTAssertFalse(value is any CustomStringConvertible)
            XCTAssertFalse(value is any CustomReflectable)
            XCTAssertFalse(value is any CustomPlaygroundDisplayConvertible)
        }
        // receive(on:) shares delay's forwarder and still describes itself.
        let other = CapturingPublisher<Int, S4Error>()
        other.receive(on: TestScheduler()).subscribe(TrackingSubscriber<Int, S4Error>())
        XCTAssertEqual((other.subscriber as? any CustomStringConvertible)?.description, "ReceiveOn")
    }

    func testPassThroughOperatorsShowCombinesChildren() {
        check("Print", []) { $0.print(to: NullStream()) }
        check("HandleEvents", []) { $0.handleEvents() }
        check("Drop", []) { $0.dropFirst(3) }
        check("Buffer", ["values", "state", "downstreamDemand", "terminal"]) {
            $0.buffer(size: 4, prefetch: .keepFull, whenFull: .dropNewest)
        }
        check("CollectByCount", ["downstream", "upstreamSubscription", "buffer", "count"]) { $0.collect(5) }
        check("RemoveDuplicates", ["downstream", "last"]) { $0.removeDuplicates() }
        check("TryRemoveDuplicates", ["downstream", "last"]) { $0.tryRemoveDuplicates { $0 == $1 } }
        check("TryScan", ["downstream", "status", "result"]) { $0.tryScan(0, +) }
        check("Catch", ["downstream", "demand"]) { $0.catch { _ in Just(0) } }
        check("TryCatch", ["downstream", "demand"]) { $0.tryCatch { _ in Just(0) } }
    }

    /// These hand the upstream's own subscription downstream, so only the attached subscriber is theirs.
    func testForwardingSubscribersShowCombinesChildren() {
        check("Breakpoint", [], subscriptionToo: false) { $0.breakpointOnError() }
        check("MapError", [], subscriptionToo: false) { $0.mapError { $0 } }
        check("SetFailureType", [], subscriptionToo: false, failing: Never.self, line: #line) {
            $0.setFailureType(to: S4Error.self)
        }
        check("AssertNoFailure", ["file", "line", "prefix"], subscriptionToo: false) {
            $0.assertNoFailure("why", file: "Here.swift", line: 7)
        }
    }

    func testAssertNoFailureMirrorsWhereItWasWritten() {
        let upstream = CapturingPublisher<Int, S4Error>()
        upstream.assertNoFailure("why", file: "Here.swift", line: 7).subscribe(TrackingSubscriber<Int, Never>())
        XCTAssertEqual(childValues(upstream.subscriber), ["Here.swift", "7", "why"])
    }

    func testDebounceMirrorShowsDemandAndThePendingValue() {
        let upstream = CapturingPublisher<Int, S4Error>()
        let scheduler = TestScheduler()
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: .max(3))
        upstream.debounce(for: .seconds(1), scheduler: scheduler).subscribe(tracking)
        upstream.sendSubscription(QuietSubscription())
        _ = (upstream.subscriber as? any Subscriber<Int, S4Error>)?.receive(5)
        XCTAssertEqual(childValues(tracking.subscription)?.dropFirst(), ["max(3)", "Optional(5)"])
    }
}
