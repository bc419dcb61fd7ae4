extension Publisher {
    /// Publishes a single Boolean value that indicates whether all received elements pass a throwing predicate.
    ///
    /// A failing element publishes `false` and cancels upstream; a thrown error cancels upstream and fails.
    public func tryAllSatisfy(_ predicate: @escaping (Output) throws -> Bool) -> Publishers.TryAllSatisfy<Self> {
        Publishers.TryAllSatisfy(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that publishes a single Boolean value that indicates whether all received elements pass a given
    /// throwing predicate.
    public struct TryAllSatisfy<Upstream: Publisher>: Publisher {
        /// Whether every element passed.
        public typealias Output = Bool
        /// Fails with the upstream's failure or the predicate's thrown error.
        public typealias Failure = any Error

        /// The publisher this publisher receives elements from.
        public let upstream: Upstream
        /// The test each element is put to; may throw to fail the stream.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that checks every element of `upstream` against a throwing `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the subscriber through a reducing subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, predicate: predicate))
        }
    }
}

extension Publishers.TryAllSatisfy {
    private final class Inner<Downstream: Subscriber>: ReduceProducer<Downstream, Upstream.Output, Upstream.Failure>
    where Downstream.Input == Output, Downstream.Failure == any Error {
        private let predicate: (Upstream.Output) throws -> Bool

        init(downstream: Downstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.predicate = predicate
            super.init(downstream: downstream, initial: true)
        }

        override var description: String { "TryAllSatisfy" }

        override func reduce(_ input: Upstream.Output) -> ReduceStep<Downstream.Failure> {
            do {
                if try predicate(input) { return .continue }
                result = false
                return .finish
            } catch {
                return .fail(error)
            }
        }
    }
}
