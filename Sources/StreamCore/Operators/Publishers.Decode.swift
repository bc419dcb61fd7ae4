extension Publisher {
    /// Decodes the output from the upstream using a specified decoder.
    ///
    /// A decoding error cancels upstream and fails the stream with that error (for JSON, a `DecodingError` that
    /// says which key or index was wrong).
    public func decode<Item: Decodable, Coder: TopLevelDecoder>(
        type: Item.Type,
        decoder: Coder
    ) -> Publishers.Decode<Self, Item, Coder> where Output == Coder.Input {
        Publishers.Decode(upstream: self, decoder: decoder)
    }
}

extension Publishers {
    /// A publisher that decodes every element of its upstream with a top-level decoder.
    public struct Decode<Upstream: Publisher, Output: Decodable, Coder: TopLevelDecoder>: Publisher
    where Upstream.Output == Coder.Input {
        /// Fails with the upstream's failure or the decoder's thrown error.
        public typealias Failure = any Error

        /// The publisher this publisher receives elements from.
        public let upstream: Upstream
        private let decoder: Coder

        /// Creates a publisher that decodes `upstream`'s elements into `Output` with `decoder`.
        public init(upstream: Upstream, decoder: Coder) {
            self.upstream = upstream
            self.decoder = decoder
        }

        /// Attaches the subscriber through a decoding subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, decoder: decoder))
        }
    }
}

extension Publishers.Decode {
    private final class Inner<Downstream: Subscriber>: ElementFilterProducer<
        Downstream, Upstream.Output, Upstream.Failure
    >
    where Downstream.Input == Output, Downstream.Failure == any Error {
        private let decoder: Coder

        init(downstream: Downstream, decoder: Coder) {
            self.decoder = decoder
            super.init(downstream: downstream)
        }

        override var description: String { "Decode" }

        /// Combine's answers to protocol violations for this operator.
        override var misuse: FilterMisuse { FilterMisuse(early: .forwarded, ignoresEarlyCancel: true) }

        override func process(_ input: Upstream.Output) -> FilterStep<Downstream.Input, Downstream.Failure> {
            do {
                return .send(try decoder.decode(Output.self, from: input))
            } catch {
                return .fail(error)
            }
        }
    }
}
