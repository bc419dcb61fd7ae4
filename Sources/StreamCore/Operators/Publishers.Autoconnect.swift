extension ConnectablePublisher {
    /// Connects on the first subscription, and disconnects when every subscriber has cancelled or completed; a later
    /// subscription connects again.
    @inlinable
    public func autoconnect() -> Publishers.Autoconnect<Self> {
        Publishers.Autoconnect(upstream: self)
    }
}

extension Publishers {
    /// A publisher that automatically connects to an upstream connectable publisher.
    ///
    /// A class, as in Combine, so copies share one connection.
    public final class Autoconnect<Upstream: ConnectablePublisher>: Publisher {
        /// Upstream's output.
        public typealias Output = Upstream.Output
        /// Upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The connectable publisher this operator connects.
        public let upstream: Upstream

        private let lock = Lock()
        private var connection: (any Cancellable)?
        private var subscribers = 0
        /// Bumped at each disconnect, so a late release from an older connection doesn't end a newer one.
        private var epoch = 0

        /// Creates the operator; prefer `autoconnect()`.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches the subscriber to upstream, connecting if this is the first.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            lock.lock()
            subscribers += 1
            let shouldConnect = connection == nil && subscribers == 1
            let currentEpoch = epoch
            lock.unlock()
            upstream.subscribe(AutoconnectInner(downstream: subscriber) { [weak self] in
                self?.release(currentEpoch)
            })
            guard shouldConnect else { return }
            let made = upstream.connect()
            lock.lock()
            let keep = epoch == currentEpoch && connection == nil && subscribers > 0
            if keep { connection = made }
            lock.unlock()
            if !keep { made.cancel() }
        }

        private func release(_ subscriberEpoch: Int) {
            lock.lock()
            guard subscriberEpoch == epoch else {
                lock.unlock()
                return
            }
            subscribers -= 1
            guard subscribers == 0 else {
                lock.unlock()
                return
            }
            let ended = connection
            connection = nil
            epoch += 1
            lock.unlock()
            ended?.cancel()
        }
    }
}

/// Passes everything through, and tells the autoconnect once when its subscriber leaves (cancel or completion).
private final class AutoconnectInner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let lock = Lock()
    private var downstream: Downstream?
    private var upstream: (any Subscription)?
    private var onLeave: (() -> Void)?

    init(downstream: Downstream, onLeave: @escaping () -> Void) {
        self.downstream = downstream
        self.onLeave = onLeave
    }

    var description: String { "Autoconnect" }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard upstream == nil, let target = downstream else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstream = subscription
        lock.unlock()
        target.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        let target = downstream
        lock.unlock()
        return target?.receive(input) ?? .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        let target = downstream
        let leave = onLeave
        downstream = nil
        upstream = nil
        onLeave = nil
        lock.unlock()
        target?.receive(completion: completion)
        leave?()
    }

    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        let subscription = upstream
        lock.unlock()
        subscription?.request(demand)
    }

    func cancel() {
        lock.lock()
        let subscription = upstream
        let leave = onLeave
        upstream = nil
        downstream = nil
        onLeave = nil
        lock.unlock()
        subscription?.cancel()
        leave?()
    }
}
