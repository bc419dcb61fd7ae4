/// Declares that a type can transmit a sequence of values over time.
///
/// Mirrors Combine's `Publisher`: a publisher delivers elements to one or more `Subscriber`s, which must have
/// matching `Input` and `Failure` types. Implementations override `receive(subscriber:)`; callers use `subscribe(_:)`.
public protocol Publisher<Output, Failure> {
    /// The kind of values published.
    associatedtype Output
    /// The kind of errors this publisher might publish; `Never` if it cannot fail.
    associatedtype Failure: Error

    /// Attaches `subscriber` to this publisher. Called by `subscribe(_:)`; implementations must call
    /// `subscriber.receive(subscription:)` exactly once before sending anything else.
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure
}

extension Publisher {
    /// Attaches the specified subscriber to this publisher.
    ///
    /// `@inlinable` so that every caller's chain is specialized: with the introspection check in its body the
    /// compiler no longer inlines it across modules on its own, and every pipeline then ran as unspecialized generic
    /// code (3–10 times slower in the stream benchmarks).
    @inlinable @inline(__always)
    public func subscribe<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        // One relaxed load while no `_Introspection` is enabled; the observed path is out of line.
        if _slowPath(IntrospectionRegistry.shared.isActive) {
            subscribeIntrospected(subscriber)
        } else {
            receive(subscriber: subscriber)
        }
    }

    /// Attaches the specified subject to this publisher, returning a cancellable that detaches it.
    public func subscribe<S: Subject>(_ subject: S) -> AnyCancellable where S.Output == Output, S.Failure == Failure {
        let subscriber = SubjectSubscriber(subject)
        receive(subscriber: subscriber)
        return AnyCancellable(subscriber)
    }
}

/// A namespace for the types that publisher operators return, as in Combine.
public enum Publishers {}
