extension Publisher {
    /// Republishes elements while a predicate closure indicates publishing should continue.
    ///
    /// The first element failing the predicate is not published: it cancels upstream and finishes the stream.
    public func prefix(while predicate: @escaping (Output) -> Bool) -> Publishers.PrefixWhile<Self> {
        Publishers.PrefixWhile(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that republishes elements while a predicate closure indicates publishing should continue.
    public struct PrefixWhile<Upstream: Publisher>: Publisher {
        /// The upstream's element type.
        public typealias Output = Upstream.Output
        /// Fails only when the upstream fails.
        public typealias Failure = Upstream.Failure

        /// The publisher this publisher receives elements from.
        public let upstream: Upstream
        /// Elements are published while this returns true.
        public let predicate: (Output) -> Bool

        /// Creates a publisher that republishes `upstream`'s leading elements satisfying `predicate`.
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

extension Publishers.PrefixWhile {
    private final class Inner<Downstream: Subscriber>: ElementFilterProducer<
        Downstream, Upstream.Output, Upstream.Failure
    >
    where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
        private let predicate: (Output) -> Bool

        init(downstream: Downstream, predicate: @escaping (Output) -> Bool) {
            self.predicate = predicate
            super.init(downstream: downstream)
        }

        override var description: String { "PrefixWhile" }

        /// Combine's answers to protocol violations for this operator.
        override var misuse: FilterMisuse { FilterMisuse(early: .trap) }

        override func process(_ input: Upstream.Output) -> FilterStep<Downstream.Input, Downstream.Failure> {
            predicate(input) ? .send(input) : .finish
        }
    }
}
