/// The state of an operator that merges several child streams into one: flatMap (children created from an outer
/// stream's values) and merge (a fixed set of children). Pure: every method returns what to do outside the lock.
///
/// Demand: a child is asked for `.unlimited` when downstream demand is unlimited, otherwise for one value at a time,
/// and only while downstream wants values; a value that arrives without demand waits in the queue (at most one per
/// one-at-a-time child), and its child is asked again when it has been delivered.
///
/// flatMap follows Combine's recorded behaviour where it differs from merge's: it asks upstream for `maxPublishers`
/// even when that is `.none`; it asks every new child for one value whatever the downstream demand; a value queued only
/// because another was being delivered is answered at once (as Combine's reentrant delivery does), not asked for again
/// later; every finish of a child asks upstream for one more (even a second finish of the same child); a child's
/// failure cancels the other children but not upstream; and values a child sends while that failure is being
/// delivered still reach downstream.
@usableFromInline
internal struct FanInStateMachine<Output, Failure: Error> {
    @usableFromInline typealias Child = FanInChildState

    @usableFromInline internal var queue = DeliveryQueue<Output, Failure>()
    @usableFromInline internal var children = ChildTable()
    @usableFromInline internal var nextChildID = 0
    @usableFromInline internal var outer: (any Subscription)?
    /// True once no more children can come: the outer publisher finished, or (merge) every child was subscribed
    /// and `sealChildren` ran.
    @usableFromInline internal var outerFinished = false
    @usableFromInline internal var maxPublishers: Subscribers.Demand
    /// flatMap rather than merge: Combine's flatMap differs in the ways the type's comment lists.
    @usableFromInline internal let isFlatMap: Bool
    /// flatMap: a failure's cancellations are running; upstream failing again meanwhile traps, as in Combine.
    @usableFromInline internal var cancellingForFailure = false

    @inlinable
    internal init(maxPublishers: Subscribers.Demand, isFlatMap: Bool) {
        self.maxPublishers = maxPublishers
        self.isFlatMap = isFlatMap
    }

    /// Reserves a child slot before subscribing to it, so completion accounting sees it.
    @inlinable
    internal mutating func addChild() -> Int? {
        if queue.isClosed { return nil }
        let id = nextChildID
        nextChildID += 1
        children.insert(id, Child())
        return id
    }

    /// A child sent its subscription: returns the demand to request (`.none`: not yet), or nil to cancel it (stream over, or a duplicate).
    @inlinable
    internal mutating func childSubscribed(_ id: Int, _ subscription: any Subscription) -> Subscribers.Demand? {
        guard !queue.isClosed, var child = children[id], child.subscription == nil else { return nil }
        child.subscription = subscription
        let demand: Subscribers.Demand
        if queue.demand == .unlimited {
            child.demand = .unlimited
            demand = .unlimited
        } else if queue.demand > 0 || isFlatMap {
            child.demand = .one
            demand = .max(1)
        } else {
            demand = .none
        }
        children[id] = child
        return demand
    }

    /// What to do with a child's value.
    @usableFromInline
    internal enum ChildValue {
        /// The caller is the deliverer: deliver it now.
        case deliver
        /// Queued (or ignored): answer the child with this demand.
        case answer(Subscribers.Demand)
    }

    /// A child sent a value.
    @inlinable
    internal mutating func childValue(_ id: Int, _ value: Output) -> ChildValue {
        let nothingAhead = !queue.hasBuffered
        if queue.offer(value, tag: id) { return .deliver }
        guard !queue.isClosed, var child = children[id], child.demand != .unlimited else { return .answer(.none) }
        if isFlatMap && child.demand == .one && queue.demand > 0 && nothingAhead {
            // Only a delivery in progress held it back (demand left, nothing queued ahead): Combine would have delivered
            // it reentrantly and answered the child with one more, so answer now and ask for nothing when it goes out.
            child.answered += 1
            children[id] = child
            return .answer(.max(1))
        }
        child.queued += 1
        child.demand = .idle
        children[id] = child
        return .answer(.none)
    }

    /// After delivering a child's value on the child's own call: the demand to return to that child, and the next step.
    @inlinable
    internal mutating func deliveredDirect(
        _ id: Int, extra: Subscribers.Demand
    ) -> (Subscribers.Demand, DeliveryQueue<Output, Failure>.Step) {
        let step = queue.delivered(extra: extra)
        // Like Combine's merge, a one-at-a-time child always gets its next request back, demand or not: at most one
        // value per child can then wait in the queue.
        guard let child = children[id], child.demand == .one else { return (.none, step) }
        return (.max(1), step)
    }

