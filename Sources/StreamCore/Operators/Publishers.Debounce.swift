extension Publisher {
    /// Publishes an element only after `dueTime` has passed without another element.
    ///
    /// As in Combine: upstream is asked for unlimited elements; each element restarts the timer; an element that falls
    /// due while downstream has no demand is dropped; a completion is delivered at once (scheduled without delay and
    /// without `options`), and an element still waiting for its due time is discarded.
    @inlinable
    public func debounce<S: Scheduler>(
        for dueTime: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil
    ) -> Publishers.Debounce<Self, S> {
        Publishers.Debounce(upstream: self, dueTime: dueTime, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher that publishes elements only after a specified time interval elapses between events.
    public struct Debounce<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// Upstream's output.
        public typealias Output = Upstream.Output
        /// Upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher this operator receives elements from.
        public let upstream: Upstream
        /// How long upstream must stay quiet before the latest element is published.
        public let dueTime: Context.SchedulerTimeType.Stride
        /// The scheduler that times and delivers elements.
        public let scheduler: Context
        /// Options for every schedule call.
        public let options: Context.SchedulerOptions?

        /// Creates the operator; prefer `debounce(for:scheduler:options:)`.
        public init(
            upstream: Upstream, dueTime: Context.SchedulerTimeType.Stride, scheduler: Context,
            options: Context.SchedulerOptions?
        ) {
            self.upstream = upstream
            self.dueTime = dueTime
            self.scheduler = scheduler
            self.options = options
        }

        /// Subscribes to upstream with unlimited demand.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                DebounceInner<Upstream, Context, S>(
                    downstream: subscriber, dueTime: dueTime, scheduler: scheduler, options: options))
        }
    }
}

/// debounce's state: the latest element and the timer that would publish it, numbered so a stale timer does nothing.
private struct DebounceStateMachine<Output> {
    var pending: Output?
    var generation = 0
    var timer: (any Cancellable)?
    var demand: Subscribers.Demand = .none
    var terminal = false

    /// A new element: its number and the timer it replaces.
    mutating func element(_ value: Output) -> (Int, (any Cancellable)?)? {
        if terminal { return nil }
        generation += 1
        pending = value
        let old = timer
        timer = nil
        return (generation, old)
    }

    /// The timer for element `number` was set up; returns it back if it is already stale (to cancel).
    mutating func timerStarted(_ number: Int, _ token: any Cancellable) -> (any Cancellable)? {
        if terminal || number != generation || pending == nil { return token }
        timer = token
        return nil
    }

    /// The timer for element `number` fired: the element to deliver (if still current and wanted) and the timer to stop.
    mutating func fire(_ number: Int) -> (Output?, (any Cancellable)?) {
        guard !terminal, number == generation, let value = pending else { return (nil, nil) }
        pending = nil
        let old = timer
        timer = nil
        guard demand > 0 else { return (nil, old) }
        demand -= 1
        return (value, old)
    }

    /// The stream ends: the timer to stop.
    mutating func end() -> (any Cancellable)?? {
        if terminal { return nil }
        terminal = true
        pending = nil
        let old = timer
        timer = nil
        return .some(old)
    }
}

private final class DebounceInner<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>:
    Subscriber, Subscription, CustomStringConvertible
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    typealias Input = Upstream.Output
    typealias Failure = Upstream.Failure

    private let lock = Lock()
    private var machine = DebounceStateMachine<Input>()
    private var downstream: Downstream?
    private var upstream: (any Subscription)?
    /// The downstream cancelled: a completion already scheduled is not delivered.
    private var cancelled = false
    private let dueTime: Context.SchedulerTimeType.Stride
    private let scheduler: Context
    private let options: Context.SchedulerOptions?

    init(
        downstream: Downstream, dueTime: Context.SchedulerTimeType.Stride, scheduler: Context,
        options: Context.SchedulerOptions?
    ) {
        self.downstream = downstream
        self.dueTime = dueTime
        self.scheduler = scheduler
        self.options = options
    }

    var description: String { "Debounce" }

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
        subscription.request(.unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        let decision = upstream == nil ? nil : machine.element(input)
        lock.unlock()
        guard let (number, old) = decision else { return .none }
        old?.cancel()
        let token = scheduler.schedule(
            after: scheduler.now.advanced(by: dueTime), interval: dueTime, tolerance: scheduler.minimumTolerance,
            options: options
        ) { [self] in
            // Strong, as in Combine: a pending timer keeps the subscription (and its subscriber) alive until it fires
            // or the stream ends.
            fire(number)
        }
        lock.lock()
        let stale = machine.timerStarted(number, token)
        lock.unlock()
        stale?.cancel()
        return .none
    }

    private func fire(_ number: Int) {
        lock.lock()
        let (value, timer) = machine.fire(number)
        let target = downstream
        lock.unlock()
        timer?.cancel()
        guard let value, let target else { return }
        let extra = target.receive(value)
        if extra > 0 {
            lock.lock()
            machine.demand += extra
            lock.unlock()
        }
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard upstream != nil, let timer = machine.end() else {
            lock.unlock()
            return
        }
        upstream = nil
        lock.unlock()
        timer?.cancel()
        // Without the operator's options, as in Combine: they are for the timers.
        scheduler.schedule(options: nil) { [self] in
            lock.lock()
            let target = cancelled ? nil : downstream
            downstream = nil
            lock.unlock()
            target?.receive(completion: completion)
        }
    }

    func request(_ demand: Subscribers.Demand) {
        precondition(demand != .none, "demand must not be .none")
        lock.lock()
        machine.demand += demand
        lock.unlock()
    }

    /// As in Combine, the downstream is not released here: a timer already handed to the scheduler holds this
    /// subscription (and so its subscriber) until the scheduler lets it go.
    func cancel() {
        lock.lock()
        let timer = machine.end()
        let subscription = upstream
        upstream = nil
        cancelled = true
        lock.unlock()
        timer??.cancel()
        subscription?.cancel()
    }
}

extension DebounceInner: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// The downstream, its outstanding demand and the element waiting for its due time, as in Combine.
    var customMirror: Mirror {
        lock.lock()
        let demand = machine.demand
        let pending = machine.pending
        let target = downstream
        lock.unlock()
        return Mirror(
            self,
            children: ["downstream": mirrorValue(target), "downstreamDemand": demand, "currentValue": pending as Any])
    }

    /// "Debounce".
    var playgroundDescription: Any { description }
}
