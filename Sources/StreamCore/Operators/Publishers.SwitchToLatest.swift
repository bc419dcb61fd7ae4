extension Publisher where Output: Publisher, Output.Failure == Failure {
    /// Republishes elements from the most recent inner publisher: a new inner publisher cancels the previous one.
    /// Finishes when upstream and the latest inner publisher have both finished; fails at the first failure of either.
    ///
    /// An inner publisher that sends beyond the downstream's demand, or completes before sending its subscription,
    /// traps, as in Combine.
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Output: Publisher, Failure == Never {
    /// Switches to the latest inner publisher when upstream can't fail: upstream takes the inner failure type.
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Publishers.SetFailureType<Self, Output.Failure>> {
        Publishers.SwitchToLatest(upstream: Publishers.SetFailureType(upstream: self))
    }
}

extension Publisher where Output: Publisher, Failure == Never, Output.Failure == Never {
    /// Switches to the latest inner publisher when neither side can fail.
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Output: Publisher, Output.Failure == Never {
    /// Switches to the latest inner publisher when the inner publishers can't fail: they take upstream's failure type.
    @inlinable
    public func switchToLatest()
        -> Publishers.SwitchToLatest<
            Publishers.SetFailureType<Output, Failure>, Publishers.Map<Self, Publishers.SetFailureType<Output, Failure>>
        >
    {
        Publishers.SwitchToLatest(upstream: Publishers.Map(upstream: self) { Publishers.SetFailureType(upstream: $0) })
    }
}

extension Publishers {
    /// A publisher that flattens nested publishers, republishing only the most recent inner publisher's elements.
    public struct SwitchToLatest<P: Publisher, Upstream: Publisher>: Publisher
    where Upstream.Output == P, P.Failure == Upstream.Failure {
        /// The inner publishers' output.
        public typealias Output = P.Output
        /// The failure shared by upstream and the inner publishers.
        public typealias Failure = P.Failure

        /// The publisher of publishers.
        public let upstream: Upstream

        /// Creates the operator; prefer `switchToLatest()`.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Subscribes to upstream with unlimited demand; downstream demand goes to the current inner publisher. As in
        /// Combine, one object is both the subscription downstream holds and the subscriber upstream sees.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let storage = SwitchToLatestStorage<S, P>(downstream: subscriber)
            subscriber.receive(subscription: storage)
            upstream.subscribe(storage)
        }
    }
}

/// switchToLatest's state. Inner publishers are numbered; only the latest one's events count, so a cancelled inner
/// publisher that still races a value in is ignored.
///
/// Combine's recorded quirks are kept: upstream's failure cancels the inner subscription and reaches downstream, but
/// closes nothing (the latest inner publisher's values still pass, its completion is ignored), and upstream's
/// completions reach downstream each time they arrive while no inner publisher is live. Only a cancel, the latest
/// inner publisher's failure, and its finish after upstream's close the stream.
@usableFromInline
internal struct SwitchToLatestStateMachine<Output, Failure: Error> {
    @usableFromInline internal var queue = DeliveryQueue<Output, Failure>()
    @usableFromInline internal var outer: (any Subscription)?
    @usableFromInline internal var outerFinished = false
    @usableFromInline internal var latestID = 0
    // The current inner subscription is a plain existential plus a flag: an Optional existential is tested and copied
    // through value witnesses, which showed per element in the profile.
    @usableFromInline internal var currentInner: any Subscription = Subscriptions.empty
    @usableFromInline internal var hasInner = false
    /// The latest inner publisher was subscribed to and has not completed.
    @usableFromInline internal var innerActive = false
    /// Upstream failed: the latest inner publisher's completion no longer counts.
    @usableFromInline internal var innerCompletionIgnored = false

    /// The current inner subscription, for the paths that don't run per element.
    @inlinable
    internal var inner: (any Subscription)? {
        get { hasInner ? currentInner : nil }
        set {
            if let newValue {
                currentInner = newValue
                hasInner = true
            } else {
                currentInner = Subscriptions.empty
                hasInner = false
            }
        }
    }

    @inlinable internal init() {}

    @inlinable
    internal mutating func outerSubscribed(_ subscription: any Subscription) -> Bool {
        guard outer == nil, !outerFinished, !queue.isClosed else { return false }
        outer = subscription
        return true
    }

    /// Upstream sent a new inner publisher: its number (-1: upstream is over), and the previous inner subscription
    /// to cancel when the flag says there is one.
    @inlinable
    internal mutating func newInner() -> (Int, any Subscription, Bool) {
        if queue.isClosed || outerFinished { return (-1, currentInner, false) }
        latestID += 1
        let previous = currentInner
        let hadPrevious = hasInner
        if hadPrevious {
            currentInner = Subscriptions.empty
            hasInner = false
        }
        innerActive = true
        return (latestID, previous, hadPrevious)
    }

    /// What to do with an inner subscription.
    @usableFromInline
    internal enum InnerSubscribed {
        case request(Subscribers.Demand)
        case cancel
        /// The latest inner publisher already finished: Combine neither keeps nor cancels a late subscription.
        case ignore
    }

    @inlinable
    internal mutating func innerSubscribed(_ id: Int, _ subscription: any Subscription) -> InnerSubscribed {
        if queue.isClosed { return .cancel }
        if id == latestID && !innerActive { return .ignore }
        guard id == latestID, !hasInner else { return .cancel }
        currentInner = subscription
        hasInner = true
        return .request(queue.demand)
    }

    /// What to do with an inner value.
    @usableFromInline
    internal enum InnerValue {
        case ignore
        /// Queued behind a delivery in progress.
        case queued
        case deliver
        /// A value no demand allowed for, which Combine traps on.
        case beyondDemand
    }

    @inlinable
    internal mutating func innerValue(_ id: Int, _ value: Output) -> InnerValue {
        guard id == latestID, !queue.isClosed else { return .ignore }
        if queue.demand == .none { return .beyondDemand }
        return queue.offer(value, tag: id) ? .deliver : .queued
    }

    /// After a delivery: whether downstream's extra demand goes to the current inner subscription, and the next step.
    @inlinable
    internal mutating func delivered(
        _ id: Int, extra: Subscribers.Demand
    ) -> (Bool, DeliveryQueue<Output, Failure>.Step) {
        let step = queue.delivered(extra: extra)
        return (extra > 0 && id == latestID, step)
    }

    /// The inner publisher `id` completed before it sent its subscription: Combine traps on that.
    ///
    /// `mutating` though it changes nothing: called on the storage's stored machine, a non-mutating method gets a copy
    /// of the whole struct (every existential retained and released), which showed per element in the profile.
    @inlinable
    internal mutating func completesBeforeSubscription(_ id: Int) -> Bool {
        id == latestID && innerActive && !hasInner && !innerCompletionIgnored && !queue.isClosed
    }

    @inlinable
    internal mutating func innerFinished(_ id: Int) -> DeliveryQueue<Output, Failure>.Step {
        guard id == latestID, innerActive, !innerCompletionIgnored, !queue.isClosed else { return .idle }
        innerActive = false
        // The flag and the placeholder directly, not `inner = nil`: this runs once per inner publisher, and the
        // Optional setter goes through the existential's value witnesses.
        currentInner = Subscriptions.empty
        hasInner = false
        if outerFinished { return queue.complete(.finished, flush: true) }
        return .idle
    }

    /// The latest inner publisher failed: upstream's subscription to cancel, and the next step.
    @inlinable
    internal mutating func innerFailed(
        _ id: Int, _ failure: Failure
    ) -> ((any Subscription)?, DeliveryQueue<Output, Failure>.Step) {
        guard id == latestID, innerActive, !innerCompletionIgnored, !queue.isClosed else { return (nil, .idle) }
        innerActive = false
        inner = nil
        outerFinished = true
        let pendingOuter = outer
        outer = nil
        return (pendingOuter, queue.complete(.failure(failure), flush: false))
    }

    /// What upstream's completion does.
    @usableFromInline
    internal enum OuterCompleted {
        case ignore
        /// Hand this completion downstream without closing the stream (Combine's behaviour).
        case send(Subscribers.Completion<Failure>)
        /// Run this step (a completion that waited for values in flight closes the stream).
        case step(DeliveryQueue<Output, Failure>.Step)
    }

    /// Upstream completed: the inner subscription to cancel (on a failure), and what to do.
    @inlinable
    internal mutating func outerCompleted(
        _ completion: Subscribers.Completion<Failure>
    ) -> ((any Subscription)?, OuterCompleted) {
        if queue.isClosed { return (nil, .ignore) }
        outerFinished = true
        outer = nil
        var toCancel: (any Subscription)?
        if case .failure = completion {
            toCancel = inner
            inner = nil
            innerCompletionIgnored = true
        } else if innerActive && !innerCompletionIgnored {
            return (nil, .ignore)
        }
        // Serialized with the values: while one is being delivered, the completion waits for it, and closes.
        if queue.delivering || queue.hasBuffered {
            return (toCancel, .step(queue.complete(completion, flush: true)))
        }
        return (toCancel, .send(completion))
    }

    /// Downstream cancelled: what to cancel (the inner subscription first, as Combine does).
    @inlinable
    internal mutating func cancel() -> ((any Subscription)?, (any Subscription)?)? {
        if queue.closed { return nil }
        let cancelled = (inner, outer)
        outer = nil
        inner = nil
        innerActive = false
        outerFinished = true
        queue.cancel()
        return cancelled
    }
}

/// switchToLatest's subscription, and its subscriber to upstream (one object, as in Combine). As in Combine, it keeps
/// its downstream for its whole life.
@usableFromInline
internal final class SwitchToLatestStorage<Downstream: Subscriber, Inner: Publisher>: Subscriber, Subscription,
    CustomStringConvertible
where Inner.Output == Downstream.Input, Inner.Failure == Downstream.Failure {
    @usableFromInline typealias Input = Inner
    @usableFromInline typealias Failure = Downstream.Failure
    @usableFromInline typealias Machine = SwitchToLatestStateMachine<Downstream.Input, Downstream.Failure>
    @usableFromInline typealias Step = DeliveryQueue<Downstream.Input, Downstream.Failure>.Step

    @usableFromInline internal let lock = Lock()
    // Only touched under `lock`, so the runtime's exclusivity checks would be pure cost.
    @usableFromInline @exclusivity(unchecked) internal var machine = Machine()
    @usableFromInline internal let downstream: Downstream

    @inlinable
    internal init(downstream: Downstream) {
        self.downstream = downstream
    }

    @usableFromInline
    internal var description: String { "SwitchToLatest" }

    @inlinable
    internal func run(_ first: Step) {
        var step = first
        while true {
            switch step {
            case .idle:
                return
            case .complete(let completion):
                downstream.receive(completion: completion)
                return
            case .deliver(let value, let tag):
                let extra = downstream.receive(value)
                lock.lock()
                let (forward, next) = machine.delivered(tag, extra: extra)
                let inner: (any Subscription)? = forward && machine.hasInner ? machine.currentInner : nil
                lock.unlock()
                inner?.request(extra)
                step = next
            }
        }
    }

    @inlinable
    internal func receive(subscription: any Subscription) {
        lock.lock()
        let accepted = machine.outerSubscribed(subscription)
        lock.unlock()
        if accepted {
            subscription.request(.unlimited)
        } else {
            subscription.cancel()
        }
    }

    @inlinable
    internal func receive(_ input: Inner) -> Subscribers.Demand {
        lock.lock()
        let (id, previous, hadPrevious) = machine.newInner()
        lock.unlock()
        if id < 0 { return .none }
        if hadPrevious { previous.cancel() }
        input.subscribe(SwitchToLatestInner(storage: self, id: id))
        return .none
    }

    @inlinable
    internal func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        lock.lock()
        let (inner, action) = machine.outerCompleted(completion)
        lock.unlock()
        inner?.cancel()
        switch action {
        case .ignore:
            return
        case .send(let completion):
            downstream.receive(completion: completion)
        case .step(let step):
            run(step)
        }
    }

    @inlinable
    internal func innerSubscribed(_ id: Int, _ subscription: any Subscription) {
        lock.lock()
        let action = machine.innerSubscribed(id, subscription)
        lock.unlock()
        switch action {
        case .request(let demand):
            if demand != .none { subscription.request(demand) }
        case .cancel:
            subscription.cancel()
        case .ignore:
            return
        }
    }

    @inlinable
    internal func innerValue(_ id: Int, _ value: Downstream.Input) -> Subscribers.Demand {
        lock.lock()
        switch machine.innerValue(id, value) {
        case .ignore, .queued:
            lock.unlock()
            return .none
        case .beyondDemand:
            lock.unlock()
            preconditionFailure("switchToLatest received a value beyond the demand from an inner publisher")
        case .deliver:
            lock.unlock()
        }
        let extra = downstream.receive(value)
        lock.lock()
        let (forward, next) = machine.delivered(id, extra: extra)
        lock.unlock()
        run(next)
        return forward ? extra : .none
    }

    @inlinable
    internal func innerCompleted(_ id: Int, _ completion: Subscribers.Completion<Downstream.Failure>) {
        lock.lock()
        if machine.completesBeforeSubscription(id) {
            lock.unlock()
            preconditionFailure("switchToLatest: an inner publisher completed before sending its subscription")
        }
        switch completion {
        case .finished:
            let step = machine.innerFinished(id)
            lock.unlock()
            run(step)
        case .failure(let error):
            let (outer, step) = machine.innerFailed(id, error)
            lock.unlock()
            outer?.cancel()
            run(step)
        }
    }

    @inlinable
    internal func request(_ demand: Subscribers.Demand) {
        precondition(demand != .none, "demand must not be .none")
        lock.lock()
        let step = machine.queue.request(demand)
        let inner = machine.queue.isClosed ? nil : machine.inner
        lock.unlock()
        inner?.request(demand)
        run(step)
    }

    @inlinable
    internal func cancel() {
        lock.lock()
        let cancelled = machine.cancel()
        lock.unlock()
        // Inner first, then upstream: the order Combine's switchToLatest cancels in.
        cancelled?.0?.cancel()
        cancelled?.1?.cancel()
    }
}

