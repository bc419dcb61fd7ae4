extension Publisher {
    /// Publishes the first element of a stream to satisfy a predicate closure, then finishes.
    ///
    /// The matching element cancels upstream; if none matches, the publisher just finishes.
    public func first(where predicate: @escaping (Output) -> Bool) -> Publishers.FirstWhere<Self> {
        Publishers.FirstWhere(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that only publishes the first element of a stream to satisfy a predicate closure.
    public struct FirstWhere<Upstream: Publisher>: Publisher {
        /// The upstream's element type.
        public typealias Output = Upstream.Output
        /// Fails only when the upstream fails.
        public typealias Failure = Upstream.Failure

        /// The publisher this publisher receives elements from.
        public let upstream: Upstream
        /// The test each element is put to.
        public let predicate: (Output) -> Bool

        /// Creates a publisher that publishes the first element of `upstream` satisfying `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the subscriber through a reducing subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, predicate: predicate))
        }
    }
}

extension Publishers.FirstWhere {
    private final class Inner<Downstream: Subscriber>: ReduceProducer<Downstream, Upstream.Output, Upstream.Failure>
    where Downstream.Input == Output, Downstream.Failure == Failure {
        private let predicate: (Output) -> Bool

        init(downstream: Downstream, predicate: @escaping (Output) -> Bool) {
            self.predicate = predicate
            super.init(downstream: downstream, initial: nil)
        }

        /// Combine describes first(where:)'s subscription as "TryFirst", and code that prints it expects that.
        override var description: String { "TryFirst" }

        override func reduce(_ input: Upstream.Output) -> ReduceStep<Downstream.Failure> {
            guard predicate(input) else { return .continue }
            result = input
            return .finish
        }
    }
}
