#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The state both subjects share: their subscribers in subscription order, the completion once sent, the upstream
/// subscriptions given through `send(subscription:)`, and for `CurrentValueSubject` the current value.
///
/// The subject classes hold one of these rather than inheriting from it, so that their public API stays final.
@usableFromInline
internal final class SubjectCore<Output, Failure: Error>: @unchecked Sendable {
    @usableFromInline internal let lock = Lock()
    @usableFromInline internal var conduits: ContiguousArray<SubjectConduit<Output, Failure>> = []
    @usableFromInline internal var completion: Subscribers.Completion<Failure>?
    @usableFromInline internal var upstreams: [any Subscription] = []
    /// Set once any subscriber has asked for values; from then on upstream subscriptions are asked for `.unlimited`.
    @usableFromInline internal var hasDownstreamDemand = false
    /// Only used by `CurrentValueSubject`; `nil` for `PassthroughSubject`.
    @usableFromInline internal var currentValue: Output?
    /// Whether this is a `CurrentValueSubject`'s core; fixed at creation, so readable without the lock.
    @usableFromInline internal let isCurrentValue: Bool

    @inlinable
    internal init(currentValue: Output?, isCurrentValue: Bool) {
        self.currentValue = currentValue
        self.isCurrentValue = isCurrentValue
    }

    /// Attaches a subscriber; a subscriber arriving after completion gets an empty subscription and the completion.
    @inlinable
    internal func attach<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        lock.lock()
        if let completion {
            lock.unlock()
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: completion)
            return
        }
        let conduit = SubjectConduit<Output, Failure>(
            core: self,
            receiveValue: { subscriber.receive($0) },
            receiveCompletion: { subscriber.receive(completion: $0) },
            isCurrentValue: isCurrentValue
        )
        conduits.append(conduit)
        lock.unlock()
        subscriber.receive(subscription: conduit)
    }

    /// Delivers a value to each subscriber in subscription order, working on a snapshot of the list so that
    /// subscribing or cancelling from inside a subscriber is safe.
    @inlinable
    internal func send(_ value: Output, updatingCurrentValue: Bool) {
        lock.lock()
        guard completion == nil else {
            lock.unlock()
            return
        }
        if updatingCurrentValue {
            currentValue = value
        }
        if conduits.count == 1 {
            let only = conduits[0]
            lock.unlock()
            only.offer(value)
            return
        }
        let snapshot = conduits
        lock.unlock()
        for conduit in snapshot {
            conduit.offer(value)
        }
    }

    @inlinable
    internal func send(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard self.completion == nil else {
            lock.unlock()
            return
        }
        self.completion = completion
        let snapshot = conduits
        conduits = []
        lock.unlock()
        for conduit in snapshot {
            conduit.offer(completion: completion)
        }
    }

    @usableFromInline
    internal func send(subscription: any Subscription) {
        lock.lock()
        upstreams.append(subscription)
        let requestNow = hasDownstreamDemand
        lock.unlock()
        if requestNow {
            subscription.request(.unlimited)
        }
    }

    /// Called by a conduit on its first request: the subject then asks its upstreams for everything.
    @usableFromInline
    internal func downstreamDidRequest() {
        lock.lock()
        guard !hasDownstreamDemand else {
            lock.unlock()
            return
        }
        hasDownstreamDemand = true
        let toRequest = upstreams
        lock.unlock()
        for upstream in toRequest {
            upstream.request(.unlimited)
        }
    }

    @usableFromInline
    internal func detach(_ conduit: SubjectConduit<Output, Failure>) {
        lock.lock()
        if let index = conduits.firstIndex(where: { $0 === conduit }) {
            conduits.remove(at: index)
        }
        lock.unlock()
    }

    /// The current value, read under the lock (for `CurrentValueSubject.value`).
    @inlinable
    internal var value: Output? {
        lock.lock()
        defer { lock.unlock() }
        return currentValue
    }

    /// Cancels the upstream subscriptions; the owning subject calls this from its deinit.
    @usableFromInline
    internal func cancelUpstreams() {
        lock.lock()
        let toCancel = upstreams
        upstreams = []
        lock.unlock()
        for upstream in toCancel {
            upstream.cancel()
        }
    }
}

/// One subscriber's subscription to a subject: it keeps that subscriber's demand and serializes calls to it.
///
/// Serialization without holding a lock while calling out: one thread at a time is the deliverer. A value offered
/// from another thread meanwhile is queued and delivered by the deliverer before it returns, so concurrent senders
/// never block on a subscriber. A value offered by the deliverer itself (a reentrant `send` from inside the subscriber)
/// is delivered at once, nested, as Combine does.
@usableFromInline
internal final class SubjectConduit<Output, Failure: Error>: Subscription, CustomStringConvertible, @unchecked Sendable {
    @usableFromInline
    internal enum Pending {
        case value(Output)
        case completion(Subscribers.Completion<Failure>)
        case currentValue
    }

    @usableFromInline internal let lock = Lock()
    @usableFromInline internal var core: SubjectCore<Output, Failure>?
    @usableFromInline internal var receiveValue: ((Output) -> Subscribers.Demand)?
    @usableFromInline internal var receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
    @usableFromInline internal var demand = Subscribers.Demand.none
    /// The thread delivering to the subscriber right now, or 0.
    @usableFromInline internal var deliverer: pthread_t = 0
    @usableFromInline internal var pending: [Pending] = []
    /// `CurrentValueSubject` only: the subscriber has not yet seen the latest value, so the next request delivers it.
    @usableFromInline internal var needsCurrentValue: Bool
    @usableFromInline internal let isCurrentValue: Bool
    @usableFromInline internal var hasRequested = false

