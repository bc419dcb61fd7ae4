/// The shared storage of prefix(untilOutputFrom:) and drop(untilOutputFrom:): an upstream, and a trigger publisher
/// whose first element either ends the stream (prefix) or opens it (drop).
@usableFromInline
internal final class UntilOutputStorage<Downstream: Subscriber>: Subscription, CustomStringConvertible {
    @usableFromInline internal let lock = Lock()
    @usableFromInline internal var downstream: Downstream?
    @usableFromInline internal var upstream: (any Subscription)?
    @usableFromInline internal var trigger: (any Subscription)?
    @usableFromInline internal var triggerDone = false
    /// drop: values pass only once triggered; prefix: the trigger ends the stream.
    @usableFromInline internal let dropping: Bool
    @usableFromInline internal var triggered = false
    /// Demand asked before upstream's subscription arrived.
    @usableFromInline internal var pendingDemand: Subscribers.Demand = .none
    @usableFromInline internal let name: String

    @inlinable
    internal init(downstream: Downstream, dropping: Bool, name: String) {
        self.downstream = downstream
        self.dropping = dropping
        self.name = name
    }

    @usableFromInline
    internal var description: String { name }

    @inlinable
    internal func triggerSubscribed(_ subscription: any Subscription) {
        lock.lock()
        guard downstream != nil, trigger == nil, !triggerDone else {
            lock.unlock()
            subscription.cancel()
            return
        }
        trigger = subscription
        lock.unlock()
        subscription.request(.max(1))
    }

    @inlinable
    internal func triggerFired() {
        lock.lock()
        guard downstream != nil, !triggerDone else {
            lock.unlock()
            return
        }
        triggerDone = true
        let triggerSubscription = trigger
        trigger = nil
        if dropping {
            triggered = true
            lock.unlock()
            triggerSubscription?.cancel()
            return
        }
        let target = downstream
        let upstreamSubscription = upstream
        downstream = nil
        upstream = nil
        lock.unlock()
        triggerSubscription?.cancel()
        upstreamSubscription?.cancel()
        target?.receive(completion: .finished)
    }

    /// The trigger completed without an element; for drop, a failure or finish ends the stream too.
    @inlinable
    internal func triggerCompleted(_ completion: Subscribers.Completion<Downstream.Failure>?) {
        lock.lock()
        guard !triggerDone else {
            lock.unlock()
            return
        }
        triggerDone = true
        trigger = nil
        guard dropping, let target = downstream else {
            lock.unlock()
            return
        }
        let upstreamSubscription = upstream
        downstream = nil
        upstream = nil
        lock.unlock()
        upstreamSubscription?.cancel()
        target.receive(completion: completion ?? .finished)
    }

    @inlinable
    internal func upstreamSubscribed(_ subscription: any Subscription) {
        lock.lock()
        guard downstream != nil, upstream == nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstream = subscription
        let owed = pendingDemand
        pendingDemand = .none
        lock.unlock()
        if owed > 0 { subscription.request(owed) }
    }

    @inlinable
    internal func upstreamValue(_ value: Downstream.Input) -> Subscribers.Demand {
        lock.lock()
        guard let target = downstream else {
            lock.unlock()
            return .none
        }
        if dropping && !triggered {
            lock.unlock()
            // Dropped, and (as in Combine) not replaced by a request: it used up part of the demand forwarded upstream.
            return .none
        }
        lock.unlock()
        return target.receive(value)
    }

    @inlinable
    internal func upstreamCompleted(_ completion: Subscribers.Completion<Downstream.Failure>) {
        lock.lock()
        let target = downstream
        let triggerSubscription = trigger
        downstream = nil
        upstream = nil
        trigger = nil
        triggerDone = true
        lock.unlock()
        triggerSubscription?.cancel()
        target?.receive(completion: completion)
    }

    @inlinable
    internal func request(_ demand: Subscribers.Demand) {
        // No trap on `.none` here: Combine forwards it (accumulated before upstream's subscription arrives).
        lock.lock()
        guard downstream != nil else {
            lock.unlock()
            return
        }
        guard let subscription = upstream else {
            pendingDemand += demand
            lock.unlock()
            return
        }
        lock.unlock()
        subscription.request(demand)
    }

    @inlinable
    internal func cancel() {
        lock.lock()
        let subscriptions = (upstream, trigger)
        downstream = nil
        upstream = nil
        trigger = nil
        triggerDone = true
        lock.unlock()
        subscriptions.0?.cancel()
        subscriptions.1?.cancel()
    }
}

@usableFromInline
internal struct UntilOutputTrigger<Downstream: Subscriber, Input, Failure: Error>: Subscriber, CustomStringConvertible {
    @usableFromInline internal let storage: UntilOutputStorage<Downstream>
    /// Turns the trigger's failure into downstream's, where that applies (drop); nil means it is just ignored.
    @usableFromInline internal let convertFailure: (Failure) -> Downstream.Failure?
    @usableFromInline internal let combineIdentifier = CombineIdentifier()

    @inlinable
    internal init(storage: UntilOutputStorage<Downstream>, convertFailure: @escaping (Failure) -> Downstream.Failure?) {
        self.storage = storage
        self.convertFailure = convertFailure
    }

    @usableFromInline
    internal var description: String { storage.name }

    @inlinable
    internal func receive(subscription: any Subscription) {
        storage.triggerSubscribed(subscription)
    }

    @inlinable
    internal func receive(_ input: Input) -> Subscribers.Demand {
        storage.triggerFired()
        return .none
    }

    @inlinable
    internal func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished:
            storage.triggerCompleted(nil)
        case .failure(let error):
            storage.triggerCompleted(convertFailure(error).map { .failure($0) })
        }
    }
}

@usableFromInline
internal struct UntilOutputUpstream<Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline internal let storage: UntilOutputStorage<Downstream>
    @usableFromInline internal let combineIdentifier = CombineIdentifier()

    @inlinable
    internal init(storage: UntilOutputStorage<Downstream>) {
        self.storage = storage
    }

    @usableFromInline
    internal var description: String { storage.name }

    @inlinable
    internal func receive(subscription: any Subscription) {
        storage.upstreamSubscribed(subscription)
    }

    @inlinable
    internal func receive(_ input: Input) -> Subscribers.Demand {
        storage.upstreamValue(input)
    }

    @inlinable
    internal func receive(completion: Subscribers.Completion<Failure>) {
        storage.upstreamCompleted(completion)
    }
}
