extension Publisher {
    /// Collects elements into arrays published every interval of the strategy's scheduler, or (`.byTimeOrCount`) as
    /// soon as an array reaches its maximum size. An empty interval publishes nothing. A finish publishes the partial
    /// array first; a failure discards it.
    @inlinable
    public func collect<S: Scheduler>(
        _ strategy: Publishers.TimeGroupingStrategy<S>, options: S.SchedulerOptions? = nil
    ) -> Publishers.CollectByTime<Self, S> {
        Publishers.CollectByTime(upstream: self, strategy: strategy, options: options)
    }
}

extension Publishers {
    /// A strategy for collecting received elements.
    public enum TimeGroupingStrategy<Context: Scheduler> {
        /// Collects elements for each interval of the scheduler.
        case byTime(Context, Context.SchedulerTimeType.Stride)
        /// Collects elements for each interval, or until the given count is reached.
        case byTimeOrCount(Context, Context.SchedulerTimeType.Stride, Int)
    }

    /// A publisher that buffers and periodically publishes its items.
    public struct CollectByTime<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// Each group of elements.
        public typealias Output = [Upstream.Output]
        /// Upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher this operator receives elements from.
        public let upstream: Upstream
        /// When a group is published.
        public let strategy: TimeGroupingStrategy<Context>
        /// Options for every schedule call.
        public let options: Context.SchedulerOptions?

        /// Creates the operator; prefer `collect(_:options:)`.
        public init(upstream: Upstream, strategy: TimeGroupingStrategy<Context>, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.strategy = strategy
            self.options = options
        }

        /// Subscribes to upstream; the interval timer starts with the subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let (scheduler, interval, count): (Context, Context.SchedulerTimeType.Stride, Int?)
            switch strategy {
            case .byTime(let context, let stride): (scheduler, interval, count) = (context, stride, nil)
            case .byTimeOrCount(let context, let stride, let limit):
                (scheduler, interval, count) = (context, stride, Swift.max(1, limit))
            }
            upstream.subscribe(
                CollectByTimeInner<Upstream.Output, Context, S>(
                    downstream: subscriber, scheduler: scheduler, interval: interval, count: count, options: options))
        }
    }
}

/// Groups are handed to a `DeliveryQueue`, so a group made while downstream has no demand waits rather than vanishing,
/// and the timer's thread and upstream's thread never call downstream at once.
private final class CollectByTimeInner<Element, Context: Scheduler, Downstream: Subscriber>:
    Subscriber, Subscription, CustomStringConvertible
where Downstream.Input == [Element] {
    typealias Input = Element
    typealias Failure = Downstream.Failure

    private let lock = Lock()
    private var queue = DeliveryQueue<[Element], Failure>()
    private var downstream: Downstream?
    private var upstream: (any Subscription)?
    private var group: [Element] = []
    private var timer: (any Cancellable)?
    private let scheduler: Context
    private let interval: Context.SchedulerTimeType.Stride
    private let count: Int?
    private let options: Context.SchedulerOptions?

    init(
        downstream: Downstream, scheduler: Context, interval: Context.SchedulerTimeType.Stride, count: Int?,
        options: Context.SchedulerOptions?
    ) {
        self.downstream = downstream
        self.scheduler = scheduler
        self.interval = interval
        self.count = count
        self.options = options
    }

    var description: String { "CollectByTime" }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard upstream == nil, !queue.isClosed, let target = downstream else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstream = subscription
        lock.unlock()
        let token = scheduler.schedule(
            after: scheduler.now.advanced(by: interval), interval: interval, tolerance: scheduler.minimumTolerance,
            options: options
        ) { [weak self] in
            self?.tick()
        }
        lock.lock()
        let live = !queue.isClosed
        if live { timer = token }
        lock.unlock()
        if !live { token.cancel() }
        target.receive(subscription: self)
        // By time, upstream is asked for everything; by count, `count` elements per group downstream asks for.
        if count == nil { subscription.request(.unlimited) }
    }

    private func tick() {
        lock.lock()
        guard !group.isEmpty, !queue.isClosed else {
            lock.unlock()
            return
        }
        let full = group
        group = []
        let deliverNow = queue.offer(full, tag: 0)
        lock.unlock()
        if deliverNow { run(.deliver(full, tag: 0)) }
    }

    private func run(_ first: DeliveryQueue<[Element], Failure>.Step) {
        var step = first
        while true {
            switch step {
            case .idle:
                return
            case .complete(let completion):
                lock.lock()
                let target = downstream
                let token = timer
                downstream = nil
                upstream = nil
                timer = nil
                lock.unlock()
                token?.cancel()
                target?.receive(completion: completion)
                return
            case .deliver(let values, _):
                lock.lock()
                let target = downstream
                lock.unlock()
                let extra = target?.receive(values) ?? .none
                lock.lock()
                step = queue.delivered(extra: extra)
                let subscription = count != nil && extra > 0 ? upstream : nil
                lock.unlock()
                if let subscription, let count { subscription.request(extra * count) }
            }
        }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard !queue.isClosed, upstream != nil else {
            lock.unlock()
            return .none
        }
        group.append(input)
        guard let count, group.count >= count else {
            lock.unlock()
            return .none
        }
        let full = group
        group = []
        let deliverNow = queue.offer(full, tag: 0)
        lock.unlock()
        if deliverNow { run(.deliver(full, tag: 0)) }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard !queue.isClosed, upstream != nil else {
            lock.unlock()
            return
        }
        upstream = nil
        var step = DeliveryQueue<[Element], Failure>.Step.idle
        if case .finished = completion, !group.isEmpty {
            let last = group
            group = []
            if queue.offer(last, tag: 0) { step = .deliver(last, tag: 0) }
        }
        let end = queue.complete(completion, flush: true)
        lock.unlock()
        if case .idle = step { step = end }
        run(step)
    }

    func request(_ demand: Subscribers.Demand) {
        precondition(demand != .none, "demand must not be .none")
        lock.lock()
        let step = queue.request(demand)
        let subscription = count != nil ? upstream : nil
        lock.unlock()
        if let subscription, let count { subscription.request(demand * count) }
        run(step)
    }

    func cancel() {
        lock.lock()
        queue.cancel()
        let subscription = upstream
        let token = timer
        upstream = nil
        downstream = nil
        timer = nil
        group = []
        lock.unlock()
        token?.cancel()
        subscription?.cancel()
    }
}