    @inlinable
    internal init(
        core: SubjectCore<Output, Failure>,
        receiveValue: @escaping (Output) -> Subscribers.Demand,
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        isCurrentValue: Bool
    ) {
        self.core = core
        self.receiveValue = receiveValue
        self.receiveCompletion = receiveCompletion
        self.needsCurrentValue = isCurrentValue
        self.isCurrentValue = isCurrentValue
    }

    @usableFromInline
    internal var description: String { isCurrentValue ? "CurrentValueSubject" : "PassthroughSubject" }

    @inlinable
    internal func offer(_ value: Output) {
        lock.lock()
        guard let receive = receiveValue else {
            lock.unlock()
            return
        }
        let me = pthread_self()
        let nested: Bool
        if deliverer == 0 {
            nested = false
        } else if pthread_equal(deliverer, me) != 0 {
            nested = true
        } else {
            pending.append(.value(value))
            lock.unlock()
            return
        }
        guard demand > 0 else {
            // A subject drops what its subscriber has not asked for; a CurrentValueSubject subscriber then gets
            // the latest value on its next request instead.
            if isCurrentValue { needsCurrentValue = true }
            lock.unlock()
            return
        }
        if demand != .unlimited { demand -= 1 }
        needsCurrentValue = false
        deliverer = me
        lock.unlock()
        let more = receive(value)
        lock.lock()
        if more != .none { demand += more }
        if nested {
            lock.unlock()
        } else {
            finishDelivering()
        }
    }

    /// With the lock held: delivers what other threads queued meanwhile, then stops being the deliverer and unlocks.
    @usableFromInline
    internal func finishDelivering() {
        while !pending.isEmpty {
            let batch = pending
            pending = []
            for event in batch {
                switch event {
                case .value(let value):
                    guard let receive = receiveValue else { break }
                    guard demand > 0 else {
                        if isCurrentValue { needsCurrentValue = true }
                        break
                    }
                    if demand != .unlimited { demand -= 1 }
                    needsCurrentValue = false
                    lock.unlock()
                    let more = receive(value)
                    lock.lock()
                    if more != .none { demand += more }
                case .completion(let completion):
                    guard let finish = receiveCompletion else { break }
                    let dropped = terminate()
                    lock.unlock()
                    finish(completion)
                    withExtendedLifetime(dropped) {}
                    lock.lock()
                case .currentValue:
                    deliverCurrentValueLocked()
                }
            }
        }
        deliverer = 0
        lock.unlock()
    }

    /// With the lock held and this thread the deliverer: sends the current value if it is still owed.
    @usableFromInline
    internal func deliverCurrentValueLocked() {
        guard needsCurrentValue, demand > 0, let receive = receiveValue, let core else { return }
        lock.unlock()
        let current = core.value
        lock.lock()
        guard needsCurrentValue, demand > 0, receiveValue != nil, let current else { return }
        if demand != .unlimited { demand -= 1 }
        needsCurrentValue = false
        lock.unlock()
        let more = receive(current)
        lock.lock()
        if more != .none { demand += more }
    }

    @inlinable
    internal func offer(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard let finish = receiveCompletion else {
            lock.unlock()
            return
        }
        if deliverer != 0 && pthread_equal(deliverer, pthread_self()) == 0 {
            pending.append(.completion(completion))
            lock.unlock()
            return
        }
        let dropped = terminate()
        lock.unlock()
        finish(completion)
        withExtendedLifetime(dropped) {}
    }

    /// With the lock held: forgets the subscriber and the subject; returns what must be released after unlocking,
    /// so no user closure is deinitialized under the lock.
    @usableFromInline
    internal func terminate() -> (Any?, Any?, [Pending], SubjectCore<Output, Failure>?) {
        let dropped: (Any?, Any?, [Pending], SubjectCore<Output, Failure>?) = (receiveValue, receiveCompletion, pending, core)
        receiveValue = nil
        receiveCompletion = nil
        pending = []
        core = nil
        return dropped
    }

    @usableFromInline
    internal func request(_ demand: Subscribers.Demand) {
        precondition(demand != .none, "demand must not be zero")
        lock.lock()
        guard receiveValue != nil, let core else {
            lock.unlock()
            return
        }
        self.demand += demand
        let firstRequest = !hasRequested
        hasRequested = true
        if needsCurrentValue {
            let me = pthread_self()
            if deliverer == 0 {
                deliverer = me
                deliverCurrentValueLocked()
                lock.unlock()
                if firstRequest { core.downstreamDidRequest() }
                lock.lock()
                finishDelivering()
                return
            } else if pthread_equal(deliverer, me) != 0 {
                deliverCurrentValueLocked()
            } else {
                pending.append(.currentValue)
            }
        }
        lock.unlock()
        if firstRequest { core.downstreamDidRequest() }
    }

    @usableFromInline
    internal func cancel() {
        lock.lock()
        let core = self.core
        let dropped = terminate()
        lock.unlock()
        withExtendedLifetime(dropped) {}
        core?.detach(self)
    }
}
