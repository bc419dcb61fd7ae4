import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The calling thread's identity, as a word whose low bit is free (thread handles are aligned pointers).
@inlinable
internal func currentThreadWord() -> UInt {
    #if canImport(Darwin)
        return UInt(bitPattern: pthread_self())
    #else
        return UInt(pthread_self())
    #endif
}

/// One subscriber's subscription to a subject: it keeps that subscriber's demand and serializes calls to it.
///
/// Serialization without holding a lock while calling out: one thread at a time is the deliverer. A value offered
/// from another thread meanwhile is queued and delivered by the deliverer before it returns, so concurrent senders
/// never block on a subscriber. A value offered by the deliverer itself (a reentrant `send` from inside the subscriber)
/// is delivered at once, nested, as Combine does.
///
/// The subscriber's closures change only while nobody is delivering (or by the deliverer itself), so the deliverer
/// calls them without copying them out under the lock; an end (cancel or completion) that happens during a delivery
/// leaves the release of the closures to the outermost deliverer.
@usableFromInline
internal final class SubjectConduit<Output, Failure: Error>: Subscription, CustomStringConvertible, @unchecked Sendable
{
    @usableFromInline
    internal enum Pending {
        case value(Output)
        case completion(Subscribers.Completion<Failure>)
        case currentValue
    }

    @usableFromInline internal let lock = Lock()
    @usableFromInline internal let isCurrentValue: Bool
    /// Which subject this subscription belongs to: it names the subscription.
    @usableFromInline internal let kind: SubjectKind
    @usableFromInline @exclusivity(unchecked) internal var core: SubjectCore<Output, Failure>?
    /// The subject object, kept alive by its subscriptions until they end.
    @usableFromInline @exclusivity(unchecked) internal var owner: AnyObject?
    /// False once the subscriber has been cancelled or completed.
    @usableFromInline @exclusivity(unchecked) internal var active = true
    /// The subscriber's closures, held at +1 and called without retaining them; `nil` once released.
    @usableFromInline @exclusivity(unchecked) internal var handlers: Unmanaged<SubjectConduitHandlers<Output, Failure>>?
    @usableFromInline @exclusivity(unchecked) internal var demand = Subscribers.Demand.none
    /// The thread delivering to the subscriber right now (0 if none), with bit 0 set when that thread must look at
    /// the queue or the end of the subscription before it stops delivering, and bit 1 set once the subscription has
    /// ended while nobody was delivering. Changed under the lock, except on the fast paths: with unlimited demand a
    /// PassthroughSubject deliverer claims it from 0 and, unless bit 0 was set meanwhile, gives it back to 0.
    @usableFromInline internal let state = Atomic<UInt>(0)
    /// Set once `demand` is unlimited and no current value is owed (both last for good), so a deliverer has nothing
    /// to count and can skip the lock.
    @usableFromInline internal let unlimitedDemand = Atomic<Bool>(false)
    @usableFromInline @exclusivity(unchecked) internal var pending: [Pending] = []
    /// `CurrentValueSubject` only: the subscriber has not yet seen the latest value, so the next request delivers it.
    @usableFromInline @exclusivity(unchecked) internal var needsCurrentValue: Bool
    @usableFromInline @exclusivity(unchecked) internal var hasRequested = false

    @inlinable
    internal init(
        core: SubjectCore<Output, Failure>,
        receiveValue: @escaping (Output) -> Subscribers.Demand,
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        downstream: Any,
        kind: SubjectKind,
        owner: AnyObject?
    ) {
        self.core = core
        self.owner = owner
        handlers = Unmanaged.passRetained(SubjectConduitHandlers(receiveValue, receiveCompletion, downstream))
        self.kind = kind
        isCurrentValue = core.isCurrentValue
        needsCurrentValue = core.isCurrentValue
    }

    deinit {
        handlers?.release()
    }

