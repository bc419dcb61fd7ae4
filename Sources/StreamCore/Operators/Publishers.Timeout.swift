extension Publisher {
    /// Ends the stream if upstream goes `interval` without an element (counted from the subscription, then from each
    /// element): it finishes, or fails with `customError()` when one is given. Elements and the completion are
    /// delivered on `scheduler`.
    @inlinable
    public func timeout<S: Scheduler>(
        _ interval: S.SchedulerTimeType.Stride,
        scheduler: S,
        options: S.SchedulerOptions? = nil,
        customError: (() -> Failure)? = nil
    ) -> Publishers.Timeout<Self, S> {
        Publishers.Timeout(
            upstream: self, interval: interval, scheduler: scheduler, options: options,
            customError: customError)
    }
}

extension Publishers {
    /// A publisher that terminates publishing if upstream exceeds a specified time interval without producing an element.
    public struct Timeout<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// Upstream's output.
        public typealias Output = Upstream.Output
        /// Upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher this operator receives elements from.
        public let upstream: Upstream
        /// The longest allowed silence.
        public let interval: Context.SchedulerTimeType.Stride
        /// The scheduler that times upstream and delivers downstream.
        public let scheduler: Context
        /// Options for every schedule call.
        public let options: Context.SchedulerOptions?
        /// Makes the failure sent on timeout; nil finishes normally instead.
        public let customError: (() -> Upstream.Failure)?

        /// Creates the operator; prefer `timeout(_:scheduler:options:customError:)`.
        public init(
            upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
            options: Context.SchedulerOptions?, customError: (() -> Upstream.Failure)?
        ) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.options = options
            self.customError = customError
        }

        /// Subscribes to upstream; the timer starts with the subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                TimeoutInner<Upstream, Context, S>(
                    downstream: subscriber, interval: interval, scheduler: scheduler,
                    options: options, customError: customError))
        }
    }
}

/// As in Combine: the timer and every scheduled delivery hold the subscription (and with it the subscriber) until
/// they have run or been cancelled; a cancel before the upstream subscription is ignored; a cancel after upstream
/// completed still reaches upstream, and stops the completion that is still scheduled.
private final class TimeoutInner<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>:
    Subscriber, Subscription, CustomStringConvertible
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    typealias Input = Upstream.Output
    typealias Failure = Upstream.Failure

    private let lock = Lock()
    private let downstream: Downstream
    private var upstream: (any Subscription)?
    private var cancelled = false
    private var timer: (any Cancellable)?
    private var generation = 0
    private var terminal = false
    private var requested = false
    /// The thread scheduling a timer, while it does.
    private var startingTimer: ThreadIdentity?
    private let interval: Context.SchedulerTimeType.Stride
    private let scheduler: Context
    private let options: Context.SchedulerOptions?
    private var customError: (() -> Failure)?

    init(
        downstream: Downstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
        options: Context.SchedulerOptions?, customError: (() -> Failure)?
    ) {
        self.downstream = downstream
        self.interval = interval
        self.scheduler = scheduler
        self.options = options
        self.customError = customError
    }

    var description: String { "Timeout" }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard upstream == nil, !terminal, !cancelled else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstream = subscription
        lock.unlock()
        restartTimer()
        downstream.receive(subscription: self)
    }

    /// Starts a new timer, replacing the running one.
    private func restartTimer() {
        lock.lock()
        if terminal {
            lock.unlock()
            return
        }
        generation += 1
        let number = generation
        let old = timer
        timer = nil
        startingTimer = ThreadIdentity.current
        lock.unlock()
        old?.cancel()
        let token = scheduler.schedule(
            after: scheduler.now.advanced(by: interval), interval: interval, tolerance: scheduler.minimumTolerance,
            options: options
        ) { [self] in
            timedOut(number)
        }
        lock.lock()
        startingTimer = nil
        if terminal || number != generation {
            lock.unlock()
            token.cancel()
            return
        }
        timer = token
        lock.unlock()
    }

    private func timedOut(_ number: Int) {
        lock.lock()
        if let starting = startingTimer, starting.isCurrent {
            lock.unlock()
            // Combine's lock is held while the timer is scheduled; a scheduler that runs it at once (such as
            // ImmediateScheduler) takes it a second time, which traps.
            preconditionFailure("Timeout's timer fired while it was being scheduled: the scheduler cannot time it")
        }
        guard !terminal, number == generation else {
            lock.unlock()
            return
        }
        terminal = true
        let subscription = upstream
        let token = timer
        let makeError = customError
        upstream = nil
        timer = nil
        customError = nil
        lock.unlock()
        token?.cancel()
        subscription?.cancel()
        downstream.receive(completion: makeError.map { .failure($0()) } ?? .finished)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard !terminal, !cancelled else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        restartTimer()
        scheduler.schedule(options: options) { [self] in
            lock.lock()
            let live = !cancelled
            lock.unlock()
            guard live else { return }
            let extra = downstream.receive(input)
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
        guard !terminal, !cancelled, upstream != nil else {
            lock.unlock()
            return
        }
        terminal = true
        let token = timer
        timer = nil
        customError = nil
        lock.unlock()
        token?.cancel()
        scheduler.schedule(options: options) { [self] in
            lock.lock()
            let live = !cancelled
            lock.unlock()
            guard live else { return }
            downstream.receive(completion: completion)
        }
    }

    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        let subscription = upstream
        let first = !requested
        requested = true
        lock.unlock()
        subscription?.request(demand)
        // Combine restarts the timer at downstream's first request, so the wait counts from when values were wanted.
        if first { restartTimer() }
    }

    func cancel() {
        lock.lock()
        guard upstream != nil, !cancelled else {
            // Before the subscription (or a second time): ignored.
            lock.unlock()
            return
        }
        cancelled = true
        terminal = true
        let subscription = upstream
        let token = timer
        upstream = nil
        timer = nil
        customError = nil
        lock.unlock()
        token?.cancel()
        subscription?.cancel()
    }
}

extension TimeoutInner: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// No children, as in Combine.
    var customMirror: Mirror { Mirror(self, children: []) }

    /// "Timeout".
    var playgroundDescription: Any { description }
}
