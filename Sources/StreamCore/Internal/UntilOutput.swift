/// What drop(untilOutputFrom:) and prefix(untilOutputFrom:) do differently with the trigger's first element.
@usableFromInline
internal protocol UntilOutputPolicy {
    /// True for drop (the trigger's first element opens the gate), false for prefix (it ends the stream).
    static var opensOnTrigger: Bool { get }
}

/// The pure state of drop(untilOutputFrom:) and prefix(untilOutputFrom:): an upstream, and a trigger publisher asked
/// for one element. Each event returns what the caller must do once the lock is released.
///
/// Combine's two operators differ in more than the gate, and the policy says which way each event goes:
/// - drop hands its subscription downstream at once; prefix only with upstream's.
/// - drop forwards every completion, even twice, and only a cancel closes it; prefix closes on the trigger's element,
///   on upstream's completion and on a cancel, and ignores the trigger's completion.
/// - drop counts the demand it forwarded and traps on an upstream value beyond it (as Combine does); prefix ignores a
///   value that arrives before upstream's subscription.
/// - neither cancels the trigger's subscription after its element: it is let go, and a new one is accepted (drop).
@usableFromInline
internal struct UntilOutputStateMachine<Policy: UntilOutputPolicy> {
    @usableFromInline internal var upstream: (any Subscription)?
    /// Upstream's subscription arrived once; a later one is a second subscription.
    @usableFromInline internal var upstreamArrived = false
    @usableFromInline internal var trigger: (any Subscription)?
    /// drop: cancelled; prefix: cancelled, triggered or upstream completed. Nothing passes any more.
    @usableFromInline internal var closed = false
    /// drop: the trigger's element arrived, so upstream's values pass.
    @usableFromInline internal var triggered = false
    /// Demand asked before upstream's subscription arrived.
    @usableFromInline internal var pending: Subscribers.Demand = .none
    /// drop: the demand upstream may still use (requested plus returned, minus values received).
    @usableFromInline internal var remaining: Subscribers.Demand = .none

    @inlinable
    internal init() {}

    /// Whether to keep upstream's subscription; if so, the demand owed to it.
    @usableFromInline
    internal enum UpstreamSubscribed {
        case reject
        case accept(owed: Subscribers.Demand)
    }

    @inlinable
    internal mutating func upstreamSubscribed(_ subscription: any Subscription) -> UpstreamSubscribed {
        guard !closed, !upstreamArrived else { return .reject }
        upstreamArrived = true
        upstream = subscription
        let owed = pending
        pending = .none
        return .accept(owed: owed)
    }

    /// What an upstream value does.
    @usableFromInline
    internal enum UpstreamValue {
        case ignore
        case deliver
        /// drop: a value no demand allowed for, which Combine traps on.
        case beyondDemand
    }

    @inlinable
    internal mutating func upstreamValue() -> UpstreamValue {
        guard Policy.opensOnTrigger else { return closed || !upstreamArrived ? .ignore : .deliver }
        if closed { return .ignore }
        guard remaining > .none else { return .beyondDemand }
        remaining -= 1
        return triggered ? .deliver : .ignore
    }

    /// drop: the downstream's answer to a value adds to the demand upstream may use.
    @inlinable
    internal mutating func delivered(returning demand: Subscribers.Demand) {
        if Policy.opensOnTrigger && !closed { remaining += demand }
    }

    /// What upstream's completion does: whether it reaches downstream, and the trigger to cancel first.
    @inlinable
    internal mutating func upstreamCompleted() -> (deliver: Bool, cancel: (any Subscription)?) {
        if closed { return (false, nil) }
        let pendingTrigger = trigger
        trigger = nil
        upstream = nil
        if Policy.opensOnTrigger { return (true, pendingTrigger) }
        closed = true
        // Combine's prefix forwards upstream's completion only once it handed its subscription downstream.
        return (upstreamArrived, pendingTrigger)
    }

    @inlinable
    internal mutating func triggerSubscribed(_ subscription: any Subscription) -> Bool {
        guard !closed, trigger == nil else { return false }
        trigger = subscription
        return true
    }

    /// What the trigger's element does.
    @usableFromInline
    internal enum TriggerValue {
        case ignore
        /// drop: upstream's values pass from now on.
        case open
        /// prefix: finish downstream after cancelling upstream (if it subscribed).
        case finish(cancel: (any Subscription)?)
    }

    @inlinable
    internal mutating func triggerValue() -> TriggerValue {
        if Policy.opensOnTrigger {
            if closed || triggered { return .ignore }
            triggered = true
            trigger = nil
            return .open
        }
        // prefix listens to the trigger only while it holds the trigger's subscription.
        guard !closed, trigger != nil else { return .ignore }
        closed = true
        trigger = nil
        let pendingUpstream = upstream
        upstream = nil
        return .finish(cancel: pendingUpstream)
    }

    /// What the trigger's completion does: whether it reaches downstream (drop, before the gate opened), and the
    /// upstream to cancel first.
    @inlinable
    internal mutating func triggerCompleted() -> (deliver: Bool, cancel: (any Subscription)?) {
        guard Policy.opensOnTrigger else {
            if !closed { trigger = nil }
            return (false, nil)
        }
        if closed || triggered { return (false, nil) }
        trigger = nil
        let pendingUpstream = upstream
        upstream = nil
        return (true, pendingUpstream)
    }

