extension Publisher where Output: Publisher, Output.Failure == Failure {
    /// Republishes elements from the most recent inner publisher: a new inner publisher cancels the previous one.
    /// Finishes when upstream and the latest inner publisher have both finished; fails at the first failure of either.
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

        /// Subscribes to upstream with unlimited demand; downstream demand goes to the current inner publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let storage = SwitchToLatestStorage<S, P>(downstream: subscriber)
            subscriber.receive(subscription: storage)
            upstream.subscribe(SwitchToLatestOuter(storage: storage))
        }
    }
}

/// switchToLatest's state. Inner publishers are numbered; only the latest one's events count, so a cancelled inner
/// publisher that still races a value in is ignored.
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
    @usableFromInline internal var innerActive = false

    @inlinable internal init() {}

    /// Upstream sent a new inner publisher: its number (-1: the stream is over), and the previous inner subscription
    /// to cancel when the flag says there is one.
    @inlinable
    internal mutating func newInner() -> (Int, any Subscription, Bool) {
        if queue.isClosed { return (-1, currentInner, false) }
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

    /// Returns the demand to request from the inner subscription (`.none` for nothing), or nil to cancel it.
    @inlinable
    internal mutating func innerSubscribed(_ id: Int, _ subscription: any Subscription) -> Subscribers.Demand? {
        guard id == latestID, !hasInner, innerActive, !queue.isClosed else { return nil }
        currentInner = subscription
        hasInner = true
        return queue.demand
    }

    @inlinable
    internal mutating func innerValue(_ id: Int, _ value: Output) -> Bool {
        guard id == latestID else { return false }
        return queue.offer(value, tag: id)
    }

    /// After a delivery: whether downstream's extra demand goes to the current inner subscription, and the next step.
    @inlinable
    internal mutating func delivered(
        _ id: Int, extra: Subscribers.Demand
    ) -> (Bool, DeliveryQueue<Output, Failure>.Step) {
        let step = queue.delivered(extra: extra)
        return (extra > 0 && id == latestID, step)
    }

    @inlinable
    internal mutating func innerFinished(_ id: Int) -> DeliveryQueue<Output, Failure>.Step {
        guard id == latestID, innerActive else { return .idle }
        innerActive = false
        if hasInner {
            currentInner = Subscriptions.empty
            hasInner = false
        }
        if outerFinished { return queue.complete(.finished, flush: true) }
        return .idle
    }

    @inlinable
    internal mutating func outerFinishedNormally() -> DeliveryQueue<Output, Failure>.Step {
        outerFinished = true
        outer = nil
        if innerActive { return .idle }
        return queue.complete(.finished, flush: true)
    }

    /// A failure (from upstream or the latest inner publisher) or a cancel: what to cancel, and the next step.
    @inlinable
    internal mutating func terminate(
        _ failure: Failure?
    ) -> ((any Subscription)?, (any Subscription)?, DeliveryQueue<Output, Failure>.Step) {
        if queue.closed { return (nil, nil, .idle) }
        let cancelled = (outer, inner)
        outer = nil
        inner = nil
        innerActive = false
        outerFinished = true
        latestID += 1
        if let failure {
            if queue.pendingCompletion != nil { return (cancelled.0, cancelled.1, .idle) }
            return (cancelled.0, cancelled.1, queue.complete(.failure(failure), flush: false))
        }
        queue.cancel()
        return (cancelled.0, cancelled.1, .idle)
    }
}

@usableFromInline
internal final class SwitchToLatestStorage<Downstream: Subscriber, Inner: Publisher>: Subscription,
    CustomStringConvertible
