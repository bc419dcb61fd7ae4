/// The subscriber behind `values`: it turns a publisher into one-at-a-time pulls by an async iterator.
///
/// Each `next` asks upstream for exactly one value (`request(.max(1))`) and only when nothing is buffered. A synchronous
/// publisher delivers inside that request, so `next` returns without ever suspending; otherwise `next` parks an unsafe
/// continuation that the delivering thread resumes outside the lock. Iterators are used by one task at a time (as
/// every async iterator), so there is at most one parked continuation.
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
        let step: Step
    }

    private let lock = Lock()
    private var subscription: (any Subscription)?
    private var hadSubscription = false
    private var unsentRequests = 0
    private var buffered: [Input] = []
    private var bufferedHead = 0
    private var terminal: Step?
    private var waiter: UnsafeContinuation<Handoff, Never>?
    private var cancelled = false

    @usableFromInline
    internal init() {}

    @usableFromInline
    internal func receive(subscription: any Subscription) {
        lock.lock()
        guard !hadSubscription, !cancelled, terminal == nil else {
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

    @usableFromInline
    internal func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard !cancelled, terminal == nil else {
            lock.unlock()
            return .none
        }
        if let waiter {
            self.waiter = nil
            lock.unlock()
            waiter.resume(returning: Handoff(step: .value(input)))
        } else {
            // Delivered inside our own request (the fast path), or more than was asked: kept in order, never dropped.
            buffered.append(input)
            lock.unlock()
        }
        return .none
    }

    @usableFromInline
    internal func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard !cancelled, terminal == nil else {
            lock.unlock()
            return
        }
        switch completion {
        case .finished: terminal = .finished
        case .failure(let error): terminal = .failure(error)
        }
        subscription = nil
        // A parked waiter means nothing is buffered, so it gets the terminal step; otherwise the step waits its turn.
        guard let waiter else {
            lock.unlock()
            return
        }
        self.waiter = nil
        let step = takeLocked() ?? .finished
        lock.unlock()
        waiter.resume(returning: Handoff(step: step))
    }

    /// Cancels upstream and ends the iteration; a parked `next` returns the end of the sequence.
    @usableFromInline
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
        buffered = []
        bufferedHead = 0
        lock.unlock()
        subscription?.cancel()
        waiter?.resume(returning: Handoff(step: .finished))
    }

    /// Pulls the next step, asking upstream for one value when nothing is buffered.
    @usableFromInline
    internal func next(isolation actor: isolated (any Actor)?) async -> Step {
        if Task.isCancelled {
            cancel()
        }
        if let step = take() {
            return step
        }
        requestOne()
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
                    lock.unlock()
                }
            }.step
        } onCancel: {
            self.cancel()
        }
    }

    private func requestOne() {
        lock.lock()
        if let subscription {
            lock.unlock()
            subscription.request(.max(1))
        } else {
            if !hadSubscription, !cancelled, terminal == nil {
                unsentRequests += 1
            }
            lock.unlock()
        }
    }

    private func take() -> Step? {
        lock.lock()
        defer { lock.unlock() }
        return takeLocked()
    }

    /// With the lock held: a buffered value first, then the terminal step (kept, so later pulls see it too), then the
    /// end if cancelled; nil when the caller must wait.
    private func takeLocked() -> Step? {
        if bufferedHead < buffered.count {
            let value = buffered[bufferedHead]
            bufferedHead += 1
            if bufferedHead == buffered.count {
                buffered.removeAll(keepingCapacity: true)
                bufferedHead = 0
            }
            return .value(value)
        }
        if let terminal {
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

    @usableFromInline
    internal init(_ subscriber: AsyncValuesSubscriber<Input, Failure>) {
        self.subscriber = subscriber
    }

    deinit {
        subscriber.cancel()
    }
}
