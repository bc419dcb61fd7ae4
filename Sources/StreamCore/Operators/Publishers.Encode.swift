extension Publisher where Output: Encodable {
    /// Encodes the output from upstream using a specified encoder.
    ///
    /// An encoding error cancels upstream and fails the stream with that error.
    public func encode<Coder: TopLevelEncoder>(encoder: Coder) -> Publishers.Encode<Self, Coder> {
        Publishers.Encode(upstream: self, encoder: encoder)
    }
}

extension Publishers {
    /// A publisher that encodes every element of its upstream with a top-level encoder.
    public struct Encode<Upstream: Publisher, Coder: TopLevelEncoder>: Publisher where Upstream.Output: Encodable {
        /// The encoder's output, such as JSON data.
        public typealias Output = Coder.Output
        /// Fails with the upstream's failure or the encoder's thrown error.
        public typealias Failure = any Error

        /// The publisher this publisher receives elements from.
        public let upstream: Upstream
        private let encoder: Coder

        /// Creates a publisher that encodes `upstream`'s elements with `encoder`.
        public init(upstream: Upstream, encoder: Coder) {
            self.upstream = upstream
            self.encoder = encoder
        }

        /// Attaches the subscriber through an encoding subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, encoder: encoder))
        }
    }
}

extension Publishers.Encode {
    private final class Inner<Downstream: Subscriber>: ElementFilterProducer<
        Downstream, Upstream.Output, Upstream.Failure
    >
    where Downstream.Input == Coder.Output, Downstream.Failure == any Error {
        private let encoder: Coder

        init(downstream: Downstream, encoder: Coder) {
            self.encoder = encoder
            super.init(downstream: downstream)
        }

        override var description: String { "Encode" }

        /// Combine's answers to protocol violations for this operator.
        override var misuse: FilterMisuse { FilterMisuse(early: .forwarded, ignoresEarlyCancel: true) }

        override func process(_ input: Upstream.Output) -> FilterStep<Downstream.Input, Downstream.Failure> {
            do {
                return .send(try encoder.encode(input))
            } catch {
                return .fail(error)
            }
        }
    }
}
