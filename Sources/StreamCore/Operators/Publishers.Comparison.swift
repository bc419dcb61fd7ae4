extension Publisher where Output: Comparable {
    /// Publishes the minimum value received from the upstream publisher, after it finishes.
    public func min() -> Publishers.Comparison<Self> {
        min(by: <)
    }

    /// Publishes the maximum value received from the upstream publisher, after it finishes.
    public func max() -> Publishers.Comparison<Self> {
        max(by: <)
    }
}

extension Publisher {
    /// Publishes the minimum value received from the upstream publisher, ordered by `areInIncreasingOrder`.
    ///
    /// Among equal minima the first one received wins.
    public func min(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self) { areInIncreasingOrder($1, $0) }
    }

    /// Publishes the maximum value received from the upstream publisher, ordered by `areInIncreasingOrder`.
    ///
    /// Among equal maxima the first one received wins.
    public func max(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }
}

extension Publishers {
    /// A publisher that publishes the value that orders last among upstream's elements (the maximum under
    /// `areInIncreasingOrder`) when upstream finishes; `min(by:)` flips the predicate.
    public struct Comparison<Upstream: Publisher>: Publisher {
        /// The upstream's element type.
        public typealias Output = Upstream.Output
        /// Fails only when the upstream fails.
        public typealias Failure = Upstream.Failure

        /// The publisher this publisher receives elements from.
        public let upstream: Upstream
        /// Returns true when its two arguments are in increasing order.
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) -> Bool

        /// Creates a publisher that keeps the greatest element of `upstream` under `areInIncreasingOrder`.
        public init(upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        /// Attaches the subscriber through a reducing subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, areInIncreasingOrder: areInIncreasingOrder))
        }
    }
}

extension Publishers.Comparison {
    private final class Inner<Downstream: Subscriber>: ReduceProducer<Downstream, Upstream.Output, Upstream.Failure>
    where Downstream.Input == Output, Downstream.Failure == Failure {
        private let areInIncreasingOrder: (Upstream.Output, Upstream.Output) -> Bool

        init(downstream: Downstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) -> Bool) {
            self.areInIncreasingOrder = areInIncreasingOrder
            super.init(downstream: downstream, initial: nil)
        }

        override var description: String { "Comparison" }

        override func reduce(_ input: Upstream.Output) -> ReduceStep<Downstream.Failure> {
            if let kept = result {
                if areInIncreasingOrder(kept, input) {
                    result = input
                }
            } else {
                result = input
            }
            return .continue
        }
    }
}
