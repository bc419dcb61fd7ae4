extension Publisher {
    /// Publishes `true` and finishes as soon as an element satisfies `predicate`, or `false` when upstream finishes
    /// without one. Finding one cancels upstream.
    public func contains(where predicate: @escaping (Output) -> Bool) -> Publishers.ContainsWhere<Self> {
        Publishers.ContainsWhere(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that emits a Boolean value upon receiving an element that satisfies the predicate closure.
    public struct ContainsWhere<Upstream: Publisher>: Publisher {
        /// Whether a satisfying element was seen.
        public typealias Output = Bool
        /// Fails only when the upstream fails.
        public typealias Failure = Upstream.Failure

        /// The publisher this publisher receives elements from.
        public let upstream: Upstream
        /// The test each element is put to.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that looks for an element of `upstream` satisfying `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the subscriber through a reducing subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, predicate: predicate))
        }
    }
}

extension Publishers.ContainsWhere {
    private final class Inner<Downstream: Subscriber>: ReduceProducer<Downstream, Upstream.Output, Upstream.Failure>
    where Downstream.Input == Output, Downstream.Failure == Failure {
        private let predicate: (Upstream.Output) -> Bool

        init(downstream: Downstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.predicate = predicate
            super.init(downstream: downstream, initial: false)
        }

        override var description: String { "ContainsWhere" }

        override func reduce(_ input: Upstream.Output) -> ReduceStep<Downstream.Failure> {
            guard predicate(input) else { return .continue }
            result = true
            return .finish
        }
    }
}
