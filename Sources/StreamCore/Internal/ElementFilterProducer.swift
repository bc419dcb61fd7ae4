/// What a one-in, at-most-one-out operator decides for an upstream value.
internal enum FilterStep<Output, Failure: Error> {
    /// Pass this value downstream.
    case send(Output)
    /// Pass this last value downstream, then cancel upstream and finish (prefix(n) once n values went out).
    case sendAndFinish(Output)
    /// Drop the value; the operator asks upstream for one replacement.
    case skip
    /// Stop: cancel upstream and finish (prefix(while:) once the predicate fails).
    case finish
    /// A closure threw: cancel upstream and fail.
    case fail(Failure)
}

/// The shared machinery of operators that map each upstream value to at most one downstream value
/// (removeDuplicates, drop(while:), prefix(while:), encode, decode and their try variants).
///
/// Downstream demand is forwarded upstream unchanged; each dropped value is replaced by a request for one more,
/// so the downstream never receives more than it asked for and never waits on a value that was filtered out.
/// Subclasses override `process(_:)`; the upstream serializes calls to it, so it may keep state without the lock.
internal class ElementFilterProducer<Downstream: Subscriber, Input, UpstreamFailure: Error>:
    Subscriber, Subscription, CustomStringConvertible
{
    private enum State {
        case awaitingSubscription
        case subscribed(any Subscription)
        case terminal
    }

    private let lock = Lock()
    private var state = State.awaitingSubscription
    /// Demand requested before the upstream subscription arrived (only possible if upstream subscribes late).
    private var pendingDemand = Subscribers.Demand.none
    private let downstream: Downstream

    internal init(downstream: Downstream) {
        self.downstream = downstream
    }

    /// The operator's name, as Combine describes its subscription.
    internal var description: String { "Filter" }

    /// The downstream and the live upstream subscription, for `customMirror` only (read under the lock, off the
    /// delivery path).
    internal var reflected: (downstream: Downstream, upstream: (any Subscription)?) {
        lock.lock()
        defer { lock.unlock() }
        if case .subscribed(let subscription) = state { return (downstream, subscription) }
        return (downstream, nil)
    }

    /// Decides what to do with one value. Overridden by every subclass.
    internal func process(_ input: Input) -> FilterStep<Downstream.Input, Downstream.Failure> {
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
        downstream.receive(subscription: self)
        lock.lock()
        let pending = pendingDemand
        pendingDemand = .none
        lock.unlock()
        if pending != .none {
            subscription.request(pending)
        }
    }

    internal func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .subscribed = state else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        switch process(input) {
        case .send(let output):
            return downstream.receive(output)
        case .sendAndFinish(let output):
            let demand = downstream.receive(output)
            if let subscription = takeSubscription() {
                subscription.cancel()
                downstream.receive(completion: .finished)
            }
            return demand
        case .skip:
            return .max(1)
        case .finish:
            if let subscription = takeSubscription() {
                subscription.cancel()
                downstream.receive(completion: .finished)
            }
            return .none
        case .fail(let error):
            if let subscription = takeSubscription() {
                subscription.cancel()
                downstream.receive(completion: .failure(error))
            }
            return .none
        }
    }

    internal func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        guard takeSubscription() != nil else { return }
        switch completion {
        case .finished:
            downstream.receive(completion: .finished)
        case .failure(let error):
            downstream.receive(completion: .failure(convert(error)))
        }
    }

    internal func request(_ demand: Subscribers.Demand) {
        precondition(demand != .none, "demand must not be zero")
        lock.lock()
        switch state {
        case .awaitingSubscription:
            pendingDemand += demand
            lock.unlock()
        case .subscribed(let subscription):
            lock.unlock()
            subscription.request(demand)
        case .terminal:
            lock.unlock()
        }
    }

    internal func cancel() {
        takeSubscription()?.cancel()
    }

    /// Moves to the terminal state, returning the upstream subscription if this call is the one that ended the stream.
    @discardableResult
    private func takeSubscription() -> (any Subscription)? {
        lock.lock()
        defer { lock.unlock() }
        guard case .subscribed(let subscription) = state else {
            state = .terminal
            return nil
        }
        state = .terminal
        return subscription
    }
}
