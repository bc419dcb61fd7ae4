extension Publisher {
    /// Replaces any errors in the stream with the provided element.
    ///
    /// On failure the element is published followed by `.finished`; if the downstream has no outstanding demand at
    /// that moment, both wait for its next request rather than exceed its demand.
    public func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
        Publishers.ReplaceError(upstream: self, output: output)
    }
}

extension Publishers {
    /// A publisher that replaces any errors in the stream with a provided element.
    public struct ReplaceError<Upstream: Publisher>: Publisher {
        /// The upstream's element type.
        public typealias Output = Upstream.Output
        /// Errors are replaced, so the publisher never fails.
        public typealias Failure = Never

        /// The publisher this publisher receives elements from.
        public let upstream: Upstream
        /// The element published in place of a failure.
        public let output: Upstream.Output

        /// Creates a publisher that replaces `upstream`'s failure with `output`.
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Attaches the subscriber through a demand-tracking subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // Replaces every failure; a normal finish passes through.
            let inner = ReplacingInner<Upstream, S>(
                downstream: subscriber, output: output, name: "ReplaceError", trapsUnwantedValues: true
            ) {
                completion, _ in
                if case .finished = completion { return .finished }
                return nil
            }
            upstream.subscribe(inner)
        }
    }
}

extension Publishers.ReplaceError: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}
