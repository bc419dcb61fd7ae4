import Foundation
import StreamCore
import StreamTesting

/// What a `RecordingSubscription` was asked to do, in order.
enum RecordedCall: Equatable, CustomStringConvertible {
    case request(Subscribers.Demand)
    case cancel

    var description: String {
        switch self {
        case .request(let demand): return "request(\(demand))"
        case .cancel: return "cancel"
        }
    }
}

/// A subscription that records every request and cancel, and optionally runs a hook on each (to misbehave
/// reentrantly, for instance).
final class RecordingSubscription: Subscription, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [RecordedCall] = []
    var onRequest: ((Subscribers.Demand) -> Void)?

    /// Every call so far.
    var calls: [RecordedCall] { lock.withLock { recorded } }

    func request(_ demand: Subscribers.Demand) {
        lock.withLock { recorded.append(.request(demand)) }
        onRequest?(demand)
    }

    func cancel() {
        lock.withLock { recorded.append(.cancel) }
    }
}

/// A publisher that breaks the protocol on request: it keeps its subscriber and sends it whatever the test says,
/// whenever the test says, without a subscription first if asked to. The subscriber is kept as the operator's own
/// object, so a test can also call it as a `Subscription` before the upstream subscription arrived.
final class MisbehavingPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    private let lock = NSLock()
    private var held: AnySubscriber<Output, Failure>?
    private var raw: Any?

    /// The operator's subscriber (the latest one), as the operator's own object.
    var subscriber: Any? { lock.withLock { raw } }

    /// The operator's subscriber seen as its subscription: the reducing and filtering operators are both.
    var subscriberAsSubscription: (any Subscription)? { subscriber as? any Subscription }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        lock.withLock {
            held = AnySubscriber(subscriber)
            raw = subscriber
        }
    }

    private var target: AnySubscriber<Output, Failure>? { lock.withLock { held } }

    /// Hands a subscription to the subscriber.
    func send(subscription: any Subscription) {
        target?.receive(subscription: subscription)
    }

    /// Sends a value whatever the demand, and returns what the subscriber answered.
    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand {
        target?.receive(value) ?? .none
    }

    /// Sends a completion.
    func send(completion: Subscribers.Completion<Failure>) {
        target?.receive(completion: completion)
    }
}
