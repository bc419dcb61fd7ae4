import Synchronization

/// A publisher that emits an output to each subscriber just once, and then finishes.
///
/// The value is sent only once the subscriber requests demand, followed at once by `.finished`.
@frozen
public struct Just<Output>: Publisher {
    /// Just never fails.
    public typealias Failure = Never

    /// The one element that the publisher emits.
    public let output: Output

    /// Creates a publisher that emits `output` once, then finishes.
    @inlinable
    public init(_ output: Output) {
        self.output = output
    }

    /// Gives the subscriber a one-shot subscription that delivers the value on the first request.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        subscriber.receive(subscription: JustSubscription(output, subscriber))
    }
}

extension Just: Equatable where Output: Equatable {}

extension Just: Sendable where Output: Sendable {}

/// Just's subscription: whoever first flips `done` (a request or a cancel) wins, so the value is delivered at most
/// once without a lock, and the winner releases the subscriber (Combine does, even while the subscription is kept).
/// The value stays until the subscription goes, as in Combine.
@usableFromInline
internal final class JustSubscription<Output, Downstream: Subscriber>: Subscription, CustomStringConvertible,
    @unchecked Sendable
where Downstream.Input == Output {
    @usableFromInline internal let done = Atomic<Bool>(false)
    @usableFromInline internal let output: Output
    /// The subscriber, boxed and held at +1 until the winner of `done` takes it. A plain optional of a class keeps
    /// the unspecialized path (calls arrive through `any Subscription`) free of generic metadata look-ups.
    @usableFromInline @exclusivity(unchecked) internal var box: Unmanaged<SubscriberBox<Downstream>>?

    @inlinable
    internal init(_ output: Output, _ downstream: Downstream) {
        self.output = output
        box = Unmanaged.passRetained(SubscriberBox(downstream))
    }

    deinit {
        box?.release()
    }

    /// Which publisher made this subscription, for its description only ("Just", "Optional", "Once" in Combine).
    @usableFromInline internal var kind = JustSubscriptionKind.just

    @usableFromInline
    internal var description: String {
        switch kind {
        case .just: "Just"
        case .optional: "Optional"
        case .result: "Once"
        }
    }

    @inlinable
    internal func request(_ demand: Subscribers.Demand) {
        precondition(demand != .none, "demand must not be zero")
        guard !done.exchange(true, ordering: .acquiringAndReleasing), let taken = box else { return }
        box = nil
        let subscriber = taken.takeRetainedValue().subscriber
        _ = subscriber.receive(output)
        subscriber.receive(completion: .finished)
    }

    @inlinable
    internal func cancel() {
        guard !done.exchange(true, ordering: .acquiringAndReleasing), let taken = box else { return }
        box = nil
        taken.release()
    }
}

/// The publishers that share `JustSubscription`; Combine names their subscriptions differently.
@usableFromInline
internal enum JustSubscriptionKind: Sendable {
    case just, optional, result
}

extension JustSubscription: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// The one value, unlabelled, as in Combine.
    @usableFromInline internal var customMirror: Mirror { Mirror(self, unlabeledChildren: [output]) }

    /// The description.
    @usableFromInline internal var playgroundDescription: Any { description }
}

/// A subscriber in a class box, so that a subscription can hold it through an `Unmanaged` reference.
@usableFromInline
internal final class SubscriberBox<Subscriber> {
    @usableFromInline internal let subscriber: Subscriber

    @inlinable
    internal init(_ subscriber: Subscriber) {
        self.subscriber = subscriber
    }
}
