extension Publisher {
    /// Handles a failure from upstream by replacing it with another publisher, or by throwing a new error that ends
    /// the stream.
    @inlinable
    public func tryCatch<P: Publisher>(_ handler: @escaping (Failure) throws -> P) -> Publishers.TryCatch<Self, P>
    where Output == P.Output {
        Publishers.TryCatch(upstream: self, handler: handler)
    }
}

extension Publishers {
    /// A publisher that handles a failure from upstream with a throwing handler that returns a replacement publisher.
    public struct TryCatch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        /// The shared output.
        public typealias Output = Upstream.Output
        /// Any error: the handler's, or the replacement's.
        public typealias Failure = any Error

        /// The publisher this operator receives elements from.
        public let upstream: Upstream
        /// Makes the replacement publisher from upstream's failure, or throws.
        public let handler: (Upstream.Failure) throws -> NewPublisher

        /// Creates the operator; prefer `tryCatch(_:)`.
        @inlinable
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) throws -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        /// Subscribes to upstream; on its failure, to the handler's publisher, or fails with what the handler threw
        /// (Combine's rules: see `CatchPolicy`).
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let policy = CatchPolicy<Upstream.Failure, NewPublisher, S>(name: "TryCatch", makeReplacement: handler)
            let storage = HandoverStorage(downstream: subscriber, policy: policy)
            upstream.subscribe(
                HandoverFirstInput<CatchPolicy<Upstream.Failure, NewPublisher, S>, Upstream.Failure>(
                    storage: storage))
        }
    }
}
