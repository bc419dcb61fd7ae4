/// A subject that broadcasts elements to downstream subscribers.
///
/// Unlike `CurrentValueSubject` it keeps no value: a value sent while a subscriber has no outstanding demand is not
/// delivered to that subscriber (Combine's behaviour). Subscribers receive values in subscription order. A subscriber
/// arriving after completion receives the completion at once.
public final class PassthroughSubject<Output, Failure: Error>: Subject, @unchecked Sendable {
    @usableFromInline
    internal let core = SubjectCore<Output, Failure>(currentValue: nil, kind: .passthrough)

    /// Creates a subject with no subscribers.
    public init() {}

    deinit {
        core.cancelUpstreams()
    }

    /// Attaches a subscriber; it receives values sent after it has requested them.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        core.attach(subscriber, owner: self)
    }

    /// Sends a value to every subscriber that has demand for it; ignored after completion.
    @inlinable
    public func send(_ input: Output) {
        core.send(input, updatingCurrentValue: false)
    }

    /// Completes every subscriber; later values and completions are ignored.
    @inlinable
    public func send(completion: Subscribers.Completion<Failure>) {
        core.send(completion: completion)
    }

    /// Keeps an upstream subscription, asking it for unlimited values once any subscriber has demand.
    public func send(subscription: any Subscription) {
        core.send(subscription: subscription)
    }
}