where Inner.Output == Downstream.Input, Inner.Failure == Downstream.Failure {
    @usableFromInline typealias Machine = SwitchToLatestStateMachine<Downstream.Input, Downstream.Failure>
    @usableFromInline typealias Step = DeliveryQueue<Downstream.Input, Downstream.Failure>.Step

    @usableFromInline internal let lock = Lock()
    // Only touched under `lock`, so the runtime's exclusivity checks would be pure cost.
    @usableFromInline @exclusivity(unchecked) internal var machine = Machine()
    @usableFromInline @exclusivity(unchecked) internal var downstream: Downstream?

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
                lock.lock()
                let target = downstream
                downstream = nil
                lock.unlock()
                target?.receive(completion: completion)
                return
            case .deliver(let value, let tag):
                lock.lock()
                let target = downstream
                lock.unlock()
                let extra = target?.receive(value) ?? .none
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
    internal func outerSubscribed(_ subscription: any Subscription) {
        lock.lock()
        guard machine.outer == nil, !machine.outerFinished, !machine.queue.isClosed else {
            lock.unlock()
            subscription.cancel()
            return
        }
        machine.outer = subscription
        lock.unlock()
        subscription.request(.unlimited)
    }

    @inlinable
    internal func outerValue(_ publisher: Inner) {
        lock.lock()
        let (id, previous, hadPrevious) = machine.newInner()
        lock.unlock()
        if id < 0 { return }
        if hadPrevious { previous.cancel() }
        publisher.subscribe(SwitchToLatestInner(storage: self, id: id))
    }

    @inlinable
    internal func outerCompleted(_ completion: Subscribers.Completion<Downstream.Failure>) {
        switch completion {
        case .finished:
            lock.lock()
            let step = machine.outerFinishedNormally()
            lock.unlock()
            run(step)
        case .failure(let error):
            lock.lock()
            machine.outer = nil
            lock.unlock()
            terminate(error)
        }
    }

    @inlinable
    internal func innerSubscribed(_ id: Int, _ subscription: any Subscription) {
        lock.lock()
        let demand = machine.innerSubscribed(id, subscription)
        lock.unlock()
        guard let demand else {
            subscription.cancel()
            return
        }
        if demand != .none { subscription.request(demand) }
    }

    @inlinable
    internal func innerValue(_ id: Int, _ value: Downstream.Input) -> Subscribers.Demand {
        lock.lock()
        guard machine.innerValue(id, value) else {
            lock.unlock()
            return .none
        }
        let target = downstream
        lock.unlock()
        let extra = target?.receive(value) ?? .none
        lock.lock()
        let (forward, next) = machine.delivered(id, extra: extra)
        lock.unlock()
        run(next)
        return forward ? extra : .none
    }

    @inlinable
    internal func innerCompleted(_ id: Int, _ completion: Subscribers.Completion<Downstream.Failure>) {
        switch completion {
        case .finished:
            lock.lock()
            let step = machine.innerFinished(id)
            lock.unlock()
            run(step)
        case .failure(let error):
            lock.lock()
            let isLatest = id == machine.latestID
            if isLatest { machine.inner = nil }
            lock.unlock()
            if isLatest { terminate(error) }
        }
    }

    @inlinable
    internal func terminate(_ failure: Downstream.Failure?) {
        lock.lock()
        let (outer, inner, step) = machine.terminate(failure)
        if failure == nil { downstream = nil }
        lock.unlock()
        // Inner first, then upstream: the order Combine's switchToLatest cancels in.
        inner?.cancel()
        outer?.cancel()
        run(step)
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
        terminate(nil)
    }
}

@usableFromInline
internal struct SwitchToLatestOuter<Downstream: Subscriber, Inner: Publisher>: Subscriber, CustomStringConvertible
where Inner.Output == Downstream.Input, Inner.Failure == Downstream.Failure {
    @usableFromInline typealias Input = Inner
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline internal let storage: SwitchToLatestStorage<Downstream, Inner>
    @usableFromInline internal let combineIdentifier = CombineIdentifier()

    @inlinable
    internal init(storage: SwitchToLatestStorage<Downstream, Inner>) {
        self.storage = storage
    }

    @usableFromInline
    internal var description: String { "SwitchToLatest" }

    @inlinable
    internal func receive(subscription: any Subscription) {
        storage.outerSubscribed(subscription)
    }

    @inlinable
    internal func receive(_ input: Inner) -> Subscribers.Demand {
        storage.outerValue(input)
        return .none
    }

    @inlinable
    internal func receive(completion: Subscribers.Completion<Failure>) {
        storage.outerCompleted(completion)
    }
}

@usableFromInline
internal struct SwitchToLatestInner<Downstream: Subscriber, Inner: Publisher>: Subscriber, CustomStringConvertible
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
