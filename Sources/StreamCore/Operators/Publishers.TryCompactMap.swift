extension Publisher {
    /// Calls an error-throwing closure with each received element and publishes any returned optional that has a value.
    ///
    /// If the closure throws, the publisher cancels the upstream and fails with the thrown error.
    public func tryCompactMap<T>(_ transform: @escaping (Output) throws -> T?) -> Publishers.TryCompactMap<Self, T> {
        Publishers.TryCompactMap(upstream: self, transform: transform)
    }
}

extension Publishers {
    /// A publisher that republishes all non-`nil` results of calling an error-throwing closure with each element.
    public struct TryCompactMap<Upstream: Publisher, Output>: Publisher {
        /// Any error: the upstream's, or one thrown by the closure.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// An error-throwing closure that receives values from the upstream publisher and returns optional values.
        public let transform: (Upstream.Output) throws -> Output?

        /// Creates a publisher that republishes the non-`nil` results of `transform`.
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output?) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Subscribes a transforming producer to the upstream; it fails downstream when the closure throws.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            upstream.subscribe(TryCompactMapProducer(downstream: subscriber, transform: transform))
        }
    }
}

extension Publishers.TryCompactMap {
    /// Fuses a following compactMap into this tryCompactMap, as Combine does.
    public func compactMap<T>(_ transform: @escaping (Output) throws -> T?) -> Publishers.TryCompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryCompactMap(upstream: upstream) { try first($0).flatMap(transform) }
    }
}

private final class TryCompactMapProducer<Downstream: Subscriber, Input, UpstreamFailure: Error>:
    ElementFilterProducer<Downstream, Input, UpstreamFailure>
where Downstream.Failure == any Error {
    private let transform: (Input) throws -> Downstream.Input?

    init(downstream: Downstream, transform: @escaping (Input) throws -> Downstream.Input?) {
        self.transform = transform
        super.init(downstream: downstream)
    }

    override var description: String { "TryCompactMap" }

    /// Combine's answers to protocol violations for this operator.
    override var misuse: FilterMisuse { FilterMisuse(early: .trap) }

    override func process(_ input: Input) -> FilterStep<Downstream.Input, Downstream.Failure> {
        do {
            if let output = try transform(input) {
                return .send(output)
            }
            return .skip
        } catch {
            return .fail(error)
        }
    }
}
