extension Publisher {
    /// Transforms every element into a new publisher and merges their outputs, with at most `maxPublishers` inner
    /// publishers subscribed at once (the operator requests that many elements from upstream, and one more each time an
    /// inner publisher finishes).
    @inlinable
    public func flatMap<T, P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where T == P.Output, P.Failure == Failure {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}

extension Publishers {
    /// A publisher that transforms all elements from an upstream publisher into new publishers and merges their output.
    public struct FlatMap<NewPublisher: Publisher, Upstream: Publisher>: Publisher
    where NewPublisher.Failure == Upstream.Failure {
        /// The inner publishers' output.
        public typealias Output = NewPublisher.Output
        /// Upstream's failure, which the inner publishers share.
        public typealias Failure = Upstream.Failure

        /// The publisher this operator receives elements from.
        public let upstream: Upstream
        /// The most inner publishers subscribed at once.
        public let maxPublishers: Subscribers.Demand
        /// Makes an inner publisher from each element.
        public let transform: (Upstream.Output) -> NewPublisher

        /// Creates the operator; prefer `flatMap(maxPublishers:_:)`.
        @inlinable
        public init(
            upstream: Upstream, maxPublishers: Subscribers.Demand,
            transform: @escaping (Upstream.Output) -> NewPublisher
        ) {
            self.upstream = upstream
            self.maxPublishers = maxPublishers
            self.transform = transform
        }

        /// Subscribes to upstream; each element's publisher is subscribed as it arrives.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let storage = FanInStorage(
                downstream: subscriber, maxPublishers: maxPublishers, name: "FlatMap", isFlatMap: true)
            subscriber.receive(subscription: storage)
            upstream.subscribe(FlatMapOuter(storage: storage, transform: transform))
        }
    }
}

/// flatMap's subscriber to the upstream: turns each element into an inner publisher and subscribes the storage to it.
/// It shares the subscription's identifier (Combine's flatMap is one object there), which the children's mirrors name.
@usableFromInline
internal struct FlatMapOuter<Input, Downstream: Subscriber, NewPublisher: Publisher>: Subscriber,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where NewPublisher.Output == Downstream.Input, NewPublisher.Failure == Downstream.Failure {
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline internal let storage: FanInStorage<Downstream>
    @usableFromInline internal let transform: (Input) -> NewPublisher

    @inlinable
    internal init(storage: FanInStorage<Downstream>, transform: @escaping (Input) -> NewPublisher) {
        self.storage = storage
        self.transform = transform
    }

    @inlinable
    internal var combineIdentifier: CombineIdentifier { storage.combineIdentifier }

    @usableFromInline
    internal var description: String { "FlatMap" }

    /// No children, as in Combine.
    @usableFromInline
    internal var customMirror: Mirror { Mirror(self, children: []) }

    /// "FlatMap".
    @usableFromInline
    internal var playgroundDescription: Any { description }

    @inlinable
    internal func receive(subscription: any Subscription) {
        storage.outerSubscribed(subscription)
    }

    @inlinable
    internal func receive(_ input: Input) -> Subscribers.Demand {
        storage.subscribeChild(transform(input))
        return .none
    }

    @inlinable
    internal func receive(completion: Subscribers.Completion<Failure>) {
        storage.outerCompleted(completion)
    }
}
extension Publisher where Failure == Never {
    /// Flat-maps a publisher that can't fail into publishers that can: upstream takes the inner failure type.
    @inlinable
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Publishers.SetFailureType<Self, P.Failure>> {
        Publishers.FlatMap(
            upstream: Publishers.SetFailureType(upstream: self), maxPublishers: maxPublishers, transform: transform)
    }

    /// Flat-maps when neither side can fail.
    @inlinable
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}

extension Publisher {
    /// Flat-maps into publishers that can't fail: the inner publishers take upstream's failure type.
    @inlinable
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<Publishers.SetFailureType<P, Failure>, Self> where P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers) {
            Publishers.SetFailureType(upstream: transform($0))
        }
    }
}