extension SwitchToLatestStorage: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// No children.
    @usableFromInline internal var customMirror: Mirror { Mirror(self, children: []) }
    /// "SwitchToLatest".
    @usableFromInline internal var playgroundDescription: Any { description }
}

/// The subscriber to one inner publisher: its own identifier, and a mirror naming the operator's subscription.
@usableFromInline
internal struct SwitchToLatestInner<Downstream: Subscriber, Inner: Publisher>: Subscriber, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
where Inner.Output == Downstream.Input, Inner.Failure == Downstream.Failure {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline internal let storage: SwitchToLatestStorage<Downstream, Inner>
    @usableFromInline internal let id: Int
    @usableFromInline internal let combineIdentifier = CombineIdentifier()

    @inlinable
    internal init(storage: SwitchToLatestStorage<Downstream, Inner>, id: Int) {
        self.storage = storage
        self.id = id
    }

    @usableFromInline
    internal var description: String { "SwitchToLatest" }

    /// The operator's subscription, by its identifier, as in Combine.
    @usableFromInline
    internal var customMirror: Mirror { Mirror(self, children: ["parentSubscription": storage.combineIdentifier]) }

    /// "SwitchToLatest".
    @usableFromInline
    internal var playgroundDescription: Any { description }

    @inlinable
    internal func receive(subscription: any Subscription) {
        storage.innerSubscribed(id, subscription)
    }

    @inlinable
    internal func receive(_ input: Input) -> Subscribers.Demand {
        storage.innerValue(id, input)
    }

    @inlinable
    internal func receive(completion: Subscribers.Completion<Failure>) {
        storage.innerCompleted(id, completion)
    }
}