    /// After delivering a queued value: a child to ask for one more, and the next step.
    @inlinable
    internal mutating func deliveredQueued(
        _ id: Int, extra: Subscribers.Demand
    ) -> ((any Subscription)?, DeliveryQueue<Output, Failure>.Step) {
        let step = queue.delivered(extra: extra)
        guard var child = children[id] else { return (nil, step) }
        if child.answered > 0 {
            child.answered -= 1
            children[id] = child
            return (nil, step)
        }
        if child.queued > 0 { child.queued -= 1 }
        // Combine asks a one-at-a-time child for one more for every queued value it delivers.
        var refill: (any Subscription)?
        if child.demand != .unlimited, let subscription = child.subscription {
            child.demand = .one
            refill = subscription
        }
        children[id] = child
        return (refill, step)
    }

    /// A child finished normally: maybe ask the outer stream for another child, and the next step.
    @inlinable
    internal mutating func childFinished(_ id: Int) -> ((any Subscription)?, DeliveryQueue<Output, Failure>.Step) {
        guard children.removeValue(forKey: id) else {
            // Combine's flatMap asks upstream for one more at every finish, even a child's second one.
            let again = isFlatMap && !queue.isClosed && !outerFinished && maxPublishers != .unlimited
            return (again ? outer : nil, .idle)
        }
        if queue.isClosed { return (nil, .idle) }
        if outerFinished {
            if children.isEmpty { return (nil, queue.complete(.finished, flush: true)) }
            return (nil, .idle)
        }
        return (maxPublishers == .unlimited ? nil : outer, .idle)
    }

    /// The outer stream finished.
    @inlinable
    internal mutating func outerCompletedNormally() -> DeliveryQueue<Output, Failure>.Step {
        outerFinished = true
        outer = nil
        if queue.isClosed || !children.isEmpty { return .idle }
        return queue.complete(.finished, flush: true)
    }

    /// Someone failed (a child: `childFailed`), or downstream cancelled: returns every subscription to cancel, and
    /// the next step.
    @inlinable
    internal mutating func terminate(
        _ failure: Failure?, childFailed: Bool = false
    ) -> ([any Subscription], DeliveryQueue<Output, Failure>.Step) {
        if queue.closed { return ([], .idle) }
        // Children first, then upstream: the order Combine's flatMap cancels in. A child's failure leaves upstream
        // alone in Combine's flatMap.
        var toCancel: [any Subscription] = []
        for child in children.values {
            if let subscription = child.subscription { toCancel.append(subscription) }
        }
        if let outer, !(isFlatMap && childFailed) { toCancel.append(outer) }
        if isFlatMap && failure != nil { cancellingForFailure = true }
        outer = nil
        outerFinished = true
        children = ChildTable()
        if let failure {
            if queue.pendingCompletion != nil { return (toCancel, .idle) }
            return (toCancel, queue.complete(.failure(failure), flush: false))
        }
        queue.cancel()
        return (toCancel, .idle)
    }

    /// Downstream asked for more: children to ask (with the demand for each), and the next step.
    @inlinable
    internal mutating func request(
        _ demand: Subscribers.Demand
    ) -> ([(any Subscription, Subscribers.Demand)], DeliveryQueue<Output, Failure>.Step) {
        let step = queue.request(demand)
        if queue.isClosed { return ([], step) }
        var asks: [(any Subscription, Subscribers.Demand)] = []
        let unlimited = queue.demand == .unlimited
        for id in children.ids {
            guard var child = children[id], let subscription = child.subscription else { continue }
            switch child.demand {
            case .idle where child.queued == 0:
                // Combine asks an idle child for one value, then for unlimited when that is what downstream wants.
                asks.append((subscription, .max(1)))
                if unlimited { asks.append((subscription, .unlimited)) }
            case .idle, .one:
                // Downstream went unlimited: so does every child (Combine's flatMap does this too).
                guard unlimited else { continue }
                asks.append((subscription, .unlimited))
            case .unlimited:
                continue
            }
            child.demand = unlimited ? .unlimited : .one
            children[id] = child
        }
        return (asks, step)
    }
}

/// What a fan-in knows about one child. Not nested in the generic state machine, so that copying it needs no
/// generic value witnesses on the hot path.
@usableFromInline
internal enum FanInChildDemand { case idle, one, unlimited }

@usableFromInline
internal struct FanInChildState {
    @usableFromInline var subscription: (any Subscription)?
    @usableFromInline var demand: FanInChildDemand = .idle
    @usableFromInline var queued = 0
    /// flatMap: queued values already answered with one more demand (see `childValue`).
    @usableFromInline var answered = 0
    @inlinable init() {}
}

