extension Publisher {
    /// Omits elements from the upstream publisher until a given closure returns false, before republishing all
    /// remaining elements. Each omitted element is replaced by a request for one more upstream.
    public func drop(while predicate: @escaping (Output) -> Bool) -> Publishers.DropWhile<Self> {
        Publishers.DropWhile(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that omits elements from an upstream publisher until a given closure returns false.
    public struct DropWhile<Upstream: Publisher>: Publisher {
        /// The upstream's element type.
        public typealias Output = Upstream.Output
        /// Fails only when the upstream fails.
        public typealias Failure = Upstream.Failure

        /// The publisher this publisher receives elements from.
        public let upstream: Upstream
        /// Elements are dropped while this returns true; it is not called again once it returned false.
        public let predicate: (Output) -> Bool

        /// Creates a publisher that drops `upstream`'s leading elements satisfying `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the subscriber through a filtering subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, predicate: predicate))
        }
    }
}

extension Publishers.DropWhile {
    private final class Inner<Downstream: Subscriber>: ElementFilterProducer<
        Downstream, Upstream.Output, Upstream.Failure
    >
    where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
        private let predicate: (Output) -> Bool
        private var dropping = true

        init(downstream: Downstream, predicate: @escaping (Output) -> Bool) {
            self.predicate = predicate
            super.init(downstream: downstream)
        }

        override var description: String { "DropWhile" }

        /// Combine's answers to protocol violations for this operator.
        override var misuse: FilterMisuse { FilterMisuse(ignoresEarlyCancel: true) }

        override func process(_ input: Upstream.Output) -> FilterStep<Downstream.Input, Downstream.Failure> {
            if dropping {
                if predicate(input) { return .skip }
                dropping = false
            }
            return .send(input)
        }
    }
}
