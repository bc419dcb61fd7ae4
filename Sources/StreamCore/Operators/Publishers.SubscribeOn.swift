extension Publisher {
    /// Performs the subscription to upstream, and every later request and cancel, on `scheduler`.
    @inlinable
    public func subscribe<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil)
        -> Publishers.SubscribeOn<Self, S>
    {
        Publishers.SubscribeOn(upstream: self, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher that receives elements from an upstream publisher on a specific scheduler.
    public struct SubscribeOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// Upstream's output.
        public typealias Output = Upstream.Output
        /// Upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher this operator subscribes to.
        public let upstream: Upstream
        /// The scheduler that subscribes, requests and cancels.
        public let scheduler: Context
        /// Options for every schedule call.
        public let options: Context.SchedulerOptions?

        /// Creates the operator; prefer `subscribe(on:options:)`.
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        /// Schedules the subscription to upstream; values and completion pass straight through.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let scheduler = self.scheduler
            let options = self.options
            let inner = SubscribeOnInner(downstream: subscriber) { scheduler.schedule(options: options, $0) }
            let upstream = self.upstream
            scheduler.schedule(options: options) {
                upstream.subscribe(inner)
            }
        }
    }
}

/// As in Combine: events before the upstream subscription (a value, a completion, a cancel) are ignored, the
/// downstream is held for the subscription's whole life, and each scheduled request or cancel holds the subscription
/// until it has run.
private final class SubscribeOnInner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let lock = Lock()
    private let downstream: Downstream
    private var upstream = UpstreamLifecycle()
    /// The thread inside the upstream's `request`, while one is.
    private var requesting: ThreadIdentity?
    private let schedule: (@escaping () -> Void) -> Void

    init(downstream: Downstream, schedule: @escaping (@escaping () -> Void) -> Void) {
        self.downstream = downstream
        self.schedule = schedule
    }

    var description: String { "SubscribeOn" }

    func receive(subscription: any Subscription) {
        lock.lock()
        let attached = upstream.attach(subscription)
        lock.unlock()
        guard attached else {
            subscription.cancel()
            return
        }
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        let live = upstream.live != nil
        lock.unlock()
        return live ? downstream.receive(input) : .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        let passes = upstream.complete()
        lock.unlock()
        if passes { downstream.receive(completion: completion) }
    }

    /// A request made by the upstream's own `request` on the same thread (recursion) traps, as in Combine, whose
    /// lock is held around the upstream's `request`; one from another thread is passed on.
    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        if let requesting, requesting.isCurrent {
            lock.unlock()
            preconditionFailure("SubscribeOn was asked for demand from inside its upstream's request")
        }
        guard let subscription = upstream.live else {
            lock.unlock()
            return
        }
        lock.unlock()
        schedule { [self] in
            lock.lock()
            let outermost = requesting == nil
            if outermost { requesting = ThreadIdentity.current }
            lock.unlock()
            subscription.request(demand)
            if outermost {
                lock.lock()
                requesting = nil
                lock.unlock()
            }
        }
    }

    func cancel() {
        lock.lock()
        let cancelled = upstream.cancel()
        lock.unlock()
        guard let subscription = cancelled else { return }
        schedule { [self] in
            withExtendedLifetime(self) { subscription.cancel() }
        }
    }
}

extension SubscribeOnInner: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// No children, as in Combine.
    var customMirror: Mirror { Mirror(self, children: []) }

    /// "SubscribeOn".
    var playgroundDescription: Any { description }
}
