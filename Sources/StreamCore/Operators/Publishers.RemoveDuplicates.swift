extension Publisher where Output: Equatable {
    /// Publishes only elements that don't match the previous element.
    public func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
        removeDuplicates(by: ==)
    }
}

extension Publisher {
    /// Publishes only elements that don't match the previous element, as evaluated by a provided closure.
    ///
    /// Each element is compared with the element upstream sent just before it (dropped or not), so a chain of
    /// near-duplicates under a non-transitive predicate is treated one pair at a time. A dropped element is
    /// replaced by a request for one more upstream.
    public func removeDuplicates(by predicate: @escaping (Output, Output) -> Bool) -> Publishers.RemoveDuplicates<Self>
    {
        Publishers.RemoveDuplicates(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that publishes only elements that don't match the previous element.
    public struct RemoveDuplicates<Upstream: Publisher>: Publisher {
        /// The upstream's element type.
        public typealias Output = Upstream.Output
        /// Fails only when the upstream fails.
        public typealias Failure = Upstream.Failure

        /// The publisher this publisher receives elements from.
        public let upstream: Upstream
        /// Returns true when the second element duplicates the first.
        public let predicate: (Output, Output) -> Bool

        /// Creates a publisher that drops elements `predicate` calls duplicates of their predecessor.
        public init(upstream: Upstream, predicate: @escaping (Output, Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the subscriber through a filtering subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, predicate: predicate))
        }
    }
}

extension Publishers.RemoveDuplicates {
    private final class Inner<Downstream: Subscriber>: ElementFilterProducer<
        Downstream, Upstream.Output, Upstream.Failure
    >
    where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
        private let predicate: (Output, Output) -> Bool
        private var previous: Output?

        init(downstream: Downstream, predicate: @escaping (Output, Output) -> Bool) {
            self.predicate = predicate
            super.init(downstream: downstream)
        }

        override var description: String { "RemoveDuplicates" }

        /// The downstream and the last value, as in Combine.
        override func customMirrorChildren() -> [Mirror.Child]? {
            [("downstream", reflected.downstream), ("last", previous as Any)]
        }

        /// Combine's answers to protocol violations for this operator.
        override var misuse: FilterMisuse { FilterMisuse(early: .trap) }

        override func process(_ input: Upstream.Output) -> FilterStep<Downstream.Input, Downstream.Failure> {
            let before = previous
            previous = input
            if let before, predicate(before, input) {
                return .skip
            }
            return .send(input)
        }
    }
}
