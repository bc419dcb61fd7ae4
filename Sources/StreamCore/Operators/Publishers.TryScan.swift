extension Publisher {
    /// Transforms elements by providing the current element and the last value an error-throwing closure returned.
    ///
    /// If the closure throws, the publisher cancels the upstream and fails with the thrown error.
    public func tryScan<T>(
        _ initialResult: T,
        _ nextPartialResult: @escaping (T, Output) throws -> T
    ) -> Publishers.TryScan<Self, T> {
        Publishers.TryScan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }
}

extension Publishers {
    /// A publisher that accumulates its upstream's elements with an error-throwing closure.
    public struct TryScan<Upstream: Publisher, Output>: Publisher {
        /// Any error: the upstream's, or one thrown by the closure.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The value the accumulation starts from.
        public let initialResult: Output
        /// The error-throwing closure combining the last result with the next element.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        /// Creates a publisher that accumulates from `initialResult` with `nextPartialResult`.
        public init(
            upstream: Upstream,
            initialResult: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
        ) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        /// Subscribes an accumulating producer to the upstream; it fails downstream when the closure throws.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            upstream.subscribe(TryScanProducer(downstream: subscriber, initial: initialResult, next: nextPartialResult))
        }
    }
}

private final class TryScanProducer<Downstream: Subscriber, Input, UpstreamFailure: Error>:
    ElementFilterProducer<Downstream, Input, UpstreamFailure>
where Downstream.Failure == any Error {
    // Touched only from `process`, which upstream serializes.
    private var result: Downstream.Input
    private let next: (Downstream.Input, Input) throws -> Downstream.Input

    init(
        downstream: Downstream, initial: Downstream.Input,
        next: @escaping (Downstream.Input, Input) throws -> Downstream.Input
    ) {
        self.result = initial
        self.next = next
        super.init(downstream: downstream)
    }

    override var description: String { "TryScan" }

    /// The downstream, the upstream subscription and the result so far, as in Combine.
    override func customMirrorChildren() -> [Mirror.Child]? {
        let state = reflected
        return [("downstream", state.downstream), ("status", state.upstream as Any), ("result", result)]
    }

    /// Combine's answers to protocol violations for this operator.
    override var misuse: FilterMisuse {
        FilterMisuse(early: .valuesForwarded, ignoresEarlyCancel: true, forwardsLateValues: true)
    }

    override func process(_ input: Input) -> FilterStep<Downstream.Input, Downstream.Failure> {
        do {
            result = try next(result, input)
            return .send(result)
        } catch {
            return .fail(error)
        }
    }
}
