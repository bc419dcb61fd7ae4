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
    /// A class, as in Combine, so copies share one connection. As in Combine, a subscriber sees the upstream's own
    /// subscription (its description and identifier), and values and completions pass through unchanged, even
    /// after a completion.
    public final class Autoconnect<Upstream: ConnectablePublisher>: Publisher {
        /// Upstream's output.
        public typealias Output = Upstream.Output
        /// Upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The connectable publisher this operator connects.
        public let upstream: Upstream

        private let lock = Lock()
        /// The open connection; nil while disconnected (or while the first subscriber is connecting).
        private var connection: (any Cancellable)?
        /// Subscribers counted against the open connection.
        private var subscribers = 0
        /// Bumped at each disconnect, so a late leave from an older connection doesn't end a newer one.
        private var epoch = 0
        /// A subscriber of the connection being made cancelled before it was made.
        private var leftWhileConnecting = false

        /// Creates the operator; prefer `autoconnect()`.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches the subscriber to upstream, then connects if no connection is open.
        ///
        /// As in Combine, a subscriber that subscribes again from inside its `receive(subscription:)` (before the
        /// first connection is made) connects a second time; the later connection is the one kept, counting one
        /// subscriber.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            lock.lock()
            let connected = connection != nil
            if connected { subscribers += 1 }
            let joined = epoch
            lock.unlock()
            // The subscriber's forwarder holds this publisher (and so the connection): the pipeline keeps working
            // after the caller releases it, as in Combine, and stops when its last subscriber leaves.
            upstream.subscribe(AutoconnectInner(parent: self, downstream: subscriber, epoch: joined))
            guard !connected else { return }
            let made = upstream.connect()
            lock.lock()
            guard epoch == joined, !leftWhileConnecting else {
                leftWhileConnecting = false
                if epoch == joined { epoch += 1 }
                lock.unlock()
                made.cancel()
                return
            }
            connection = made
            subscribers = 1
            lock.unlock()
        }

        /// A subscriber of connection `subscriberEpoch` cancelled: the last one disconnects.
        fileprivate func leave(_ subscriberEpoch: Int) {
            lock.lock()
            guard subscriberEpoch == epoch else {
                lock.unlock()
                return
            }
            guard let open = connection else {
                leftWhileConnecting = true
                lock.unlock()
                return
            }
            subscribers -= 1
            guard subscribers == 0 else {
                lock.unlock()
                return
            }
            connection = nil
            epoch += 1
            lock.unlock()
            open.cancel()
        }
    }
}

/// Passes everything through, and tells the autoconnect once when its subscriber cancels.
///
/// Like Combine's, it keeps no terminal state: values and completions are forwarded as they come, and every cancel
/// reaches the upstream. The downstream and the autoconnect publisher are released at the first cancel: the upstream
/// may keep this subscriber after a cancel (a timer's subscription does), and must not keep its own publisher alive
/// through it.
private final class AutoconnectInner<Upstream: ConnectablePublisher, Downstream: Subscriber>: Subscriber,
    CustomStringConvertible
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private var parent: Publishers.Autoconnect<Upstream>?
    private let epoch: Int
    fileprivate let lock = Lock()
    fileprivate var downstream: Downstream?
    private var upstream: (any Subscription)?

    init(parent: Publishers.Autoconnect<Upstream>, downstream: Downstream, epoch: Int) {
        self.parent = parent
        self.downstream = downstream
        self.epoch = epoch
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
        target.receive(subscription: AutoconnectSubscription(inner: self, upstream: subscription))
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
        lock.unlock()
        target?.receive(completion: completion)
    }

    fileprivate func cancel(_ subscription: any Subscription) {
        lock.lock()
        let released = downstream
        let leaving = parent
        downstream = nil
        parent = nil
        lock.unlock()
        // Released outside the lock: the subscriber's deinit may run here.
        withExtendedLifetime(released) {}
        subscription.cancel()
        leaving?.leave(epoch)
    }
}

/// What an autoconnect's subscriber holds: the upstream's subscription as Combine shows it (its description,
/// playground description and identifier), with the cancel counted for the connection.
private final class AutoconnectSubscription<Upstream: ConnectablePublisher, Downstream: Subscriber>: Subscription,
    CustomStringConvertible, CustomPlaygroundDisplayConvertible
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    private let inner: AutoconnectInner<Upstream, Downstream>
    private let upstream: any Subscription

    init(inner: AutoconnectInner<Upstream, Downstream>, upstream: any Subscription) {
        self.inner = inner
        self.upstream = upstream
    }

    var combineIdentifier: CombineIdentifier { upstream.combineIdentifier }

    var description: String { String(describing: upstream) }

    var playgroundDescription: Any {
        (upstream as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription ?? description
    }

    func request(_ demand: Subscribers.Demand) {
        upstream.request(demand)
    }

    func cancel() {
        inner.cancel(upstream)
    }
}

extension AutoconnectInner: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// The autoconnect publisher and the downstream, as in Combine.
    var customMirror: Mirror {
        lock.lock()
        let target = downstream
        let publisher = parent
        lock.unlock()
        return Mirror(self, children: ["parent": mirrorValue(publisher), "downstream": mirrorValue(target)])
    }

    /// "Autoconnect".
    var playgroundDescription: Any { description }
}
