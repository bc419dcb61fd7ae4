/// The subscriber behind `values`: it turns a publisher into one-at-a-time pulls by an async iterator.
///
/// Each `next` asks upstream for exactly one value (`request(.max(1))`) and only when nothing is buffered. A synchronous
/// publisher delivers inside that request, so `next` returns without ever suspending; otherwise `next` parks an unsafe
/// continuation that the delivering thread resumes outside the lock. Several tasks may call `next` on one iterator at
/// once (Combine allows it): each parks its own continuation, values resume them in arrival order, and a completion or
/// a cancel resumes every one of them.
///
/// Misuse follows Combine: a value beyond the requested demand traps; a value before the subscription ends every
/// parked `next` (they return nil) and is dropped, while the pulls stay owed to the subscription that comes later.
///
/// Performance: the publisher calls `receive(_:)` through its own generic, usually unspecialized code, so that method
/// touches only plain flags and a preallocated slot; every generic optional it read there cost a metadata lookup per
/// element. The iterator side is inlinable, so `for await` loops specialize it for their element type.
@usableFromInline
internal final class AsyncValuesSubscriber<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
    /// What a pull yields.
    @usableFromInline
    internal enum Step {
        case value(Input)
        case finished
        case failure(Failure)
    }

    /// Carries a step from the delivering thread to the awaiting task. The publisher hands each value downstream once
    /// and the iterator is its only reader, so the value is never used from two threads at a time.
    @usableFromInline
    internal struct Handoff: @unchecked Sendable {
        @usableFromInline let step: Step

        @inlinable
        init(step: Step) {
            self.step = step
        }
    }

    // Every mutable field is guarded by `lock`, so the runtime exclusivity checks are redundant (and, in the
    // publisher's unspecialized calls, a measurable share of each element's cost).
    @usableFromInline internal let lock = Lock()
    @usableFromInline @exclusivity(unchecked) internal var subscription: (any Subscription)?
    @usableFromInline @exclusivity(unchecked) internal var hadSubscription = false
    @usableFromInline @exclusivity(unchecked) internal var unsentRequests = 0
    /// Values requested from the subscription and not yet delivered; a value beyond it is the publisher's bug.
    @usableFromInline @exclusivity(unchecked) internal var outstanding = 0
    /// The one value a well-behaved publisher delivers ahead of the pull (inside our own request).
    @usableFromInline internal let slot = UnsafeMutablePointer<Input>.allocate(capacity: 1)
    @usableFromInline @exclusivity(unchecked) internal var slotFull = false
    /// Values beyond the slot, from a publisher sending more than was asked: kept in order, never dropped.
    @usableFromInline @exclusivity(unchecked) internal var overflow: [Input] = []
    @usableFromInline @exclusivity(unchecked) internal var hasOverflow = false
    /// Set with `terminal`, so the hot path tests a flag instead of a generic optional.
    @usableFromInline @exclusivity(unchecked) internal var ended = false
    @usableFromInline @exclusivity(unchecked) internal var terminal: Step?
    @usableFromInline @exclusivity(unchecked) internal var hasWaiter = false
    /// The parked pulls, oldest first; `hasWaiter` says it is not empty, so the hot path tests a flag.
    @usableFromInline @exclusivity(unchecked) internal var waiters: [UnsafeContinuation<Handoff, Never>] = []
    @usableFromInline @exclusivity(unchecked) internal var cancelled = false

    @inlinable
    internal init() {}

    deinit {
        if slotFull {
            slot.deinitialize(count: 1)
        }
        slot.deallocate()
    }

    @inlinable
    internal func receive(subscription: any Subscription) {
        lock.lock()
        guard !hadSubscription, !cancelled, !ended else {
            lock.unlock()
            subscription.cancel()
            return
        }
        hadSubscription = true
        self.subscription = subscription
        let owed = unsentRequests
        unsentRequests = 0
        outstanding += owed
        lock.unlock()
        if owed > 0 {
            subscription.request(.max(owed))
        }
    }

    @inlinable
    internal func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        if cancelled || ended || !hadSubscription {
            return dropAndUnlock()
        }
        precondition(outstanding > 0, "Received an output without requesting demand")
        outstanding -= 1
        if hasWaiter {
            resumeWaiterAndUnlock(with: input)
        } else if !slotFull && !hasOverflow {
            slot.initialize(to: input)
            slotFull = true
            lock.unlock()
        } else {
            overflow.append(input)
            hasOverflow = true
            lock.unlock()
        }
        return .none
    }

    /// The slow path of `receive(_:)`, kept out of line so the fast path never touches `Step` or `Handoff` metadata.
    @usableFromInline
    @inline(never)
    internal func resumeWaiterAndUnlock(with input: Input) {
        let waiter = waiters.removeFirst()
        hasWaiter = !waiters.isEmpty
        lock.unlock()
        waiter.resume(returning: Handoff(step: .value(input)))
    }

    /// A value after the end is ignored. One before the subscription is dropped, and every parked pull returns nil,
    /// as in Combine (the pulls stay owed to the subscription). Called with the lock held; returns with it released.
    @usableFromInline
    @inline(never)
    internal func dropAndUnlock() -> Subscribers.Demand {
        var parked: [UnsafeContinuation<Handoff, Never>] = []
        if !hadSubscription {
            parked = waiters
            waiters = []
            hasWaiter = false
        }
        lock.unlock()
        for waiter in parked {
            waiter.resume(returning: Handoff(step: .finished))
        }
        return .none
    }

    @inlinable
    internal func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard !cancelled, !ended else {
            lock.unlock()
            return
        }
        switch completion {
        case .finished: terminal = .finished
        case .failure(let error): terminal = .failure(error)
        }
        ended = true
        subscription = nil
        // A parked waiter means nothing is buffered, so the oldest gets the terminal step (a failure is thrown
        // once) and the others the end; with none parked, the step waits its turn.
        guard hasWaiter else {
            lock.unlock()
            return
        }
        let parked = waiters
        waiters = []
        hasWaiter = false
        let steps = parked.map { _ in takeLocked() ?? .finished }
        lock.unlock()
        for (waiter, step) in zip(parked, steps) {
            waiter.resume(returning: Handoff(step: step))
        }
    }

    /// Cancels upstream and ends the iteration; every parked `next` returns the end of the sequence.
    @inlinable
    internal func cancel() {
        lock.lock()
        guard !cancelled else {
            lock.unlock()
            return
        }
        cancelled = true
        let subscription = self.subscription
        self.subscription = nil
        let parked = waiters
        waiters = []
        hasWaiter = false
        if slotFull {
            slot.deinitialize(count: 1)
            slotFull = false
        }
        overflow = []
        hasOverflow = false
        lock.unlock()
        subscription?.cancel()
        for waiter in parked {
            waiter.resume(returning: Handoff(step: .finished))
        }
    }

    /// Pulls the next step, asking upstream for one value when nothing is buffered.
    @inlinable
    internal func next(isolation actor: isolated (any Actor)?) async -> Step {
        if Task.isCancelled {
            cancel()
        }
        // One critical section either yields a buffered step or picks the subscription to ask for one value.
        lock.lock()
        if let step = takeLocked() {
            lock.unlock()
            return step
        }
        if let subscription {
            outstanding += 1
            lock.unlock()
            subscription.request(.max(1))
        } else {
            if !hadSubscription, !cancelled, !ended {
                unsentRequests += 1
            }
            lock.unlock()
        }
        if let step = take() {
            return step
        }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation(isolation: actor) { (continuation: UnsafeContinuation<Handoff, Never>) in
                lock.lock()
                if let step = takeLocked() {
                    lock.unlock()
                    continuation.resume(returning: Handoff(step: step))
                } else {
                    waiters.append(continuation)
                    hasWaiter = true
                    lock.unlock()
                }
            }.step
        } onCancel: {
            self.cancel()
        }
    }

    @inlinable
    internal func take() -> Step? {
        lock.lock()
        defer { lock.unlock() }
        return takeLocked()
    }

    /// With the lock held: a buffered value first, then the terminal step (kept, so later pulls see it too), then the
    /// end if cancelled; nil when the caller must wait.
    @inlinable
    internal func takeLocked() -> Step? {
        if slotFull {
            slotFull = false
            return .value(slot.move())
        }
        if hasOverflow {
            let value = overflow.removeFirst()
            hasOverflow = !overflow.isEmpty
            return .value(value)
        }
        if ended, let terminal {
            if case .failure = terminal {
                // A failure is thrown once; the sequence then ends, as a throwing iterator should.
                self.terminal = .finished
            }
            return terminal
        }
        return cancelled ? .finished : nil
    }
}

/// Owned by an iterator and its copies only: when the last copy goes away (a `break` out of `for await`), the
/// subscription is cancelled, so an abandoned iteration does not keep its publisher running.
@usableFromInline
internal final class AsyncValuesLifetime<Input, Failure: Error> {
    @usableFromInline
    internal let subscriber: AsyncValuesSubscriber<Input, Failure>

    @inlinable
    internal init(_ subscriber: AsyncValuesSubscriber<Input, Failure>) {
        self.subscriber = subscriber
    }

    deinit {
        subscriber.cancel()
    }
}
