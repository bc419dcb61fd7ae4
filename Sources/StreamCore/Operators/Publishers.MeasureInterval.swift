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

/// As in Combine: events before the upstream subscription (a value, a completion, a cancel) are ignored, nothing is
/// measured after the end (the scheduler is not even asked for the time), and the downstream is held for the
/// subscription's whole life.
private final class MeasureIntervalInner<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>:
    Subscriber, Subscription, CustomStringConvertible
where Downstream.Input == Context.SchedulerTimeType.Stride {
    typealias Input = Upstream.Output
    typealias Failure = Downstream.Failure

    private let lock = Lock()
    private let downstream: Downstream
    private var upstream = UpstreamLifecycle()
    private var last: Context.SchedulerTimeType?
    private let scheduler: Context

    init(downstream: Downstream, scheduler: Context) {
        self.downstream = downstream
        self.scheduler = scheduler
    }

    var description: String { "MeasureInterval" }

    func receive(subscription: any Subscription) {
        lock.lock()
        let attached = upstream.attach(subscription)
        if attached { last = scheduler.now }
        lock.unlock()
        guard attached else {
            subscription.cancel()
            return
        }
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard let subscription = upstream.live, let previous = last else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        let now = scheduler.now
        lock.lock()
        last = now
        lock.unlock()
        // Combine passes downstream's extra demand on with a request rather than as the return value.
        let extra = downstream.receive(previous.distance(to: now))
        if extra > 0 { subscription.request(extra) }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        let passes = upstream.complete()
        lock.unlock()
        if passes { downstream.receive(completion: completion) }
    }

    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        let subscription = upstream.live
        lock.unlock()
        subscription?.request(demand)
    }

    func cancel() {
        lock.lock()
        let subscription = upstream.cancel()
        lock.unlock()
        subscription?.cancel()
    }
}

extension MeasureIntervalInner: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// No children, as in Combine.
    var customMirror: Mirror { Mirror(self, children: []) }

    /// "MeasureInterval".
    var playgroundDescription: Any { description }
}
