extension Publisher {
    /// Transforms all elements from the upstream publisher with a provided closure.
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Self, T> {
        Publishers.Map(upstream: self, transform: transform)
    }
}

extension Publishers {
    /// A publisher that transforms all elements from the upstream publisher with a provided closure.
    ///
    /// Like Combine it adds no subscription of its own: its subscriber wraps the downstream and hands the upstream
    /// subscription straight through, so demand and cancellation go directly upstream and a value costs one call.
    @frozen
    public struct Map<Upstream: Publisher, Output>: Publisher {
        /// Map fails exactly when its upstream does.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The closure that transforms elements from the upstream publisher.
        public let transform: (Upstream.Output) -> Output

        /// Creates a publisher that transforms the upstream's elements with `transform`.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Subscribes a transforming wrapper of `subscriber` to the upstream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(MapSubscriber(downstream: subscriber, transform: transform))
        }
    }
}

extension Publishers.Map {
    /// Fuses two maps into one, as Combine does, so a chain of maps costs one subscriber.
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Upstream, T> {
        let first = self.transform
        return Publishers.Map<Upstream, T>(upstream: upstream) { transform(first($0)) }
    }
}

/// Map's subscriber: forwards the subscription and completion, transforms values.
@usableFromInline
internal struct MapSubscriber<Input, Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline internal typealias Failure = Downstream.Failure

    @usableFromInline internal let downstream: Downstream
    @usableFromInline internal let transform: (Input) -> Downstream.Input
    @usableFromInline internal let combineIdentifier = CombineIdentifier()

    @inlinable
    internal init(downstream: Downstream, transform: @escaping (Input) -> Downstream.Input) {
        self.downstream = downstream
        self.transform = transform
    }

    @usableFromInline
    internal var description: String { "Map" }

    @inlinable
    internal func receive(subscription: any Subscription) {
        downstream.receive(subscription: subscription)
    }

    @inlinable
    internal func receive(_ input: Input) -> Subscribers.Demand {
        downstream.receive(transform(input))
    }

    @inlinable
    internal func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        downstream.receive(completion: completion)
    }
}
