extension Publisher {
    /// Publishes only elements that don't match the previous element, as evaluated by a provided error-throwing
    /// closure. A thrown error cancels upstream and fails the stream with that error.
    public func tryRemoveDuplicates(
        by predicate: @escaping (Output, Output) throws -> Bool
    ) -> Publishers.TryRemoveDuplicates<Self> {
        Publishers.TryRemoveDuplicates(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that publishes only elements that don't match the previous element, as evaluated by a provided
    /// error-throwing closure.
    public struct TryRemoveDuplicates<Upstream: Publisher>: Publisher {
        /// The upstream's element type.
        public typealias Output = Upstream.Output
        /// Fails with the upstream's failure or the predicate's thrown error.
        public typealias Failure = any Error

        /// The publisher this publisher receives elements from.
        public let upstream: Upstream
        /// Returns true when the second element duplicates the first; may throw to fail the stream.
        public let predicate: (Output, Output) throws -> Bool

        /// Creates a publisher that drops elements a throwing `predicate` calls duplicates of their predecessor.
        public init(upstream: Upstream, predicate: @escaping (Output, Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the subscriber through a filtering subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, predicate: predicate))
        }
    }
}

extension Publishers.TryRemoveDuplicates {
    private final class Inner<Downstream: Subscriber>: ElementFilterProducer<
        Downstream, Upstream.Output, Upstream.Failure
    >
    where Downstream.Input == Output, Downstream.Failure == any Error {
        private let predicate: (Output, Output) throws -> Bool
        private var previous: Output?

        init(downstream: Downstream, predicate: @escaping (Output, Output) throws -> Bool) {
            self.predicate = predicate
            super.init(downstream: downstream)
        }

        override var description: String { "TryRemoveDuplicates" }

        /// The downstream and the last value, as in Combine.
        override func customMirrorChildren() -> [Mirror.Child]? {
            [("downstream", reflected.downstream), ("last", previous as Any)]
        }

        /// Combine's answers to protocol violations for this operator.
        override var misuse: FilterMisuse { FilterMisuse(early: .trap) }

        override func process(_ input: Upstream.Output) -> FilterStep<Downstream.Input, Downstream.Failure> {
            let before = previous
            previous = input
            guard let before else { return .send(input) }
            do {
                return try predicate(before, input) ? .skip : .send(input)
            } catch {
                return .fail(error)
            }
        }
    }
}
