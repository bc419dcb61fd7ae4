/// What a reducing operator decides after folding one upstream value into its result.
internal enum ReduceStep<Failure: Error> {
    /// Keep consuming upstream.
    case `continue`
    /// The result is known early (first, contains, allSatisfy): cancel upstream and publish the result.
    case finish
    /// A closure threw: cancel upstream and fail.
    case fail(Failure)
}

/// The shared machinery of the reducing family (reduce, collect, count, min/max, contains, allSatisfy, first, last).
///
/// As in Combine, it hands itself downstream before asking upstream for `.unlimited`, folds every value into `result`,
/// and publishes at most one value — only once the downstream has asked for something — followed by `.finished`.
/// Failures are forwarded at once, whatever the demand. Subclasses override `reduce(_:)` and set `result`.
///
/// `result` is touched outside the lock only by the upstream's (serialized) value calls; it is read under the lock
/// after the upstream has finished, which orders those writes before the read.
internal class ReduceProducer<Downstream: Subscriber, Input, UpstreamFailure: Error>:
    Subscriber, Subscription, CustomStringConvertible
{
    private enum State {
        case awaitingSubscription
        case subscribed(any Subscription)
        /// Upstream finished (or the result came early); the result waits for demand.
        case resultReady
        /// Everything was sent, the stream failed, or it was cancelled.
        case terminal
    }

    private let lock = Lock()
    private var state = State.awaitingSubscription
    private var downstreamWantsValue = false
    private let downstream: Downstream
    /// The value published on completion; `nil` publishes no value (first/last/min/max of an empty stream).
    internal var result: Downstream.Input?

    internal init(downstream: Downstream, initial: Downstream.Input?) {
        self.downstream = downstream
        self.result = initial
        self.initial = initial
    }

    /// The operator's name, as Combine describes its subscription.
    internal var description: String { "Reduce" }

    /// The initial result, kept for `customMirror` only.
    internal let initial: Downstream.Input?

    /// The downstream and the upstream status, for `customMirror` only (read under the lock, off the delivery path).
    internal var reflected: (downstream: Downstream, status: Any) {
        lock.lock()
        defer { lock.unlock() }
        return (downstream, state)
    }

    /// Folds one value into `result`. Overridden by every subclass.
    internal func reduce(_ input: Input) -> ReduceStep<Downstream.Failure> {
        fatalError("abstract")
    }

    /// Converts an upstream failure; the two types are identical, or the downstream's is `any Error`.
    internal func convert(_ error: UpstreamFailure) -> Downstream.Failure {
        // swiftlint:disable:next force_cast
        error as! Downstream.Failure
    }

    internal func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription = state else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .subscribed(subscription)
        lock.unlock()
        // Combine's order: the downstream gets its subscription first, then upstream is asked for everything.
        downstream.receive(subscription: self)
        subscription.request(.unlimited)
    }

    /// Sends a failure downstream. Called with the lock held; returns with it released.
    private func failLocked(_ error: Downstream.Failure) {
        lock.unlock()
        downstream.receive(completion: .failure(error))
    }

    internal func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .subscribed = state else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        switch reduce(input) {
        case .continue:
            return .none
        case .finish:
            lock.lock()
            guard case .subscribed(let subscription) = state else {
                lock.unlock()
                return .none
            }
            state = .resultReady
            lock.unlock()
            subscription.cancel()
            deliverIfRequested()
        case .fail(let error):
            lock.lock()
            guard case .subscribed(let subscription) = state else {
                lock.unlock()
                return .none
            }
            state = .terminal
            lock.unlock()
            subscription.cancel()
            lock.lock()
            failLocked(error)
        }
        return .none
    }

    internal func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        lock.lock()
        guard case .subscribed = state else {
            lock.unlock()
            return
        }
        switch completion {
        case .finished:
            state = .resultReady
            lock.unlock()
            deliverIfRequested()
        case .failure(let error):
            state = .terminal
            failLocked(convert(error))
        }
    }

    internal func request(_ demand: Subscribers.Demand) {
        precondition(demand != .none, "demand must not be zero")
        lock.lock()
        downstreamWantsValue = true
        lock.unlock()
        deliverIfRequested()
    }

    internal func cancel() {
        lock.lock()
        // A cancel before the upstream subscription is ignored, as in Combine: the subscription that arrives later
        // is still asked for `.unlimited`.
        if case .awaitingSubscription = state {
            lock.unlock()
            return
        }
        let previous = state
        state = .terminal
        lock.unlock()
        if case .subscribed(let subscription) = previous {
            subscription.cancel()
        }
    }

    /// Sends the result and `.finished` exactly once, when both the result is ready and the downstream asked.
    private func deliverIfRequested() {
        lock.lock()
        guard case .resultReady = state, downstreamWantsValue else {
            lock.unlock()
            return
        }
        state = .terminal
        let value = result
        result = nil
        lock.unlock()
        if let value {
            _ = downstream.receive(value)
        }
        downstream.receive(completion: .finished)
    }
}
