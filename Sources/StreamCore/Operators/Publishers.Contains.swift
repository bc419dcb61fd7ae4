extension Publisher where Output: Equatable {
    /// Publishes `true` and finishes as soon as upstream publishes `output`, or `false` when it finishes without it.
    ///
    /// Finding the element cancels upstream.
    public func contains(_ output: Output) -> Publishers.Contains<Self> {
        Publishers.Contains(upstream: self, output: output)
    }
}

extension Publishers {
    /// A publisher that emits a Boolean value when it receives a specific element from its upstream publisher.
    public struct Contains<Upstream: Publisher>: Publisher where Upstream.Output: Equatable {
        /// Whether the element was seen.
        public typealias Output = Bool
        /// Fails only when the upstream fails.
        public typealias Failure = Upstream.Failure

        /// The publisher this publisher receives elements from.
        public let upstream: Upstream
        /// The element to look for.
        public let output: Upstream.Output

        /// Creates a publisher that looks for `output` among upstream's elements.
        public init(upstream: Upstream, output: Upstream.Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Attaches the subscriber through a reducing subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, output: output))
        }
    }
}

extension Publishers.Contains: Equatable where Upstream: Equatable {}

extension Publishers.Contains {
    private final class Inner<Downstream: Subscriber>: ReduceProducer<Downstream, Upstream.Output, Upstream.Failure>
    where Downstream.Input == Output, Downstream.Failure == Failure {
        private let output: Upstream.Output

        init(downstream: Downstream, output: Upstream.Output) {
            self.output = output
            super.init(downstream: downstream, initial: false)
        }

        override var description: String { "Contains" }

        override func reduce(_ input: Upstream.Output) -> ReduceStep<Downstream.Failure> {
            guard input == output else { return .continue }
            result = true
            return .finish
        }
    }
}
