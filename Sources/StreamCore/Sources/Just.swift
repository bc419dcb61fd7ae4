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
/// once without a lock.
@usableFromInline
internal final class JustSubscription<Output, Downstream: Subscriber>: Subscription, CustomStringConvertible,
    @unchecked Sendable where Downstream.Input == Output
{
    @usableFromInline internal let done = Atomic<Bool>(false)
    // Kept until deinit: the subscriber drops this subscription when it completes or cancels, which ends the cycle.
    // Plain lets keep the unspecialized path (calls arrive through `any Subscription`) free of metadata look-ups.
    @usableFromInline internal let output: Output
    @usableFromInline internal let downstream: Downstream

    @inlinable
    internal init(_ output: Output, _ downstream: Downstream) {
        self.output = output
        self.downstream = downstream
    }

    @usableFromInline
    internal var description: String { "Just" }

    @inlinable
    internal func request(_ demand: Subscribers.Demand) {
        precondition(demand != .none, "demand must not be zero")
        guard !done.exchange(true, ordering: .acquiringAndReleasing) else { return }
        _ = downstream.receive(output)
        downstream.receive(completion: .finished)
    }

    @inlinable
    internal func cancel() {
        done.store(true, ordering: .releasing)
    }
}
