extension Publisher {
    /// Applies a closure that collects each element of a stream and publishes a final result upon completion.
    ///
    /// Asks upstream for unlimited values and publishes the accumulated result once upstream finishes and the
    /// downstream has demand.
    public func reduce<T>(
        _ initialResult: T,
        _ nextPartialResult: @escaping (T, Output) -> T
    ) -> Publishers.Reduce<Self, T> {
        Publishers.Reduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }
}

extension Publishers {
    /// A publisher that applies a closure to all received elements and produces an accumulated value when upstream
    /// finishes.
    public struct Reduce<Upstream: Publisher, Output>: Publisher {
        /// Fails only when the upstream fails.
        public typealias Failure = Upstream.Failure

        /// The publisher this publisher receives elements from.
        public let upstream: Upstream
        /// The value the accumulation starts from.
        public let initial: Output
        /// Combines the accumulated value with the next element.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// Creates a publisher that reduces upstream's elements with `nextPartialResult`, starting from `initial`.
        public init(
            upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output
        ) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        /// Attaches the subscriber through a reducing subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, initial: initial, nextPartialResult: nextPartialResult))
        }
    }
}

extension Publishers.Reduce {
    private final class Inner<Downstream: Subscriber>: ReduceProducer<Downstream, Upstream.Output, Upstream.Failure>
    where Downstream.Input == Output, Downstream.Failure == Failure {
        private let nextPartialResult: (Output, Upstream.Output) -> Output

        init(downstream: Downstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output)
        {
            self.nextPartialResult = nextPartialResult
            super.init(downstream: downstream, initial: initial)
        }

        override var description: String { "Reduce" }

        override func reduce(_ input: Upstream.Output) -> ReduceStep<Downstream.Failure> {
            if let current = result {
                result = nextPartialResult(current, input)
            }
            return .continue
        }
    }
}
