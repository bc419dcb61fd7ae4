extension Publisher {
    /// Omits elements from the upstream publisher until an error-throwing closure returns false, before republishing
    /// all remaining elements. A thrown error cancels upstream and fails the stream with that error.
    public func tryDrop(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryDropWhile<Self> {
        Publishers.TryDropWhile(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that omits elements from an upstream publisher until a given error-throwing closure returns false.
    public struct TryDropWhile<Upstream: Publisher>: Publisher {
        /// The upstream's element type.
        public typealias Output = Upstream.Output
        /// Fails with the upstream's failure or the predicate's thrown error.
        public typealias Failure = any Error

        /// The publisher this publisher receives elements from.
        public let upstream: Upstream
        /// Elements are dropped while this returns true; may throw to fail the stream.
        public let predicate: (Output) throws -> Bool

        /// Creates a publisher that drops `upstream`'s leading elements satisfying a throwing `predicate`.
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

extension Publishers.TryDropWhile {
    private final class Inner<Downstream: Subscriber>: ElementFilterProducer<
        Downstream, Upstream.Output, Upstream.Failure
    >
    where Downstream.Input == Output, Downstream.Failure == any Error {
        private let predicate: (Output) throws -> Bool
        private var dropping = true

        init(downstream: Downstream, predicate: @escaping (Output) throws -> Bool) {
            self.predicate = predicate
            super.init(downstream: downstream)
        }

        override var description: String { "TryDropWhile" }

        /// Combine's answers to protocol violations for this operator.
        override var misuse: FilterMisuse { FilterMisuse(ignoresEarlyCancel: true) }

        override func process(_ input: Upstream.Output) -> FilterStep<Downstream.Input, Downstream.Failure> {
            guard dropping else { return .send(input) }
            do {
                if try predicate(input) { return .skip }
                dropping = false
                return .send(input)
            } catch {
                return .fail(error)
            }
        }
    }
}
