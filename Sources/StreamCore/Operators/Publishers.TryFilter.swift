extension Publisher {
    /// Republishes all elements that match a provided error-throwing closure.
    ///
    /// If the closure throws, the publisher cancels the upstream and fails with the thrown error.
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Self> {
        Publishers.TryFilter(upstream: self, isIncluded: isIncluded)
    }
}

extension Publishers {
    /// A publisher that republishes all elements that match a provided error-throwing closure.
    public struct TryFilter<Upstream: Publisher>: Publisher {
        /// TryFilter publishes its upstream's elements.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's, or one thrown by the closure.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// An error-throwing closure that indicates whether to republish an element.
        public let isIncluded: (Upstream.Output) throws -> Bool

        /// Creates a publisher that republishes the upstream's elements that satisfy `isIncluded`.
        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        /// Subscribes a filtering producer to the upstream; it fails downstream when the closure throws.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            upstream.subscribe(TryFilterProducer(downstream: subscriber, isIncluded: isIncluded))
        }
    }
}

extension Publishers.Filter {
    /// Fuses a filter and a following tryFilter into one tryFilter, as Combine does.
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
    }
}

extension Publishers.TryFilter {
    /// Fuses a following filter into this tryFilter.
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
    }

    /// Fuses a following tryFilter into this one.
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
    }
}

private final class TryFilterProducer<Downstream: Subscriber, UpstreamFailure: Error>:
    ElementFilterProducer<Downstream, Downstream.Input, UpstreamFailure>
where Downstream.Failure == any Error {
    private let isIncluded: (Downstream.Input) throws -> Bool

    init(downstream: Downstream, isIncluded: @escaping (Downstream.Input) throws -> Bool) {
        self.isIncluded = isIncluded
        super.init(downstream: downstream)
    }

    override var description: String { "TryFilter" }

    /// Combine's answers to protocol violations for this operator.
    override var misuse: FilterMisuse { FilterMisuse(early: .trap) }

    override func process(_ input: Downstream.Input) -> FilterStep<Downstream.Input, Downstream.Failure> {
        do {
            return try isIncluded(input) ? .send(input) : .skip
        } catch {
            return .fail(error)
        }
    }
}
