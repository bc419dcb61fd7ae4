extension Publisher {
    /// Republishes elements while an error-throwing predicate closure indicates publishing should continue.
    ///
    /// A failing element cancels upstream and finishes; a thrown error cancels upstream and fails with that error.
    public func tryPrefix(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryPrefixWhile<Self> {
        Publishers.TryPrefixWhile(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that republishes elements while an error-throwing predicate closure indicates publishing should
    /// continue.
    public struct TryPrefixWhile<Upstream: Publisher>: Publisher {
        /// The upstream's element type.
        public typealias Output = Upstream.Output
        /// Fails with the upstream's failure or the predicate's thrown error.
        public typealias Failure = any Error

        /// The publisher this publisher receives elements from.
        public let upstream: Upstream
        /// Elements are published while this returns true; may throw to fail the stream.
        public let predicate: (Output) throws -> Bool

        /// Creates a publisher that republishes `upstream`'s leading elements satisfying a throwing `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the subscriber through a filtering subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, predicate: predicate))
        }
    }
}

extension Publishers.TryPrefixWhile {
    private final class Inner<Downstream: Subscriber>: ElementFilterProducer<
        Downstream, Upstream.Output, Upstream.Failure
    >
    where Downstream.Input == Output, Downstream.Failure == any Error {
        private let predicate: (Output) throws -> Bool

        init(downstream: Downstream, predicate: @escaping (Output) throws -> Bool) {
            self.predicate = predicate
            super.init(downstream: downstream)
        }

        override var description: String { "TryPrefixWhile" }

        /// Combine's answers to protocol violations for this operator.
        override var misuse: FilterMisuse { FilterMisuse(early: .trap) }

        override func process(_ input: Upstream.Output) -> FilterStep<Downstream.Input, Downstream.Failure> {
            do {
                return try predicate(input) ? .send(input) : .finish
            } catch {
                return .fail(error)
            }
        }
    }
}
