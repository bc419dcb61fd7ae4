extension Publisher {
    /// Collects all received elements, and emits a single array of the collection when the upstream publisher
    /// finishes.
    ///
    /// Asks upstream for unlimited values, so memory grows with the stream; a failure discards what was collected.
    public func collect() -> Publishers.Collect<Self> {
        Publishers.Collect(upstream: self)
    }
}

extension Publishers {
    /// A publisher that buffers items into one array and publishes it when upstream finishes.
    public struct Collect<Upstream: Publisher>: Publisher {
        /// The array of every element upstream published.
        public typealias Output = [Upstream.Output]
        /// Fails only when the upstream fails.
        public typealias Failure = Upstream.Failure

        /// The publisher this publisher receives elements from.
        public let upstream: Upstream

        /// Creates a publisher that collects every element of `upstream`.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches the subscriber through a reducing subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, initial: []))
        }
    }
}

extension Publishers.Collect: Equatable where Upstream: Equatable {}

extension Publishers.Collect {
    private final class Inner<Downstream: Subscriber>: ReduceProducer<Downstream, Upstream.Output, Upstream.Failure>
    where Downstream.Input == Output, Downstream.Failure == Failure {
        override var description: String { "Collect" }

        override func reduce(_ input: Upstream.Output) -> ReduceStep<Downstream.Failure> {
            result?.append(input)
            return .continue
        }
    }
}
