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

        /// Subscribes to upstream; on its failure, to the handler's publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let relay = RelaySubscription(downstream: subscriber, name: "Catch")
            subscriber.receive(subscription: relay)
            let handler = self.handler
            upstream.subscribe(
                RelayInput<S, Upstream.Failure>(relay: relay, generation: 0) { relay, generation, completion in
                    switch completion {
                    case .finished:
                        relay.complete(generation, .finished)
                    case .failure(let error):
                        guard let next = relay.advance(from: generation) else { return }
                        handler(error).subscribe(
                            RelayInput<S, NewPublisher.Failure>(relay: relay, generation: next) {
                                relay, generation, completion in
                                relay.complete(generation, completion)
                            })
                    }
                })
        }
    }
}
