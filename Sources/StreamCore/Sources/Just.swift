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

/// Just's subscription: whoever first flips `done` (a request or a cancel) owns the downstream from then on,
/// so the value is delivered at most once without a lock.
@usableFromInline
internal final class JustSubscription<Output, Downstream: Subscriber>: Subscription, CustomStringConvertible,
    @unchecked Sendable where Downstream.Input == Output
{
    @usableFromInline internal let done = Atomic<Bool>(false)
    @usableFromInline internal var output: Output?
    @usableFromInline internal var downstream: Downstream?

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
        guard !done.exchange(true, ordering: .acquiringAndReleasing), let downstream, let output else { return }
        self.downstream = nil
        self.output = nil
        _ = downstream.receive(output)
        downstream.receive(completion: .finished)
    }

    @inlinable
    internal func cancel() {
        guard !done.exchange(true, ordering: .acquiringAndReleasing) else { return }
        downstream = nil
        output = nil
    }
}
