extension Future where Failure == Never {
    /// The future's value, awaited: `let tweets = await future.value`.
    ///
    /// Waits as long as the future does; a future that never fulfils its promise never returns, as in Combine.
    public var value: Output {
        get async {
            let waiter = FutureValueWaiter<Output, Never>()
            let result = await withUnsafeContinuation {
                (continuation: UnsafeContinuation<FutureValueWaiter<Output, Never>.Handoff, Never>) in
                waiter.start(continuation)
                subscribe(waiter)
            }
            switch result.result {
            case .success(let value)?:
                return value
            case nil:
                // Only a cancel yields no result, and this variant installs no cancellation handler.
                preconditionFailure("Future.value resumed without a result")
            }
        }
    }
}

extension Future {
    /// The future's value, awaited; throws the future's failure: `let tweets = try await future.value`.
    ///
    /// Cancelling the awaiting task cancels the subscription and throws `CancellationError` (Combine keeps waiting;
    /// a cooperative cancel is what async callers expect).
    public var value: Output {
        get async throws {
            let waiter = FutureValueWaiter<Output, Failure>()
            let handoff = await withTaskCancellationHandler {
                await withUnsafeContinuation {
                    (continuation: UnsafeContinuation<FutureValueWaiter<Output, Failure>.Handoff, Never>) in
                    waiter.start(continuation)
                    subscribe(waiter)
                }
            } onCancel: {
                waiter.cancel()
            }
            guard let result = handoff.result else { throw CancellationError() }
            return try result.get()
        }
    }
}

/// Subscribes to a future on behalf of `value` and resumes the awaiting task exactly once: with the value, the failure,
/// or (after cancel) nothing.
internal final class FutureValueWaiter<Output, Failure: Error>: Subscriber, @unchecked Sendable {
    /// Carries the outcome to the awaiting task. The future hands its value over once and only the awaiting task reads
    /// it, so it is never used from two threads at a time.
    internal struct Handoff: @unchecked Sendable {
        let result: Result<Output, Failure>?
    }

    private let lock = Lock()
    private var continuation: UnsafeContinuation<Handoff, Never>?
    private var subscription: (any Subscription)?
    private var cancelled = false

    func start(_ continuation: UnsafeContinuation<Handoff, Never>) {
        lock.lock()
        if cancelled {
            lock.unlock()
            continuation.resume(returning: Handoff(result: nil))
            return
        }
        self.continuation = continuation
        lock.unlock()
    }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard self.subscription == nil, !cancelled else {
            lock.unlock()
            subscription.cancel()
            return
        }
        self.subscription = subscription
        lock.unlock()
        subscription.request(.max(1))
    }

    func receive(_ input: Output) -> Subscribers.Demand {
        resume(.success(input))
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        if case .failure(let error) = completion {
            resume(.failure(error))
        }
    }

    func cancel() {
        lock.lock()
        cancelled = true
        let subscription = self.subscription
        self.subscription = nil
        let continuation = self.continuation
        self.continuation = nil
        lock.unlock()
        subscription?.cancel()
        continuation?.resume(returning: Handoff(result: nil))
    }

    private func resume(_ result: Result<Output, Failure>) {
        lock.lock()
        let continuation = self.continuation
        self.continuation = nil
        subscription = nil
        lock.unlock()
        continuation?.resume(returning: Handoff(result: result))
    }
}
