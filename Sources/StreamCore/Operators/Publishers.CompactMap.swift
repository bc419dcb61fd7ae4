extension Publisher {
    /// Calls a closure with each received element and publishes any returned optional that has a value.
    @inlinable
    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Self, T> {
        Publishers.CompactMap(upstream: self, transform: transform)
    }
}

extension Publishers {
    /// A publisher that republishes all non-`nil` results of calling a closure with each received element.
    ///
    /// Like filter it passes the upstream subscription through and asks upstream for one more value for each `nil`.
    @frozen
    public struct CompactMap<Upstream: Publisher, Output>: Publisher {
        /// CompactMap fails exactly when its upstream does.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// A closure that receives values from the upstream publisher and returns optional values.
        public let transform: (Upstream.Output) -> Output?

        /// Creates a publisher that republishes the non-`nil` results of `transform`.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output?) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Subscribes a transforming wrapper of `subscriber` to the upstream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(CompactMapSubscriber(downstream: subscriber, transform: transform))
        }
    }
}

extension Publishers.CompactMap {
    /// Fuses a following compactMap into this one, as Combine does.
    @inlinable
    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.CompactMap(upstream: upstream) { first($0).flatMap(transform) }
    }

    /// Fuses a following map into this compactMap, as Combine does.
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.CompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.CompactMap(upstream: upstream) { first($0).map(transform) }
    }
}

/// CompactMap's subscriber: forwards the subscription and completion, and the non-`nil` results.
@usableFromInline
internal struct CompactMapSubscriber<Input, Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline internal typealias Failure = Downstream.Failure

    @usableFromInline internal let downstream: Downstream
    @usableFromInline internal let transform: (Input) -> Downstream.Input?
    @usableFromInline internal let combineIdentifier = CombineIdentifier()

    @inlinable
    internal init(downstream: Downstream, transform: @escaping (Input) -> Downstream.Input?) {
        self.downstream = downstream
        self.transform = transform
    }

    @usableFromInline
    internal var description: String { "CompactMap" }

    @inlinable
    internal func receive(subscription: any Subscription) {
        downstream.receive(subscription: subscription)
    }

    @inlinable
    internal func receive(_ input: Input) -> Subscribers.Demand {
        if let output = transform(input) {
            return downstream.receive(output)
        }
        return .max(1)
    }

    @inlinable
    internal func receive(completion: Subscribers.Completion<Failure>) {
        downstream.receive(completion: completion)
    }
}
