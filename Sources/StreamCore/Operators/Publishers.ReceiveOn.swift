extension Publisher {
    /// Delivers every element and the completion on `scheduler`, each as its own scheduled action.
    ///
    /// The subscription is handed downstream at once, as in Combine. Demand requests go straight upstream; demand a
    /// subscriber returns from a scheduled value is requested upstream.
    @inlinable
    public func receive<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil)
        -> Publishers.ReceiveOn<Self, S>
    {
        Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher that delivers elements to its downstream subscriber on a specific scheduler.
    public struct ReceiveOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// Upstream's output.
        public typealias Output = Upstream.Output
        /// Upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher this operator receives elements from.
        public let upstream: Upstream
        /// The scheduler downstream receives everything on.
        public let scheduler: Context
        /// Options for every schedule call.
        public let options: Context.SchedulerOptions?

        /// Creates the operator; prefer `receive(on:options:)`.
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        /// Subscribes to upstream through a forwarder that schedules each event.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let scheduler = self.scheduler
            let options = self.options
            upstream.subscribe(
                ScheduledForwarder<S, ReceiveOnForwarding>(downstream: subscriber) { action in
                    scheduler.schedule(options: options, action)
                })
        }
    }
}

/// The forwarder behind receive(on:) and delay: upstream events are handed to `schedule`, which runs them later.
///
/// As in Combine, the subscription is handed downstream at once, not scheduled. A scheduled value is dropped if the
/// downstream cancelled before it ran; a scheduled completion is still delivered. Events before the upstream
/// subscription (a value, a completion, a cancel) are ignored. The downstream is held for the forwarder's whole life,
/// and each scheduled action holds the forwarder, so pending actions keep the chain alive, as Combine's do.
///
/// `Kind` tells the two apart for debugging: receive(on:)'s subscription describes itself ("ReceiveOn"), delay's, as
/// in Combine, does not (no description, mirror or playground description).
internal final class ScheduledForwarder<Downstream: Subscriber, Kind: ScheduledForwarding>: Subscriber, Subscription {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let lock = Lock()
    private var upstream: (any Subscription)?
    private var subscribed = false
    /// Upstream completed: its completion is scheduled, and later upstream events are ignored. Demand a scheduled value
    /// returns still goes upstream, and a cancel too, as they would before the completion.
    private var completed = false
    /// The downstream cancelled: scheduled values not yet run are dropped.
    private var cancelled = false
    private let downstream: Downstream
    private let schedule: (@escaping () -> Void) -> Void

    init(downstream: Downstream, schedule: @escaping (@escaping () -> Void) -> Void) {
        self.downstream = downstream
        self.schedule = schedule
    }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard !subscribed else {
            lock.unlock()
            subscription.cancel()
            return
        }
        subscribed = true
        upstream = subscription
        lock.unlock()
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard subscribed, !completed, !cancelled else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        schedule { [self] in
            lock.lock()
            guard !cancelled else {
                lock.unlock()
                return
            }
            lock.unlock()
            let extra = downstream.receive(input)
            guard extra > 0 else { return }
            lock.lock()
            let subscription = cancelled ? nil : upstream
            lock.unlock()
            subscription?.request(extra)
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard subscribed, !completed, !cancelled else {
            lock.unlock()
            return
        }
        completed = true
        lock.unlock()
        schedule { [self] in
            downstream.receive(completion: completion)
        }
    }

    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        let subscription = cancelled ? nil : upstream
        lock.unlock()
        subscription?.request(demand)
    }

    func cancel() {
        lock.lock()
        guard subscribed, !cancelled else {
            lock.unlock()
            return
        }
        cancelled = true
        let subscription = upstream
        upstream = nil
        lock.unlock()
        subscription?.cancel()
    }
}

/// What a `ScheduledForwarder` forwards for: a namespace type, never instantiated.
internal protocol ScheduledForwarding {}

/// receive(on:): its subscription describes itself as "ReceiveOn".
internal enum ReceiveOnForwarding: ScheduledForwarding {}

/// delay: its subscription has no description, as in Combine.
internal enum DelayForwarding: ScheduledForwarding {}

extension ScheduledForwarder: CustomStringConvertible where Kind == ReceiveOnForwarding {
    /// "ReceiveOn".
    var description: String { "ReceiveOn" }
}
