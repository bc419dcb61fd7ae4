extension Publisher {
    /// Applies an error-throwing closure that collects each element of a stream and publishes a final result upon
    /// completion.
    ///
    /// If the closure throws, the publisher cancels upstream and fails with the thrown error.
    public func tryReduce<T>(
        _ initialResult: T,
        _ nextPartialResult: @escaping (T, Output) throws -> T
    ) -> Publishers.TryReduce<Self, T> {
        Publishers.TryReduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }
}

extension Publishers {
    /// A publisher that applies an error-throwing closure to all received elements and produces an accumulated value
    /// when upstream finishes.
    public struct TryReduce<Upstream: Publisher, Output>: Publisher {
        /// Fails with the upstream's failure or the closure's thrown error.
        public typealias Failure = any Error

        /// The publisher this publisher receives elements from.
        public let upstream: Upstream
        /// The value the accumulation starts from.
        public let initial: Output
        /// Combines the accumulated value with the next element; may throw to fail the stream.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        /// Creates a publisher that reduces upstream's elements with a throwing `nextPartialResult`.
        public init(
            upstream: Upstream,
            initial: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
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

extension Publishers.TryReduce {
    private final class Inner<Downstream: Subscriber>: ReduceProducer<Downstream, Upstream.Output, Upstream.Failure>
    where Downstream.Input == Output, Downstream.Failure == any Error {
        private let nextPartialResult: (Output, Upstream.Output) throws -> Output

        init(
            downstream: Downstream, initial: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
        ) {
            self.nextPartialResult = nextPartialResult
            super.init(downstream: downstream, initial: initial)
        }

        override var description: String { "TryReduce" }

        override func reduce(_ input: Upstream.Output) -> ReduceStep<Downstream.Failure> {
            guard let current = result else { return .continue }
            do {
                result = try nextPartialResult(current, input)
                return .continue
            } catch {
                return .fail(error)
            }
        }
    }
}
