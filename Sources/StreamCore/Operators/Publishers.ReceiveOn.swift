extension Publisher {
    /// Delivers the subscription, every element and the completion on `scheduler`, each as its own scheduled action.
    ///
    /// Demand requests go straight upstream; demand a subscriber returns from a scheduled value is requested upstream.
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
                ScheduledForwarder(downstream: subscriber, name: "ReceiveOn") { action in
                    scheduler.schedule(options: options, action)
                })
        }
    }
}

/// The forwarder behind receive(on:) and delay: upstream events are handed to `schedule`, which runs them later.
/// Values are checked against cancellation when they run, so nothing reaches downstream after a cancel.
internal final class ScheduledForwarder<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let lock = Lock()
    private var downstream: Downstream?
    private var upstream: (any Subscription)?
    private var upstreamDone = false
    private let schedule: (@escaping () -> Void) -> Void
    private let scheduleSubscription: ((@escaping () -> Void) -> Void)?
    let description: String

    /// `scheduleSubscription`, when given, is used for the subscription (Combine's delay schedules it immediately).
    init(
        downstream: Downstream,
        name: String,
        scheduleSubscription: ((@escaping () -> Void) -> Void)? = nil,
        schedule: @escaping (@escaping () -> Void) -> Void
    ) {
        self.downstream = downstream
        self.description = name
        self.scheduleSubscription = scheduleSubscription
        self.schedule = schedule
    }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard upstream == nil, !upstreamDone, downstream != nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstream = subscription
        lock.unlock()
        (scheduleSubscription ?? schedule) { [self] in
            lock.lock()
            let target = downstream
            lock.unlock()
            target?.receive(subscription: self)
        }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard upstream != nil, !upstreamDone, downstream != nil else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        schedule { [self] in
            lock.lock()
            let target = downstream
            lock.unlock()
            guard let target else { return }
            let extra = target.receive(input)
            if extra > 0 {
                lock.lock()
                let subscription = upstream
                lock.unlock()
                subscription?.request(extra)
            }
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard !upstreamDone, downstream != nil else {
            lock.unlock()
            return
        }
        upstreamDone = true
        lock.unlock()
        schedule { [self] in
            lock.lock()
            let target = downstream
            downstream = nil
            upstream = nil
            lock.unlock()
            target?.receive(completion: completion)
        }
    }

    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        let subscription = downstream == nil ? nil : upstream
        lock.unlock()
        subscription?.request(demand)
    }

    func cancel() {
        lock.lock()
        let subscription = upstream
        upstream = nil
        downstream = nil
        upstreamDone = true
        lock.unlock()
        subscription?.cancel()
    }
}