    /// The subscription to forward the demand to, or nil when it is kept for later (or dropped once closed).
    @inlinable
    internal mutating func request(_ demand: Subscribers.Demand) -> (any Subscription)? {
        if closed { return nil }
        if Policy.opensOnTrigger { remaining += demand }
        guard let upstream else {
            pending += demand
            return nil
        }
        return upstream
    }

    /// The subscriptions to cancel, upstream's first; nil when already closed.
    @inlinable
    internal mutating func cancel() -> (upstream: (any Subscription)?, trigger: (any Subscription)?)? {
        if closed { return nil }
        closed = true
        defer {
            upstream = nil
            trigger = nil
        }
        return (upstream, trigger)
    }
}

/// The subscription of drop(untilOutputFrom:) and prefix(untilOutputFrom:), and their subscriber to upstream (as in
/// Combine, one object is both). The trigger's subscriber is an `UntilOutputTrigger` that shares its identifier.
///
/// As in Combine, the downstream is held for the inner's whole life, not let go on a completion or a cancel.
@usableFromInline
internal final class UntilOutputInner<Downstream: Subscriber, Policy: UntilOutputPolicy>: Subscriber, Subscription {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline internal let lock = Lock()
    @usableFromInline internal var state = UntilOutputStateMachine<Policy>()
    @usableFromInline internal let downstream: Downstream

    @inlinable
    internal init(downstream: Downstream) {
        self.downstream = downstream
    }

    @inlinable
    internal func receive(subscription: any Subscription) {
        lock.lock()
        let action = state.upstreamSubscribed(subscription)
        lock.unlock()
        switch action {
        case .reject:
            subscription.cancel()
        case .accept(let owed):
            if !Policy.opensOnTrigger { downstream.receive(subscription: self) }
            if owed > .none { subscription.request(owed) }
        }
    }

    @inlinable
    internal func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        let action = state.upstreamValue()
        lock.unlock()
        switch action {
        case .ignore:
            // drop: a dropped value uses up its demand and is not replaced by a request, as in Combine.
            return .none
        case .beyondDemand:
            preconditionFailure("drop(untilOutputFrom:) received a value beyond the demand it requested")
        case .deliver:
            let demand = downstream.receive(input)
            if Policy.opensOnTrigger && demand > .none {
                lock.lock()
                state.delivered(returning: demand)
                lock.unlock()
            }
            return demand
        }
    }

    @inlinable
    internal func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        let action = state.upstreamCompleted()
        lock.unlock()
        action.cancel?.cancel()
        if action.deliver { downstream.receive(completion: completion) }
    }

    @inlinable
    internal func request(_ demand: Subscribers.Demand) {
        // No trap on `.none`: Combine forwards it.
        lock.lock()
        let target = state.request(demand)
        lock.unlock()
        target?.request(demand)
    }

    @inlinable
    internal func cancel() {
        lock.lock()
        let subscriptions = state.cancel()
        lock.unlock()
        subscriptions?.upstream?.cancel()
        subscriptions?.trigger?.cancel()
    }

    @inlinable
    internal func triggerSubscribed(_ subscription: any Subscription) {
        lock.lock()
        let accepted = state.triggerSubscribed(subscription)
        lock.unlock()
        if accepted {
            subscription.request(.max(1))
        } else {
            subscription.cancel()
        }
    }

    @inlinable
    internal func triggerFired() {
        lock.lock()
        let action = state.triggerValue()
        lock.unlock()
        guard case .finish(let pendingUpstream) = action else { return }
        pendingUpstream?.cancel()
        downstream.receive(completion: .finished)
    }

    @inlinable
    internal func triggerCompleted(_ completion: Subscribers.Completion<Failure>) {
        lock.lock()
        let action = state.triggerCompleted()
        lock.unlock()
        action.cancel?.cancel()
        if action.deliver { downstream.receive(completion: completion) }
    }
}

/// The subscriber drop(untilOutputFrom:) and prefix(untilOutputFrom:) attach to the trigger; it shares the
/// operator's combine identifier, as in Combine.
@usableFromInline
internal struct UntilOutputTrigger<Downstream: Subscriber, Policy: UntilOutputPolicy, Input, Failure: Error>:
    Subscriber
{
    @usableFromInline internal let inner: UntilOutputInner<Downstream, Policy>

    @inlinable
    internal init(inner: UntilOutputInner<Downstream, Policy>) {
        self.inner = inner
    }

    @inlinable
    internal var combineIdentifier: CombineIdentifier { inner.combineIdentifier }

    @inlinable
    internal func receive(subscription: any Subscription) {
        inner.triggerSubscribed(subscription)
    }

    @inlinable
    internal func receive(_ input: Input) -> Subscribers.Demand {
        inner.triggerFired()
        return .none
    }

    @inlinable
    internal func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished:
            inner.triggerCompleted(.finished)
        case .failure(let error):
            // drop(untilOutputFrom:) requires the trigger's failure type to be upstream's, so this cast cannot fail;
            // prefix(untilOutputFrom:) never forwards the trigger's completion, so its failure is not needed.
            guard Policy.opensOnTrigger, let failure = error as? Downstream.Failure else {
                inner.triggerCompleted(.finished)
                return
            }
            inner.triggerCompleted(.failure(failure))
        }
    }
}
