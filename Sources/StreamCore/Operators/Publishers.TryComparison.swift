extension Publisher {
    /// Publishes the minimum value received from the upstream publisher, ordered by a throwing closure.
    ///
    /// If the closure throws, the publisher cancels upstream and fails with the thrown error.
    public func tryMin(by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool)
        -> Publishers.TryComparison<Self>
    {
        Publishers.TryComparison(upstream: self) { try areInIncreasingOrder($1, $0) }
    }

    /// Publishes the maximum value received from the upstream publisher, ordered by a throwing closure.
    ///
    /// If the closure throws, the publisher cancels upstream and fails with the thrown error.
    public func tryMax(by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool)
        -> Publishers.TryComparison<Self>
    {
        Publishers.TryComparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }
}

extension Publishers {
    /// A publisher that publishes the greatest of upstream's elements under a throwing `areInIncreasingOrder`
    /// when upstream finishes; `tryMin(by:)` flips the predicate.
    public struct TryComparison<Upstream: Publisher>: Publisher {
        /// The upstream's element type.
        public typealias Output = Upstream.Output
        /// Fails with the upstream's failure or the closure's thrown error.
        public typealias Failure = any Error

        /// The publisher this publisher receives elements from.
        public let upstream: Upstream
        /// Returns true when its two arguments are in increasing order; may throw to fail the stream.
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) throws -> Bool

        /// Creates a publisher that keeps the greatest element of `upstream` under a throwing ordering.
        public init(
            upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) throws -> Bool
        ) {
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        /// Attaches the subscriber through a reducing subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, areInIncreasingOrder: areInIncreasingOrder))
        }
    }
}

extension Publishers.TryComparison {
    private final class Inner<Downstream: Subscriber>: ReduceProducer<Downstream, Upstream.Output, Upstream.Failure>
    where Downstream.Input == Output, Downstream.Failure == any Error {
        private let areInIncreasingOrder: (Upstream.Output, Upstream.Output) throws -> Bool

        init(downstream: Downstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) throws -> Bool)
        {
            self.areInIncreasingOrder = areInIncreasingOrder
            super.init(downstream: downstream, initial: nil)
        }

        override var description: String { "TryComparison" }

        override func reduce(_ input: Upstream.Output) -> ReduceStep<Downstream.Failure> {
            guard let kept = result else {
                result = input
                return .continue
            }
            do {
                if try areInIncreasingOrder(kept, input) {
                    result = input
                }
                return .continue
            } catch {
                return .fail(error)
            }
        }
    }
}
