extension Publisher {
    /// Transforms all elements from the upstream publisher with a provided error-throwing closure.
    ///
    /// If the closure throws, the publisher cancels the upstream and fails with the thrown error.
    @inlinable
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Self, T> {
        Publishers.TryMap(upstream: self, transform: transform)
    }
}

extension Publishers {
    /// A publisher that transforms all elements from the upstream publisher with a provided error-throwing closure.
    public struct TryMap<Upstream: Publisher, Output>: Publisher {
        /// Any error: the upstream's, or one thrown by the closure.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The error-throwing closure that transforms elements from the upstream publisher.
        public let transform: (Upstream.Output) throws -> Output

        /// Creates a publisher that transforms the upstream's elements with `transform`.
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Subscribes a transforming producer to the upstream; it fails downstream when the closure throws.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            upstream.subscribe(TryMapProducer(downstream: subscriber, transform: transform))
        }
    }
}

extension Publishers.Map {
    /// Fuses a map and a following tryMap into one tryMap, as Combine does.
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap(upstream: upstream) { try transform(first($0)) }
    }
}

extension Publishers.TryMap {
    /// Fuses a following map into this tryMap.
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap(upstream: upstream) { transform(try first($0)) }
    }

    /// Fuses a following tryMap into this one.
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap(upstream: upstream) { try transform(try first($0)) }
    }
}

private final class TryMapProducer<Downstream: Subscriber, Input, UpstreamFailure: Error>:
    ElementFilterProducer<Downstream, Input, UpstreamFailure>
where Downstream.Failure == any Error {
    private let transform: (Input) throws -> Downstream.Input

    init(downstream: Downstream, transform: @escaping (Input) throws -> Downstream.Input) {
        self.transform = transform
        super.init(downstream: downstream)
    }

    override var description: String { "TryMap" }

    /// Combine's answers to protocol violations for this operator.
    override var misuse: FilterMisuse {
        FilterMisuse(
            early: .valuesForwarded, ignoresEarlyCancel: true, forwardsLateValues: true,
            forwardsLateFailures: true)
    }

    override func process(_ input: Input) -> FilterStep<Downstream.Input, Downstream.Failure> {
        do {
            return .send(try transform(input))
        } catch {
            return .fail(error)
        }
    }
}
