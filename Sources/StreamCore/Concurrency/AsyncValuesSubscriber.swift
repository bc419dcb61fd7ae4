/// The subscriber behind `values`: it turns a publisher into one-at-a-time pulls by an async iterator.
///
/// Each `next` asks upstream for exactly one value (`request(.max(1))`) and only when nothing is buffered. A synchronous
/// publisher delivers inside that request, so `next` returns without ever suspending; otherwise `next` parks an unsafe
/// continuation that the delivering thread resumes outside the lock. Iterators are used by one task at a time (as
/// every async iterator), so there is at most one parked continuation.
///
/// Performance: the publisher calls `receive(_:)` through its own generic, usually unspecialized code, so that method
/// touches only plain flags and a preallocated slot; every generic optional it read there cost a metadata lookup per
/// element. The iterator side is inlinable, so `for await` loops specialize it for their element type.
@usableFromInline
internal final class AsyncValuesSubscriber<Input, Failure: Error>: Subscriber, @unchecked Sendable {
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
    @usableFromInline @exclusivity(unchecked) internal var waiter: UnsafeContinuation<Handoff, Never>?
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
        lock.unlock()
        if owed > 0 {
            subscription.request(.max(owed))
        }
    }

    @inlinable
    internal func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        if cancelled || ended {
            lock.unlock()
            return .none
        }
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
        let waiter = self.waiter
        self.waiter = nil
        hasWaiter = false
        lock.unlock()
        waiter?.resume(returning: Handoff(step: .value(input)))
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
        // A parked waiter means nothing is buffered, so it gets the terminal step; otherwise the step waits its turn.
        guard hasWaiter, let waiter else {
            lock.unlock()
            return
        }
        self.waiter = nil
        hasWaiter = false
        let step = takeLocked() ?? .finished
        lock.unlock()
        waiter.resume(returning: Handoff(step: step))
    }

    /// Cancels upstream and ends the iteration; a parked `next` returns the end of the sequence.
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
        let waiter = self.waiter
        self.waiter = nil
        hasWaiter = false
        if slotFull {
            slot.deinitialize(count: 1)
            slotFull = false
        }
        overflow = []
        hasOverflow = false
        lock.unlock()
        subscription?.cancel()
        waiter?.resume(returning: Handoff(step: .finished))
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
                    waiter = continuation
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
