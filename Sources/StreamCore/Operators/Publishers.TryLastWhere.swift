extension Publisher {
    /// Publishes the last element of a stream that satisfies a throwing predicate, after upstream finishes.
    ///
    /// A thrown error cancels upstream and fails the stream with that error.
    public func tryLast(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryLastWhere<Self> {
        Publishers.TryLastWhere(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that waits until after the stream finishes and then publishes the last element of the stream that
    /// satisfies a throwing predicate.
    public struct TryLastWhere<Upstream: Publisher>: Publisher {
        /// The upstream's element type.
        public typealias Output = Upstream.Output
        /// Fails with the upstream's failure or the predicate's thrown error.
        public typealias Failure = any Error

        /// The publisher this publisher receives elements from.
        public let upstream: Upstream
        /// The test each element is put to; may throw to fail the stream.
        public let predicate: (Output) throws -> Bool

        /// Creates a publisher that publishes the last element of `upstream` satisfying a throwing `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the subscriber through a reducing subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, predicate: predicate))
        }
    }
}

extension Publishers.TryLastWhere {
    private final class Inner<Downstream: Subscriber>: ReduceProducer<Downstream, Upstream.Output, Upstream.Failure>
    where Downstream.Input == Output, Downstream.Failure == any Error {
        private let predicate: (Output) throws -> Bool

        init(downstream: Downstream, predicate: @escaping (Output) throws -> Bool) {
            self.predicate = predicate
            super.init(downstream: downstream, initial: nil)
        }

        override var description: String { "TryLastWhere" }

        override func reduce(_ input: Upstream.Output) -> ReduceStep<Downstream.Failure> {
            do {
                if try predicate(input) {
                    result = input
                }
                return .continue
            } catch {
                return .fail(error)
            }
        }
    }
}
