extension Publisher {
    /// Republishes all elements that match a provided closure.
    @inlinable
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Self> {
        Publishers.Filter(upstream: self, isIncluded: isIncluded)
    }
}

extension Publishers {
    /// A publisher that republishes all elements that match a provided closure.
    ///
    /// It passes the upstream subscription straight through; an element it drops is replaced by a demand of one
    /// upstream, so the downstream's demand is never consumed by elements it never sees.
    @frozen
    public struct Filter<Upstream: Publisher>: Publisher {
        /// Filter publishes its upstream's elements.
        public typealias Output = Upstream.Output
        /// Filter fails exactly when its upstream does.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// A closure that indicates whether to republish an element.
        public let isIncluded: (Upstream.Output) -> Bool

        /// Creates a publisher that republishes the upstream's elements that satisfy `isIncluded`.
        @inlinable
        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        /// Subscribes a filtering wrapper of `subscriber` to the upstream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(FilterSubscriber(downstream: subscriber, isIncluded: isIncluded))
        }
    }
}

extension Publishers.Filter {
    /// Fuses two filters into one, as Combine does.
    @inlinable
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Upstream> {
        let first = self.isIncluded
        return Publishers.Filter(upstream: upstream) { first($0) && isIncluded($0) }
    }
}

/// Filter's subscriber: forwards the subscription and completion, and values that pass the test.
@usableFromInline
internal struct FilterSubscriber<Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline internal typealias Input = Downstream.Input
    @usableFromInline internal typealias Failure = Downstream.Failure

    @usableFromInline internal let downstream: Downstream
    @usableFromInline internal let isIncluded: (Input) -> Bool
    @usableFromInline internal let combineIdentifier = CombineIdentifier()

    @inlinable
    internal init(downstream: Downstream, isIncluded: @escaping (Input) -> Bool) {
        self.downstream = downstream
        self.isIncluded = isIncluded
    }

    @usableFromInline
    internal var description: String { "Filter" }

    @inlinable
    internal func receive(subscription: any Subscription) {
        downstream.receive(subscription: subscription)
    }

    @inlinable
    internal func receive(_ input: Input) -> Subscribers.Demand {
        isIncluded(input) ? downstream.receive(input) : .max(1)
    }

    @inlinable
    internal func receive(completion: Subscribers.Completion<Failure>) {
        downstream.receive(completion: completion)
    }
}