    /// Delivers a value to the subscriber. Only the deliverer calls this, and the handlers cannot be released while
    /// a delivery runs, so no retain is needed around the call.
    @inlinable
    internal func receiveValue(_ value: Output) -> Subscribers.Demand {
        handlers.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.receiveValue(value) }
    }

    /// The subject's name, as Combine describes its subscriptions (the same before and after the end).
    @usableFromInline
    internal var description: String { kind.subscriptionName }

    @inlinable
    internal func offer(_ value: Output) {
        // Fast path: nobody delivering, not ended, demand unlimited and no current value owed (so there is nothing to
        // count) — claim the delivery with one atomic exchange.
        if unlimitedDemand.load(ordering: .acquiring) {
            let me = currentThreadWord()
            if state.compareExchange(expected: 0, desired: me, ordering: .acquiringAndReleasing).exchanged {
                _ = receiveValue(value)
                if state.compareExchange(expected: me, desired: 0, ordering: .acquiringAndReleasing).exchanged {
                    return
                }
                lock.lock()
                finishDelivering()
                return
            }
        }
        lock.lock()
        guard active else {
            lock.unlock()
            return
        }
        let me = currentThreadWord()
        let nested: Bool
        switch claimLocked(me) {
        case .claimed:
            nested = false
        case .nested:
            nested = true
        case .busy:
            // Another thread is delivering and has been told to look at the queue before it stops.
            pending.append(.value(value))
            lock.unlock()
            return
        }
        guard demand > 0 else {
            // A subject drops what its subscriber has not asked for; a CurrentValueSubject subscriber then gets
            // the latest value on its next request instead.
            if isCurrentValue { needsCurrentValue = true }
            if nested {
                lock.unlock()
            } else {
                finishDelivering()
            }
            return
        }
        if demand != .unlimited { demand -= 1 }
        if needsCurrentValue {
            needsCurrentValue = false
            noteUnlimitedLocked()
        }
        lock.unlock()
        let more = receiveValue(value)
        if nested {
            if more != .none {
                lock.lock()
                addDemandLocked(more)
                lock.unlock()
            }
            return
        }
        // Extra demand changes nothing once demand is unlimited (a filter returns `.max(1)` for each dropped value).
        if more == .none || unlimitedDemand.load(ordering: .relaxed),
            state.compareExchange(expected: me, desired: 0, ordering: .acquiringAndReleasing).exchanged
        {
            return
        }
        lock.lock()
        if more != .none { addDemandLocked(more) }
        if pending.isEmpty && active {
            state.store(0, ordering: .releasing)
            lock.unlock()
        } else {
            finishDelivering()
        }
    }

    /// With the lock held: adds demand, noting once it has become unlimited (it never goes back).
    @inlinable
    internal func addDemandLocked(_ more: Subscribers.Demand) {
        demand += more
        noteUnlimitedLocked()
    }

    /// With the lock held: opens the fast path once demand is unlimited and no current value is owed.
    @inlinable
    internal func noteUnlimitedLocked() {
        if demand == .unlimited && !needsCurrentValue {
            unlimitedDemand.store(true, ordering: .releasing)
        }
    }

    /// What `claimLocked` found.
    @usableFromInline
    internal enum Claim {
        /// Nobody was delivering: this thread is now the deliverer.
        case claimed
        /// This thread is already delivering (a reentrant call).
        case nested
        /// Another thread is delivering; it has been told to look at the queue before it stops.
        case busy
    }

    /// With the lock held and the subscription active: becomes the deliverer if nobody is, or sets the attention bit
    /// of the thread that is, so that whatever the caller queues next is delivered by it. Either the deliverer sees
    /// the bit when it tries to stop, or it had stopped and this thread claims the delivery instead: nothing queued
    /// is ever left behind.
    @inlinable
    internal func claimLocked(_ me: UInt) -> Claim {
        var current = state.load(ordering: .acquiring)
        while true {
            let deliverer = current & ~3
            let desired: UInt
            if deliverer == 0 {
                desired = me
            } else if deliverer == me {
                return .nested
            } else if current & 1 != 0 {
                return .busy
            } else {
                desired = current | 1
            }
            let (done, now) = state.compareExchange(
                expected: current, desired: desired, ordering: .acquiringAndReleasing)
            if done { return deliverer == 0 ? .claimed : .busy }
            current = now
        }
    }

    /// With the lock held, as the outermost deliverer: delivers what other threads queued meanwhile, stops being the
    /// deliverer, releases the closures if the subscription ended meanwhile, and unlocks.
    @usableFromInline
    internal func finishDelivering() {
        while active && !pending.isEmpty {
            let batch = pending
            pending = []
            for event in batch where active {
                switch event {
                case .value(let value):
                    guard demand > 0 else {
                        if isCurrentValue { needsCurrentValue = true }
                        continue
                    }
                    if demand != .unlimited { demand -= 1 }
                    if needsCurrentValue {
                        needsCurrentValue = false
                        noteUnlimitedLocked()
                    }
                    lock.unlock()
                    let more = receiveValue(value)
                    lock.lock()
                    if more != .none { addDemandLocked(more) }
                case .completion(let completion):
                    let core = end()
                    let finish = handlers.unsafelyUnwrapped.takeUnretainedValue().receiveCompletion
                    lock.unlock()
                    finish(completion)
                    withExtendedLifetime(core) {}
                    lock.lock()
                case .currentValue:
                    deliverCurrentValueLocked()
                }
            }
        }
        state.store(active ? 0 : Self.endedBit, ordering: .releasing)
        let released = active ? nil : takeClosures()
        lock.unlock()
        withExtendedLifetime(released) {}
    }

    /// Bit 1 of `state`: the subscription ended while nobody was delivering.
    @inlinable
    internal static var endedBit: UInt { 2 }

    /// With the lock held and this thread the deliverer: sends the current value if it is still owed.
    ///
    /// The value is read under this subscription's lock (then the subject's, never the other way round), so every
    /// value queued by then is at most as new as it: those are dropped, and the subscriber never sees an older value
    /// after the current one.
    @usableFromInline
    internal func deliverCurrentValueLocked() {
        guard needsCurrentValue, demand > 0, active, let core, let current = core.value else { return }
        let superseded = pending
        pending = superseded.filter { if case .value = $0 { return false } else { return true } }
        if demand != .unlimited { demand -= 1 }
        needsCurrentValue = false
        noteUnlimitedLocked()
        lock.unlock()
        withExtendedLifetime(superseded) {}
        let more = receiveValue(current)
        lock.lock()
        if more != .none { addDemandLocked(more) }
    }

    @usableFromInline
    internal func offer(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard active else {
            lock.unlock()
            return
        }
        let outermost: Bool
        switch claimLocked(currentThreadWord()) {
        case .claimed:
            outermost = true
        case .nested:
            outermost = false
        case .busy:
            pending.append(.completion(completion))
            lock.unlock()
            return
        }
        let core = end()
        let finish = handlers.unsafelyUnwrapped.takeUnretainedValue().receiveCompletion
        lock.unlock()
        finish(completion)
        withExtendedLifetime(core) {}
        if outermost {
            lock.lock()
            finishDelivering()
        }
    }

    /// With the lock held: marks the subscription ended and forgets the subject and anything queued; returns them so
    /// that they are released after unlocking. The closures stay until no delivery is running.
    @usableFromInline
    internal func end() -> (SubjectCore<Output, Failure>?, AnyObject?, [Pending]) {
        active = false
        let dropped = pending
        pending = []
        // A delivery in progress must release the closures when it stops; with none, block the fast path for good.
        var current = state.load(ordering: .acquiring)
        while true {
            let desired = current & ~Self.endedBit == 0 ? Self.endedBit : current | 1
            let (done, now) = state.compareExchange(
                expected: current, desired: desired, ordering: .acquiringAndReleasing
            )
            if done { break }
            current = now
        }
        let ended = (core, owner, dropped)
        core = nil
        owner = nil
        return ended
    }

    /// With the lock held and nobody delivering: takes the closures out, returning them so they are released after
    /// unlocking (user closures are never deinitialized under the lock).
    @usableFromInline
    internal func takeClosures() -> SubjectConduitHandlers<Output, Failure>? {
        let old = handlers?.takeRetainedValue()
        handlers = nil
        return old
    }

    @usableFromInline
    internal func request(_ demand: Subscribers.Demand) {
        precondition(demand != .none, "demand must not be zero")
        lock.lock()
        guard active, let core else {
            lock.unlock()
            return
        }
        // Combine's ObservableObjectPublisher signals every change to a subscriber that has asked for anything.
        addDemandLocked(kind == .observableObject ? .unlimited : demand)
        let firstRequest = !hasRequested
        hasRequested = true
        if needsCurrentValue {
            switch claimLocked(currentThreadWord()) {
            case .claimed:
                deliverCurrentValueLocked()
                lock.unlock()
                if firstRequest { core.downstreamDidRequest() }
                lock.lock()
                finishDelivering()
                return
            case .nested:
                deliverCurrentValueLocked()
            case .busy:
                pending.append(.currentValue)
            }
        }
        lock.unlock()
        if firstRequest { core.downstreamDidRequest() }
    }

    @usableFromInline
    internal func cancel() {
        lock.lock()
        guard active else {
            lock.unlock()
            return
        }
        let (core, owner, dropped) = end()
        let released = state.load(ordering: .acquiring) & ~Self.endedBit == 0 ? takeClosures() : nil
        lock.unlock()
        withExtendedLifetime(released) {}
        core?.detach(self)
        withExtendedLifetime((owner, dropped)) {}
    }
}

/// A subscriber's closures, as a conduit holds them.
@usableFromInline
internal final class SubjectConduitHandlers<Output, Failure: Error> {
    @usableFromInline internal let receiveValue: (Output) -> Subscribers.Demand
    @usableFromInline internal let receiveCompletion: (Subscribers.Completion<Failure>) -> Void
    /// The subscriber itself, for the subscription's mirror only (the closures above are what deliveries call).
    @usableFromInline internal let downstream: Any

    @inlinable
    internal init(
        _ receiveValue: @escaping (Output) -> Subscribers.Demand,
        _ receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        _ downstream: Any
    ) {
        self.receiveValue = receiveValue
        self.receiveCompletion = receiveCompletion
        self.downstream = downstream
    }
}
