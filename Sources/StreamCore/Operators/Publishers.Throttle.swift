extension Publisher {
    /// Publishes at most one element per `interval`: either the latest or the first element received in each interval.
    ///
    /// As in Combine: upstream is asked for unlimited elements. The first element (after a quiet interval) is scheduled
    /// at once; elements arriving before it runs, or within `interval` of the last publication, wait for the end of
    /// that interval, and `latest` picks which one is published. Elements arriving while downstream has no demand are
    /// dropped. A completion waits for an element already scheduled, then follows it. Events before the upstream
    /// subscription are ignored.
    @inlinable
    public func throttle<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride, scheduler: S, latest: Bool
    ) -> Publishers.Throttle<Self, S> {
        Publishers.Throttle(upstream: self, interval: interval, scheduler: scheduler, latest: latest)
    }
}

extension Publishers {
    /// A publisher that publishes either the most-recent or first element published by upstream in a time interval.
    public struct Throttle<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// Upstream's output.
        public typealias Output = Upstream.Output
        /// Upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher this operator receives elements from.
        public let upstream: Upstream
        /// The interval in which at most one element is published.
        public let interval: Context.SchedulerTimeType.Stride
        /// The scheduler that times and delivers elements.
        public let scheduler: Context
        /// Whether the latest (rather than the first) element of an interval is published.
        public let latest: Bool

        /// Creates the operator; prefer `throttle(for:scheduler:latest:)`.
        public init(upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.latest = latest
        }

        /// Subscribes to upstream with unlimited demand.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                ThrottleInner<Upstream, Context, S>(
                    downstream: subscriber, interval: interval, scheduler: scheduler, latest: latest))
        }
    }
}

private final class ThrottleInner<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>:
    Subscriber, Subscription, CustomStringConvertible
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    typealias Input = Upstream.Output
    typealias Failure = Upstream.Failure

    private let lock = Lock()
    private var downstream: Downstream?
    private var upstream: (any Subscription)?
    private var demand: Subscribers.Demand = .none
    private var pending: Input?
    private var scheduled = false
    private var lastEmission: Context.SchedulerTimeType?
    private var pendingCompletion: Subscribers.Completion<Failure>?
    private var upstreamDone = false
    private let interval: Context.SchedulerTimeType.Stride
    private let scheduler: Context
    private let latest: Bool

    init(downstream: Downstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
        self.downstream = downstream
        self.interval = interval
        self.scheduler = scheduler
        self.latest = latest
        // Combine reads the clock when its subscriber is made and when the subscription arrives; a scheduler that
        // records its calls (a test's virtual clock) sees the same calls from this one.
        _ = scheduler.now
    }

    var description: String { "Throttle" }

    /// True between the upstream subscription and the end (completion or cancel).
    private var isLive: Bool { upstream != nil && !upstreamDone && downstream != nil }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard upstream == nil, !upstreamDone, let target = downstream else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstream = subscription
        lock.unlock()
        _ = scheduler.now
        target.receive(subscription: self)
        subscription.request(.unlimited)
    }

    /// Events before the subscription or after the end are ignored, without reading the clock (as in Combine).
    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard isLive else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        // The clock is read outside the lock: a scheduler is user code.
        let now = scheduler.now
        lock.lock()
        guard isLive, demand > 0 else {
            lock.unlock()
            return .none
        }
        if scheduled {
            if latest || pending == nil { pending = input }
            lock.unlock()
            return .none
        }
        pending = input
        scheduled = true
        let due = lastEmission.map { $0.advanced(by: interval) }
        lock.unlock()
        if let due, now < due {
            scheduler.schedule(after: due, tolerance: scheduler.minimumTolerance) { [self] in emit() }
        } else {
            scheduler.schedule { [self] in emit() }
        }
        return .none
    }

    private func emit() {
        // As in Combine, the clock is read only for an emission that is not the last: none after a cancel, none
        // when a completion follows (read outside the lock: a scheduler is user code).
        lock.lock()
        let timed = downstream != nil && pendingCompletion == nil
        lock.unlock()
        let now = timed ? scheduler.now : nil
        lock.lock()
        scheduled = false
        let value = pending
        pending = nil
        if let now { lastEmission = now }
        var send = false
        if value != nil, demand > 0 {
            demand -= 1
            send = true
        }
        let completion = pendingCompletion
        let target = downstream
        if completion != nil {
            pendingCompletion = nil
            downstream = nil
        }
        lock.unlock()
        guard let target else { return }
        if send, let value {
            let extra = target.receive(value)
            if extra > 0 {
                lock.lock()
                demand += extra
                lock.unlock()
            }
        }
        if let completion { target.receive(completion: completion) }
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard isLive else {
            lock.unlock()
            return
        }
        lock.unlock()
        // Read as Combine reads it, outside the lock.
        _ = scheduler.now
        lock.lock()
        guard isLive else {
            lock.unlock()
            return
        }
        upstreamDone = true
        upstream = nil
        if scheduled {
            pendingCompletion = completion
            lock.unlock()
            return
        }
        lock.unlock()
        scheduler.schedule { [self] in
            lock.lock()
            let target = downstream
            downstream = nil
            lock.unlock()
            target?.receive(completion: completion)
        }
    }

    /// `.none` is accepted and changes nothing, as in Combine.
    func request(_ more: Subscribers.Demand) {
        lock.lock()
        demand += more
        lock.unlock()
    }

    func cancel() {
        lock.lock()
        let subscription = upstream
        upstream = nil
        downstream = nil
        upstreamDone = true
        pending = nil
        pendingCompletion = nil
        lock.unlock()
        subscription?.cancel()
    }
}

extension ThrottleInner: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// No children, as in Combine.
    var customMirror: Mirror { Mirror(self, children: []) }

    /// "Throttle".
    var playgroundDescription: Any { description }
}
