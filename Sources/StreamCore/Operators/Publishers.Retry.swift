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
        /// for the demand downstream still has outstanding (Combine's rules: see `RetryPolicy`).
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // A negative count retries without limit, as in Combine.
            let policy = RetryPolicy<Upstream, S>(upstream: upstream, retries: retries.flatMap { $0 < 0 ? nil : $0 })
            let storage = HandoverStorage(downstream: subscriber, policy: policy, releasesDownstream: true)
            upstream.subscribe(HandoverFirstInput<RetryPolicy<Upstream, S>, Failure>(storage: storage))
        }
    }
}

extension Publishers.Retry: Equatable where Upstream: Equatable {}

/// retry on the handover core, following Combine's recorded behaviour: the upstream is subscribed again after each
/// failure while retries remain. The downstream gets the subscription when the first upstream subscription arrives;
/// each later one is asked for the demand still owed. A value before a subscription or beyond the demand traps;
/// demand the downstream returns is requested rather than returned. A failure during a resubscription (a
/// synchronous upstream) is retried in a loop, not by recursion. A cancel before the first subscription ends the
/// stream (the subscription is cancelled). The downstream is released at the end, as Combine's retry does.
internal struct RetryPolicy<Upstream: Publisher, Downstream: Subscriber>: HandoverPolicy
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    let upstream: Upstream
    let retries: Int?

    var name: String { "Retry" }

    var rules: HandoverRules {
        HandoverRules(
            handsOverOnFailure: true, handovers: retries, trapsOnEarlyValue: true, firstSurplus: .trap,
            laterSurplus: .trap, acceptsEarlyLaterValues: true, acceptsEarlyFirstCompletion: true,
            acceptsEarlyLaterCompletion: true, endsOnEarlyCancel: true, requestsReturnedDemand: true)
    }

    var mirrorsDemand: Bool { false }

    func takeNext() -> Upstream { upstream }

    func release() {}

    static func subscribe(
        _ next: Upstream, to storage: HandoverStorage<Self>, generation: Int, after failure: (any Error)?
    ) {
        next.subscribe(HandoverLaterInput<Self, Upstream.Failure>(storage: storage, generation: generation))
    }
}
