extension Publisher {
    /// Resubscribes to upstream after a failure, up to `retries` times (without limit if negative); the failure after
    /// that is passed on.
    @inlinable
    public func retry(_ retries: Int) -> Publishers.Retry<Self> {
        Publishers.Retry(upstream: self, retries: retries)
    }
}

extension Publishers {
    /// A publisher that attempts to recreate its subscription to a failed upstream publisher.
    public struct Retry<Upstream: Publisher>: Publisher {
        /// Upstream's output.
        public typealias Output = Upstream.Output
        /// Upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher this operator resubscribes to.
        public let upstream: Upstream
        /// How many times to retry; nil retries without limit.
        public let retries: Int?

        /// Creates the operator; prefer `retry(_:)`.
        @inlinable
        public init(upstream: Upstream, retries: Int?) {
            self.upstream = upstream
            self.retries = retries
        }

        /// Subscribes to upstream, and again after each failure while retries remain, asking each new subscription
        /// for the demand downstream still has outstanding.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let relay = RelaySubscription(downstream: subscriber, name: "Retry", requestsExtraDemand: true)
            subscriber.receive(subscription: relay)
            // A negative count retries without limit, as in Combine.
            Self.attempt(upstream, relay: relay, generation: 0, remaining: retries.flatMap { $0 < 0 ? nil : $0 })
        }

        @inlinable
        internal static func attempt<S: Subscriber>(
            _ upstream: Upstream, relay: RelaySubscription<S>, generation: Int, remaining: Int?
        ) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                RelayInput<S, Failure>(relay: relay, generation: generation) { relay, generation, completion in
                    if case .failure = completion, remaining.map({ $0 > 0 }) ?? true,
                        let next = relay.advance(from: generation)
                    {
                        attempt(upstream, relay: relay, generation: next, remaining: remaining.map { $0 - 1 })
                    } else {
                        relay.complete(generation, completion)
                    }
                })
        }
    }
}

extension Publishers.Retry: Equatable where Upstream: Equatable {}
