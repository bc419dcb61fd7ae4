/// A type-erasing subscriber: it forwards to a wrapped subscriber or to closures.
///
/// It keeps the wrapped subscriber's `combineIdentifier`, so wrapping does not change a stream's identity.
@frozen
public struct AnySubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible {
    @usableFromInline
    internal let receiveSubscriptionThunk: (any Subscription) -> Void
    @usableFromInline
    internal let receiveValueThunk: (Input) -> Subscribers.Demand
    @usableFromInline
    internal let receiveCompletionThunk: (Subscribers.Completion<Failure>) -> Void
    /// What this subscriber stands for, for descriptions and reflection only (never called on the delivery path):
    /// the wrapped subscriber, a `SubjectSubscriber` for a subject, or the text "Anonymous AnySubscriber".
    private let reflectedThunk: () -> Any

    /// The identifier of the wrapped subscriber, or a fresh one for closure-based subscribers.
    public let combineIdentifier: CombineIdentifier

    /// Wraps a subscriber.
    public init<S: Subscriber>(_ s: S) where S.Input == Input, S.Failure == Failure {
        if let already = s as? AnySubscriber<Input, Failure> {
            self = already
            return
        }
        combineIdentifier = s.combineIdentifier
        receiveSubscriptionThunk = s.receive(subscription:)
        receiveValueThunk = s.receive(_:)
        receiveCompletionThunk = s.receive(completion:)
        reflectedThunk = { s }
    }

    /// Wraps a subject, so it can be used where a subscriber is expected. As in Combine, the subject is sent a
    /// "Subject" subscription of its own (the first upstream subscription, forwarded); later subscriptions are
    /// cancelled, and nothing reaches the subject after a completion.
    public init<S: Subject>(_ s: S) where S.Output == Input, S.Failure == Failure {
        let inner = SubjectSubscriber(s)
        combineIdentifier = CombineIdentifier()
        receiveSubscriptionThunk = inner.receive(subscription:)
        receiveValueThunk = inner.receive(_:)
        receiveCompletionThunk = inner.receive(completion:)
        reflectedThunk = { inner }
    }

    /// Creates a subscriber from closures; omitted ones do nothing, and values request no more demand.
    public init(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveValue: ((Input) -> Subscribers.Demand)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil
    ) {
        combineIdentifier = CombineIdentifier()
        receiveSubscriptionThunk = receiveSubscription ?? { _ in }
        receiveValueThunk = receiveValue ?? { _ in .none }
        receiveCompletionThunk = receiveCompletion ?? { _ in }
        reflectedThunk = { "Anonymous AnySubscriber" }
    }

    /// The wrapped subscriber's description ("Subject" for a subject, "Anonymous AnySubscriber" for closures).
    public var description: String { String(describing: reflectedThunk()) }

    /// What `customMirror` reflects.
    internal var reflected: Any { reflectedThunk() }

    /// Forwards the subscription.
    @inlinable
    public func receive(subscription: any Subscription) {
        receiveSubscriptionThunk(subscription)
    }

    /// Forwards a value.
    @inlinable
    public func receive(_ value: Input) -> Subscribers.Demand {
        receiveValueThunk(value)
    }

    /// Forwards the completion.
    @inlinable
    public func receive(completion: Subscribers.Completion<Failure>) {
        receiveCompletionThunk(completion)
    }
}
