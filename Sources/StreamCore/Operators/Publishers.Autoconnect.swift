extension ConnectablePublisher {
    /// Connects on the first subscription, and disconnects when every subscriber has cancelled (a completion alone
    /// doesn't count, as in Combine); a later subscription then connects again.
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

        private let state = AutoconnectState()

        /// Creates the operator; prefer `autoconnect()`.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches the subscriber to upstream, connecting if this is the first.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let (shouldConnect, epoch) = state.join()
            // The subscriber's forwarder keeps the state (and so the connection) alive: the pipeline keeps working
            // after this publisher is released, as in Combine, and stops when its last subscriber leaves.
            let state = self.state
            upstream.subscribe(
                AutoconnectInner(downstream: subscriber) {
                    state.leave(epoch)
                })
            if shouldConnect { state.connected(upstream.connect(), epoch: epoch) }
        }
    }
}

/// Autoconnect's shared bookkeeping: how many subscribers there are, and the connection they keep open.
private final class AutoconnectState: @unchecked Sendable {
    private let lock = Lock()
    private var connection: (any Cancellable)?
    private var connecting = false
    private var subscribers = 0
    /// Bumped at each disconnect, so a late leave from an older connection doesn't end a newer one.
    private var epoch = 0

    /// A subscriber arrives: whether it must connect, and the connection epoch it belongs to.
    func join() -> (Bool, Int) {
        lock.lock()
        defer { lock.unlock() }
        subscribers += 1
        let shouldConnect = connection == nil && !connecting
        if shouldConnect { connecting = true }
        return (shouldConnect, epoch)
    }

    func connected(_ made: any Cancellable, epoch connectedEpoch: Int) {
        lock.lock()
        let keep = epoch == connectedEpoch && subscribers > 0
        if keep {
            connection = made
            connecting = false
        }
        lock.unlock()
        if !keep { made.cancel() }
    }

    func leave(_ subscriberEpoch: Int) {
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
        connecting = false
        epoch += 1
        lock.unlock()
        ended?.cancel()
    }
}

/// Passes everything through, and tells the autoconnect once when its subscriber cancels.
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
        // A completion doesn't count as leaving: as in Combine, only a cancel lowers the subscriber count, so a
        // finished shared upstream is not subscribed to again by a later subscriber.
        lock.lock()
        let target = downstream
        downstream = nil
        lock.unlock()
        target?.receive(completion: completion)
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
