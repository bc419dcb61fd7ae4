extension Publisher {
    /// Handles a failure from upstream by replacing it with another publisher, which then supplies the rest of the
    /// stream (with whatever demand downstream still has outstanding).
    @inlinable
    public func `catch`<P: Publisher>(_ handler: @escaping (Failure) -> P) -> Publishers.Catch<Self, P>
    where Output == P.Output {
        Publishers.Catch(upstream: self, handler: handler)
    }
}

extension Publishers {
    /// A publisher that handles a failure from upstream by replacing upstream with another publisher.
    public struct Catch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        /// The shared output.
        public typealias Output = Upstream.Output
        /// The replacement's failure.
        public typealias Failure = NewPublisher.Failure

        /// The publisher this operator receives elements from.
        public let upstream: Upstream
        /// Makes the replacement publisher from upstream's failure.
        public let handler: (Upstream.Failure) -> NewPublisher

        /// Creates the operator; prefer `catch(_:)`.
        @inlinable
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        /// Subscribes to upstream; on its failure, to the handler's publisher (Combine's rules: see `CatchCore`).
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let handler = self.handler
            let core = CatchCore<S, Upstream.Failure>(downstream: subscriber, name: "Catch") { error, core in
                handler(error).subscribe(CatchPostInput<S, Upstream.Failure, NewPublisher.Failure>(core: core))
            }
            upstream.subscribe(CatchInput(core: core))
        }
    }
}
