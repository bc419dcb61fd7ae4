extension Publisher {
    /// Transforms elements by providing the current element and the last value the closure returned,
    /// publishing each intermediate result.
    @inlinable
    public func scan<T>(
        _ initialResult: T,
        _ nextPartialResult: @escaping (T, Output) -> T
    ) -> Publishers.Scan<Self, T> {
        Publishers.Scan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }
}

extension Publishers {
    /// A publisher that accumulates its upstream's elements and publishes every intermediate result.
    ///
    /// The upstream subscription is passed through; each subscriber starts from `initialResult`.
    @frozen
    public struct Scan<Upstream: Publisher, Output>: Publisher {
        /// Scan fails exactly when its upstream does.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The value the accumulation starts from.
        public let initialResult: Output
        /// The closure combining the last result with the next element.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// Creates a publisher that accumulates from `initialResult` with `nextPartialResult`.
        @inlinable
        public init(
            upstream: Upstream,
            initialResult: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) -> Output
        ) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        /// Subscribes an accumulating wrapper of `subscriber` to the upstream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(ScanSubscriber(downstream: subscriber, initial: initialResult, next: nextPartialResult))
        }
    }
}

/// Scan's subscriber. The accumulator is touched only in `receive(_:)`, which upstream serializes, so it needs no lock.
@usableFromInline
internal final class ScanSubscriber<Input, Downstream: Subscriber>: Subscriber, CustomStringConvertible,
    @unchecked Sendable
{
    @usableFromInline internal typealias Failure = Downstream.Failure

    @usableFromInline internal let downstream: Downstream
    @usableFromInline @exclusivity(unchecked) internal var result: Downstream.Input
    @usableFromInline internal let next: (Downstream.Input, Input) -> Downstream.Input

    @inlinable
    internal init(
        downstream: Downstream, initial: Downstream.Input, next: @escaping (Downstream.Input, Input) -> Downstream.Input
    ) {
        self.downstream = downstream
        self.result = initial
        self.next = next
    }

    @usableFromInline
    internal var description: String { "Scan" }

    @inlinable
    internal func receive(subscription: any Subscription) {
        downstream.receive(subscription: subscription)
    }

    @inlinable
    internal func receive(_ input: Input) -> Subscribers.Demand {
        result = next(result, input)
        return downstream.receive(result)
    }

    @inlinable
    internal func receive(completion: Subscribers.Completion<Failure>) {
        downstream.receive(completion: completion)
    }
}
