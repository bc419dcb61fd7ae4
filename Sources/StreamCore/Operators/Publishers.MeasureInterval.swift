extension Publisher {
    /// Replaces each element with the time elapsed since the previous one (for the first, since the subscription),
    /// as read from `scheduler.now`.
    @inlinable
    public func measureInterval<S: Scheduler>(using scheduler: S, options: S.SchedulerOptions? = nil)
        -> Publishers.MeasureInterval<Self, S>
    {
        Publishers.MeasureInterval(upstream: self, scheduler: scheduler)
    }
}

extension Publishers {
    /// A publisher that measures and emits the time interval between events received from an upstream publisher.
    public struct MeasureInterval<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The interval since the previous event.
        public typealias Output = Context.SchedulerTimeType.Stride
        /// Upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher this operator receives elements from.
        public let upstream: Upstream
        /// The scheduler whose clock measures the intervals.
        public let scheduler: Context

        /// Creates the operator; prefer `measureInterval(using:options:)`.
        public init(upstream: Upstream, scheduler: Context) {
            self.upstream = upstream
            self.scheduler = scheduler
        }

        /// Subscribes to upstream; demand passes through unchanged (extra demand from a value is requested upstream).
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(MeasureIntervalInner<Upstream, Context, S>(downstream: subscriber, scheduler: scheduler))
        }
    }
}

private final class MeasureIntervalInner<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>:
    Subscriber, Subscription, CustomStringConvertible
where Downstream.Input == Context.SchedulerTimeType.Stride {
    typealias Input = Upstream.Output
    typealias Failure = Downstream.Failure

    private let lock = Lock()
    private var downstream: Downstream?
    private var upstream: (any Subscription)?
    private var last: Context.SchedulerTimeType?
    private let scheduler: Context

    init(downstream: Downstream, scheduler: Context) {
        self.downstream = downstream
        self.scheduler = scheduler
    }

    var description: String { "MeasureInterval" }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard upstream == nil, let target = downstream else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstream = subscription
        last = scheduler.now
        lock.unlock()
        target.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        let now = scheduler.now
        lock.lock()
        guard let target = downstream, let previous = last else {
            lock.unlock()
            return .none
        }
        last = now
        let subscription = upstream
        lock.unlock()
        // Combine passes downstream's extra demand on with a request rather than as the return value.
        let extra = target.receive(previous.distance(to: now))
        if extra > 0 { subscription?.request(extra) }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        let target = downstream
        downstream = nil
        upstream = nil
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
        upstream = nil
        downstream = nil
        lock.unlock()
        subscription?.cancel()
    }
}