/// The storage behind flatMap and merge: the state machine behind a lock, and the downstream it serializes calls to.
@usableFromInline
internal final class FanInStorage<Downstream: Subscriber>: Subscription, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
{
    @usableFromInline typealias Machine = FanInStateMachine<Downstream.Input, Downstream.Failure>
    @usableFromInline typealias Step = DeliveryQueue<Downstream.Input, Downstream.Failure>.Step

    @usableFromInline internal let lock = Lock()
    // Only touched under `lock`, so the runtime's exclusivity checks would be pure cost.
    @usableFromInline @exclusivity(unchecked) internal var machine: Machine
    @usableFromInline @exclusivity(unchecked) internal var downstream: Downstream?
    /// flatMap: the downstream while a child's failure is being delivered, for the values sent meanwhile.
    @usableFromInline @exclusivity(unchecked) internal var failingDownstream: Downstream?
    @usableFromInline internal let name: String

    @inlinable
    internal init(downstream: Downstream, maxPublishers: Subscribers.Demand, name: String, isFlatMap: Bool = false) {
        self.downstream = downstream
        self.name = name
        machine = Machine(maxPublishers: maxPublishers, isFlatMap: isFlatMap)
    }

    @usableFromInline
    internal var description: String { name }

    /// No children, as in Combine's flatMap.
    @usableFromInline
    internal var customMirror: Mirror { Mirror(self, children: []) }

    /// The operator's name.
    @usableFromInline
    internal var playgroundDescription: Any { description }

    /// Runs steps until the queue is idle; the caller has already left the lock.
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
                var failing = false
                if machine.isFlatMap, case .failure = completion {
                    failingDownstream = target
                    failing = true
                }
                lock.unlock()
                target?.receive(completion: completion)
                if failing {
                    lock.lock()
                    failingDownstream = nil
                    lock.unlock()
                }
                return
            case .deliver(let value, let tag):
                lock.lock()
                let target = downstream
                lock.unlock()
                let extra = target?.receive(value) ?? .none
                lock.lock()
                let (refill, next) = machine.deliveredQueued(tag, extra: extra)
                lock.unlock()
                refill?.request(.max(1))
                step = next
            }
        }
    }

    /// Subscribes a new child publisher; returns false when the stream is already over.
    @inlinable
    internal func subscribeChild<P: Publisher>(_ publisher: P)
    where P.Output == Downstream.Input, P.Failure == Downstream.Failure {
        lock.lock()
        let id = machine.addChild()
        lock.unlock()
        guard let id else { return }
        publisher.subscribe(FanInChild(storage: self, id: id))
    }

    @inlinable
    internal func childSubscribed(_ id: Int, _ subscription: any Subscription) {
        lock.lock()
        let decision = machine.childSubscribed(id, subscription)
        lock.unlock()
        guard let demand = decision else {
            subscription.cancel()
            return
        }
        if demand != .none { subscription.request(demand) }
    }

    @inlinable
    internal func childValue(_ id: Int, _ value: Downstream.Input) -> Subscribers.Demand {
        lock.lock()
        if case .answer(let demand) = machine.childValue(id, value) {
            // flatMap, as Combine: a value sent while a failure is being delivered still reaches downstream.
            let late = failingDownstream
            lock.unlock()
            if let late { _ = late.receive(value) }
            return demand
        }
        let target = downstream
        lock.unlock()
        let extra = target?.receive(value) ?? .none
        lock.lock()
        let (refill, next) = machine.deliveredDirect(id, extra: extra)
        lock.unlock()
        run(next)
        return refill
    }

    @inlinable
    internal func childCompleted(_ id: Int, _ completion: Subscribers.Completion<Downstream.Failure>) {
        switch completion {
        case .finished:
            lock.lock()
            let (outer, step) = machine.childFinished(id)
            lock.unlock()
            outer?.request(.max(1))
            run(step)
        case .failure(let error):
            // The failed child is over; don't cancel it too.
            lock.lock()
            machine.children.removeValue(forKey: id)
            lock.unlock()
            terminate(error, childFailed: true)
        }
    }

    /// flatMap's outer stream subscribed: keep it and ask for `maxPublishers` children.
    @inlinable
    internal func outerSubscribed(_ subscription: any Subscription) {
        lock.lock()
        guard machine.outer == nil, !machine.outerFinished, !machine.queue.isClosed else {
            lock.unlock()
            subscription.cancel()
            return
        }
        machine.outer = subscription
        let demand = machine.maxPublishers
        lock.unlock()
        // Even `.none`: Combine's flatMap forwards it.
        subscription.request(demand)
    }

    /// merge: every upstream has been subscribed, so the merge may finish once they all have.
    @inlinable
    internal func sealChildren() {
        lock.lock()
        let step = machine.outerCompletedNormally()
        lock.unlock()
        run(step)
    }

    @inlinable
    internal func outerCompleted(_ completion: Subscribers.Completion<Downstream.Failure>) {
        switch completion {
        case .finished:
            lock.lock()
            let step = machine.outerCompletedNormally()
            lock.unlock()
            run(step)
        case .failure(let error):
            lock.lock()
            let reentered = machine.cancellingForFailure
            machine.outer = nil
            lock.unlock()
            precondition(!reentered, "flatMap: upstream failed while a failure's cancellations were running")
            terminate(error)
        }
    }

    @inlinable
    internal func terminate(_ failure: Downstream.Failure?, childFailed: Bool = false) {
        lock.lock()
        let (toCancel, step) = machine.terminate(failure, childFailed: childFailed)
        if failure == nil { downstream = nil }
        let flatMapFailure = machine.isFlatMap && failure != nil
        lock.unlock()
        for subscription in toCancel { subscription.cancel() }
        if flatMapFailure {
            lock.lock()
            machine.cancellingForFailure = false
            lock.unlock()
        }
        run(step)
    }

    @inlinable
    internal func request(_ demand: Subscribers.Demand) {
        precondition(demand != .none, "demand must not be .none")
        lock.lock()
        let (asks, step) = machine.request(demand)
        lock.unlock()
        for (subscription, amount) in asks { subscription.request(amount) }
        run(step)
    }

    @inlinable
    internal func cancel() {
        terminate(nil)
    }
}

