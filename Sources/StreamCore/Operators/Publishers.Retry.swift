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
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // A negative count retries without limit, as in Combine.
            let inner = RetryInner(
                upstream: upstream, downstream: subscriber, remaining: retries.flatMap { $0 < 0 ? nil : $0 })
            upstream.subscribe(inner)
        }
    }
}

/// Retry's subscription, following Combine's recorded behaviour: one object subscribes to the upstream again after
/// each failure. The downstream gets it when the first upstream subscription arrives; each later one is asked for
/// the demand still owed. A value before a subscription or beyond the demand traps; demand the downstream returns
/// is requested rather than returned. A failure during a resubscription (a synchronous upstream) is retried in a
/// loop, not by recursion. A cancel before the first subscription ends the stream (the subscription is cancelled).
private final class RetryInner<Upstream: Publisher, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    typealias Input = Upstream.Output
    typealias Failure = Upstream.Failure

    private enum State {
        case awaitingSubscription
        case subscribed(any Subscription)
        case done
    }

    private let lock = Lock()
    private var state = State.awaitingSubscription
    private var demand = Subscribers.Demand.none
    private var handedDownstream = false
    private var remaining: Int?
    /// True while `upstream.subscribe(self)` runs; a failure inside it asks for another round instead of recursing.
    private var resubscribing = false
    private var resubscribeAgain = false
    private let upstream: Upstream
    /// Released at completion and at cancel, as Combine's retry does.
    private var downstream: Downstream?

    init(upstream: Upstream, downstream: Downstream, remaining: Int?) {
        self.upstream = upstream
        self.downstream = downstream
        self.remaining = remaining
    }

    var description: String { "Retry" }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription = state else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .subscribed(subscription)
        let first = !handedDownstream
        handedDownstream = true
        let owed = demand
        let target = downstream
        lock.unlock()
        if first {
            target?.receive(subscription: self)
        } else if owed > 0 {
            subscription.request(owed)
        }
    }

    /// A value while resubscribing (between a failure and the next subscription) is delivered as usual; its extra
    /// demand is owed to the next subscription.
    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        let subscription: (any Subscription)?
        switch state {
        case .subscribed(let current): subscription = current
        case .awaitingSubscription:
            guard handedDownstream else {
                lock.unlock()
                preconditionFailure("Retry received a value before its subscription")
            }
            subscription = nil
        case .done:
            lock.unlock()
            return .none
        }
        guard demand > 0, let target = downstream else {
            lock.unlock()
            preconditionFailure("Retry received a value it did not ask for")
        }
        if demand != .unlimited { demand -= 1 }
        lock.unlock()
        let more = target.receive(input)
        if more > 0 {
            lock.lock()
            demand += more
            lock.unlock()
            subscription?.request(more)
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        if case .done = state {
            lock.unlock()
            return
        }
        guard case .failure = completion, remaining.map({ $0 > 0 }) ?? true else {
            state = .done
            let target = downstream
            downstream = nil
            lock.unlock()
            target?.receive(completion: completion)
            return
        }
        remaining = remaining.map { $0 - 1 }
        state = .awaitingSubscription
        if resubscribing {
            resubscribeAgain = true
            lock.unlock()
            return
        }
        resubscribing = true
        lock.unlock()
        while true {
            upstream.subscribe(self)
            lock.lock()
            if resubscribeAgain {
                resubscribeAgain = false
                lock.unlock()
                continue
            }
            resubscribing = false
            lock.unlock()
            return
        }
    }

    /// No trap on `.none`: Combine's retry passes it on. Before a subscription the demand waits for it.
    func request(_ more: Subscribers.Demand) {
        lock.lock()
        demand += more
        guard case .subscribed(let subscription) = state else {
            lock.unlock()
            return
        }
        lock.unlock()
        subscription.request(more)
    }

    func cancel() {
        lock.lock()
        let previous = state
        state = .done
        let released = downstream
        downstream = nil
        lock.unlock()
        // Released outside the lock: the subscriber's deinit may run here.
        withExtendedLifetime(released) {}
        if case .subscribed(let subscription) = previous {
            subscription.cancel()
        }
    }
}

extension Publishers.Retry: Equatable where Upstream: Equatable {}

extension RetryInner: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// No children, as in Combine's retry.
    var customMirror: Mirror { Mirror(self, children: []) }

    /// "Retry".
    var playgroundDescription: Any { description }
}
