extension Publisher {
    /// Replaces an empty stream with the provided element.
    ///
    /// If upstream finishes without publishing anything, the element is published followed by `.finished`, as soon
    /// as the downstream has demand for it.
    public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
        Publishers.ReplaceEmpty(upstream: self, output: output)
    }
}

extension Publishers {
    /// A publisher that replaces an empty stream with a provided element.
    public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
        /// The upstream's element type.
        public typealias Output = Upstream.Output
        /// Fails only when the upstream fails.
        public typealias Failure = Upstream.Failure

        /// The publisher this publisher receives elements from.
        public let upstream: Upstream
        /// The element published when upstream finishes empty.
        public let output: Upstream.Output

        /// Creates a publisher that publishes `output` if `upstream` finishes without elements.
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Attaches the subscriber through a demand-tracking subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // Replaces only a `.finished` that came without any value.
            let inner = ReplacingInner<Upstream, S>(
                downstream: subscriber, output: output, name: "ReplaceEmpty", requestsUnlimited: true
            ) {
                completion, receivedValue in
                if case .finished = completion, !receivedValue { return nil }
                return completion
            }
            upstream.subscribe(inner)
        }
    }
}

extension Publishers.ReplaceEmpty: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}
