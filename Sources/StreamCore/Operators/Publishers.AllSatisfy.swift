extension Publisher {
    /// Publishes a single Boolean value that indicates whether all received elements pass a given predicate.
    ///
    /// The first element that fails the predicate publishes `false` and cancels upstream; an empty stream gives `true`.
    public func allSatisfy(_ predicate: @escaping (Output) -> Bool) -> Publishers.AllSatisfy<Self> {
        Publishers.AllSatisfy(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that publishes a single Boolean value that indicates whether all received elements pass a given
    /// predicate.
    public struct AllSatisfy<Upstream: Publisher>: Publisher {
        /// Whether every element passed.
        public typealias Output = Bool
        /// Fails only when the upstream fails.
        public typealias Failure = Upstream.Failure

        /// The publisher this publisher receives elements from.
        public let upstream: Upstream
        /// The test each element is put to.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that checks every element of `upstream` against `predicate`.
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

extension Publishers.AllSatisfy {
    private final class Inner<Downstream: Subscriber>: ReduceProducer<Downstream, Upstream.Output, Upstream.Failure>
    where Downstream.Input == Output, Downstream.Failure == Failure {
        private let predicate: (Upstream.Output) -> Bool

        init(downstream: Downstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.predicate = predicate
            super.init(downstream: downstream, initial: true)
        }

        override var description: String { "AllSatisfy" }

        override func reduce(_ input: Upstream.Output) -> ReduceStep<Downstream.Failure> {
            if predicate(input) { return .continue }
            result = false
            return .finish
        }
    }
}
