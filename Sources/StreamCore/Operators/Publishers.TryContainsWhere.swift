extension Publisher {
    /// Publishes `true` and finishes as soon as an element satisfies a throwing `predicate`, or `false` when upstream
    /// finishes without one. A thrown error cancels upstream and fails the stream.
    public func tryContains(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryContainsWhere<Self> {
        Publishers.TryContainsWhere(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that emits a Boolean value upon receiving an element that satisfies a throwing predicate.
    public struct TryContainsWhere<Upstream: Publisher>: Publisher {
        /// Whether a satisfying element was seen.
        public typealias Output = Bool
        /// Fails with the upstream's failure or the predicate's thrown error.
        public typealias Failure = any Error

        /// The publisher this publisher receives elements from.
        public let upstream: Upstream
        /// The test each element is put to; may throw to fail the stream.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that looks for an element of `upstream` satisfying a throwing `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the subscriber through a reducing subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, predicate: predicate))
        }
    }
}

extension Publishers.TryContainsWhere {
    private final class Inner<Downstream: Subscriber>: ReduceProducer<Downstream, Upstream.Output, Upstream.Failure>
    where Downstream.Input == Output, Downstream.Failure == any Error {
        private let predicate: (Upstream.Output) throws -> Bool

        init(downstream: Downstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.predicate = predicate
            super.init(downstream: downstream, initial: false)
        }

        override var description: String { "TryContainsWhere" }

        override func reduce(_ input: Upstream.Output) -> ReduceStep<Downstream.Failure> {
            do {
                guard try predicate(input) else { return .continue }
                result = true
                return .finish
            } catch {
                return .fail(error)
            }
        }
    }
}
