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

/// How an operator answers events that break the protocol. Combine's answers differ per operator (recorded by
/// OpenCombine's conformance suite), so each subclass states its own; none of this is read on the delivery path.
internal struct FilterMisuse {
    /// What a value or completion before the upstream subscription does.
    internal enum Early {
        /// Ignored.
        case ignored
        /// Values are processed and forwarded (their demand returned); completions are ignored, and the subscription
        /// arriving later is used as usual.
        case valuesForwarded
        /// Values are processed and forwarded, and a completion is forwarded (ending the stream).
        case forwarded
        /// A precondition failure, as is a request before the subscription.
        case trap
    }

    /// Values and completions before the upstream subscription.
    internal var early = Early.ignored
    /// A cancel before the upstream subscription is ignored (the later subscription is used as usual) instead of
    /// ending the stream.
    internal var ignoresEarlyCancel = false
    /// Values after the end (a completion, a cancel, a thrown error) are still processed and forwarded.
    internal var forwardsLateValues = false
    /// Completions after the end are still forwarded, once a subscription had arrived.
    internal var forwardsLateCompletions = false
    /// A late value whose processing fails (a closure throws again) still forwards that failure.
    internal var forwardsLateFailures = false
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
    private var hadSubscription = false
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
    internal var reflected: (downstream: Downstream, upstream: (any Subscription)?, finished: Bool) {
        lock.lock()
        defer { lock.unlock() }
        switch state {
        case .awaitingSubscription: return (downstream, nil, false)
        case .subscribed(let subscription): return (downstream, subscription, false)
        case .terminal: return (downstream, nil, true)
        }
    }

    /// This operator's answers to protocol violations; by default it ignores them.
    internal var misuse: FilterMisuse { FilterMisuse() }

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
        hadSubscription = true
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
            let early: Bool
            if case .awaitingSubscription = state { early = true } else { early = false }
            lock.unlock()
            return receiveOutOfTurn(input, early: early)
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

    /// A value before the subscription or after the end, answered as `misuse` says. Only a failure ends the stream
    /// from here; a finish or a last value does not, since there is no subscription to cancel.
    private func receiveOutOfTurn(_ input: Input, early: Bool) -> Subscribers.Demand {
        let policy = misuse
        if early {
            switch policy.early {
            case .ignored: return .none
            case .trap: preconditionFailure("\(description) received a value before its subscription")
            case .valuesForwarded, .forwarded: break
            }
        } else if !policy.forwardsLateValues {
            return .none
        }
        switch process(input) {
        case .send(let output), .sendAndFinish(let output):
            return downstream.receive(output)
        case .skip:
            return .max(1)
        case .finish:
            return .none
        case .fail(let error):
            guard early else {
                if policy.forwardsLateFailures {
                    downstream.receive(completion: .failure(error))
                }
                return .none
            }
            lock.lock()
            state = .terminal
            lock.unlock()
            downstream.receive(completion: .failure(error))
            return .none
        }
    }

    internal func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        lock.lock()
        guard case .subscribed = state else {
            lock.unlock()
            receiveCompletionOutOfTurn(completion)
            return
        }
        state = .terminal
        lock.unlock()
        forward(completion)
    }

    /// A completion before the subscription or after the end, answered as `misuse` says.
    private func receiveCompletionOutOfTurn(_ completion: Subscribers.Completion<UpstreamFailure>) {
        let policy = misuse
        lock.lock()
        let early: Bool
        if case .awaitingSubscription = state { early = true } else { early = false }
        let seenSubscription = hadSubscription
        lock.unlock()
        if early {
            switch policy.early {
            case .trap:
                preconditionFailure("\(description) received a completion before its subscription")
            case .valuesForwarded:
                // Combine's stateless operators (output, tryMap, tryScan) ignore it and still take the subscription.
                return
            case .ignored, .forwarded:
                // The stream has ended: a subscription arriving later is cancelled.
                lock.lock()
                state = .terminal
                lock.unlock()
                if case .forwarded = policy.early {
                    forward(completion)
                }
            }
        } else if policy.forwardsLateCompletions && seenSubscription {
            forward(completion)
        }
    }

    private func forward(_ completion: Subscribers.Completion<UpstreamFailure>) {
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
            if case .trap = misuse.early {
                lock.unlock()
                preconditionFailure("\(description) was asked for values before its subscription")
            }
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
        if misuse.ignoresEarlyCancel {
            lock.lock()
            if case .awaitingSubscription = state {
                lock.unlock()
                return
            }
            lock.unlock()
        }
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