/// The subscriber attached to each child publisher; a value type, so subscribing a child costs no allocation here.
@usableFromInline
internal struct FanInChild<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
{
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline internal let storage: FanInStorage<Downstream>
    @usableFromInline internal let id: Int
    @usableFromInline internal let combineIdentifier = CombineIdentifier()

    @inlinable
    internal init(storage: FanInStorage<Downstream>, id: Int) {
        self.storage = storage
        self.id = id
    }

    @usableFromInline
    internal var description: String { storage.name }

    /// The operator's subscription, by its identifier, as in Combine's flatMap.
    @usableFromInline
    internal var customMirror: Mirror { Mirror(self, children: ["parentSubscription": storage.combineIdentifier]) }

    /// The operator's name.
    @usableFromInline
    internal var playgroundDescription: Any { description }

    @inlinable
    internal func receive(subscription: any Subscription) {
        storage.childSubscribed(id, subscription)
    }

    @inlinable
    internal func receive(_ input: Input) -> Subscribers.Demand {
        storage.childValue(id, input)
    }

    @inlinable
    internal func receive(completion: Subscribers.Completion<Failure>) {
        storage.childCompleted(id, completion)
    }
}

/// The children of a fan-in, keyed by number. The most recent child lives outside the dictionary: with flatMap over
/// publishers that finish at once (`Just`), every child is born, served and removed there without hashing.
@usableFromInline
internal struct ChildTable {
    @usableFromInline typealias Child = FanInChildState

    // `recent` is meaningful only when `hasRecent`: a plain struct plus a flag, because an Optional of a struct holding
    // an existential is tested through value witnesses, which showed in flatMap's profile.
    @usableFromInline internal var recentID = -1
    @usableFromInline internal var hasRecent = false
    @usableFromInline internal var recent = Child()
    @usableFromInline internal var others: [Int: Child] = [:]

    @inlinable internal init() {}

    @inlinable
    internal var isEmpty: Bool { !hasRecent && others.isEmpty }

    /// Adds a child with a number not used before.
    @inlinable
    internal mutating func insert(_ id: Int, _ child: Child) {
        if hasRecent { others[recentID] = recent }
        recentID = id
        recent = child
        hasRecent = true
    }

    /// Reads or replaces an existing child (setting nil removes it).
    @inlinable
    internal subscript(id: Int) -> Child? {
        get {
            if hasRecent && id == recentID { return recent }
            return others.isEmpty ? nil : others[id]
        }
        set {
            if hasRecent && id == recentID {
                if let newValue {
                    recent = newValue
                } else {
                    recent = Child()
                    hasRecent = false
                    recentID = -1
                }
            } else if newValue != nil || !others.isEmpty {
                others[id] = newValue
            }
        }
    }

    @inlinable
    @discardableResult
    internal mutating func removeValue(forKey id: Int) -> Bool {
        if hasRecent && id == recentID {
            recent = Child()
            hasRecent = false
            recentID = -1
            return true
        }
        return others.isEmpty ? false : others.removeValue(forKey: id) != nil
    }

    @inlinable
    internal var ids: [Int] {
        var all = Array(others.keys)
        if hasRecent { all.append(recentID) }
        return all
    }

    @inlinable
    internal var values: [Child] {
        var all = Array(others.values)
        if hasRecent { all.append(recent) }
        return all
    }
}
