/// The subscription behind `catch` and `tryCatch`, following Combine's recorded behaviour.
///
/// Before recovery, the downstream gets this subscription only once the upstream's has arrived, and the upstream's
/// values are counted against the downstream's demand: one beyond it, one before the subscription, and a second
/// failure while recovering are programming errors and trap, as in Combine. A failure runs `recover`, which
/// subscribes the replacement through a `CatchPostInput`; the replacement is asked for whatever demand is still owed.
/// A cancel while the replacement is being subscribed is ignored (the replacement is still asked for the owed demand
/// and its completion forwarded), and values that arrive after a cancel are still forwarded, with their demand
/// returned, as Combine does. Never calls out while holding its lock.
internal final class CatchCore<Downstream: Subscriber, UpstreamFailure: Error>: Subscription, CustomStringConvertible {
    /// Subscribes the replacement for a failure, or throws the handler's error (tryCatch).
    typealias Recover = (UpstreamFailure, CatchCore) throws -> Void

    private enum State {
        case awaitingUpstream
        case upstream(any Subscription)
        /// Upstream failed; the replacement is being subscribed.
        case awaitingReplacement
        case replacement(any Subscription)
        /// The downstream cancelled the replacement: its values still pass, its completion does not.
        case replacementCancelled
        /// The downstream cancelled before recovery.
        case cancelled
        /// A completion was delivered.
        case finished
    }

    private let lock = Lock()
    private var state = State.awaitingUpstream
    private var demand = Subscribers.Demand.none
    private let downstream: Downstream
    private let recover: Recover
    let description: String

    init(downstream: Downstream, name: String, recover: @escaping Recover) {
        self.downstream = downstream
        self.description = name
        self.recover = recover
    }

    // MARK: The upstream's events

    func upstreamSubscription(_ subscription: any Subscription) {
        lock.lock()
        guard case .awaitingUpstream = state else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .upstream(subscription)
        lock.unlock()
        downstream.receive(subscription: self)
    }

    func upstreamValue(_ input: Downstream.Input) -> Subscribers.Demand {
        lock.lock()
        if case .awaitingUpstream = state {
            lock.unlock()
            preconditionFailure("\(description) received a value before its subscription")
        }
        guard demand > 0 else {
            lock.unlock()
            preconditionFailure("\(description) received a value it did not ask for")
        }
        return deliverUnlocking(input)
    }

    func upstreamCompletion(_ completion: Subscribers.Completion<UpstreamFailure>) {
        lock.lock()
        switch state {
        case .upstream:
            switch completion {
            case .finished:
                state = .finished
                lock.unlock()
                downstream.receive(completion: .finished)
            case .failure(let error):
                state = .awaitingReplacement
                lock.unlock()
                do {
                    try recover(error, self)
                } catch {
                    lock.lock()
                    state = .finished
                    lock.unlock()
                    // Only tryCatch throws, and its downstream fails with `any Error`.
                    // swiftlint:disable:next force_cast
                    downstream.receive(completion: .failure(error as! Downstream.Failure))
                }
            }
        case .awaitingReplacement, .replacement, .replacementCancelled:
            lock.unlock()
            guard case .failure = completion else { return }
            preconditionFailure("\(description)'s upstream failed a second time")
        case .awaitingUpstream, .cancelled, .finished:
            lock.unlock()
        }
    }

    // MARK: The replacement's events

    func replacementSubscription(_ subscription: any Subscription) {
        lock.lock()
        guard case .awaitingReplacement = state else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .replacement(subscription)
        let owed = demand
        lock.unlock()
        if owed > 0 {
            subscription.request(owed)
        }
    }

    func replacementValue(_ input: Downstream.Input) -> Subscribers.Demand {
        lock.lock()
        switch state {
        case .replacement, .replacementCancelled, .awaitingReplacement:
            return deliverUnlocking(input)
        default:
            lock.unlock()
            return .none
        }
    }

    func replacementCompletion(_ completion: Subscribers.Completion<Downstream.Failure>) {
        lock.lock()
        switch state {
        case .replacement, .awaitingReplacement:
            state = .finished
            lock.unlock()
            downstream.receive(completion: completion)
        default:
            lock.unlock()
        }
    }

    // MARK: Subscription

    func request(_ more: Subscribers.Demand) {
        lock.lock()
        let current: (any Subscription)?
        switch state {
        case .upstream(let subscription), .replacement(let subscription):
            current = subscription
        case .awaitingReplacement:
            current = nil
        default:
            lock.unlock()
            return
        }
        demand += more
        lock.unlock()
        current?.request(more)
    }

    func cancel() {
        lock.lock()
        switch state {
        case .upstream(let subscription):
            state = .cancelled
            lock.unlock()
            subscription.cancel()
        case .replacement(let subscription):
            state = .replacementCancelled
            lock.unlock()
            subscription.cancel()
        default:
            lock.unlock()
        }
    }

    /// Called with the lock held: counts the value against the demand, delivers it, and adds what the downstream
    /// returned, which is also returned upstream.
    private func deliverUnlocking(_ input: Downstream.Input) -> Subscribers.Demand {
        if demand > 0 { demand -= 1 }
        lock.unlock()
        let more = downstream.receive(input)
        if more > 0 {
            lock.lock()
            demand += more
            lock.unlock()
        }
        return more
    }
}

/// The subscriber catch and tryCatch attach to their upstream.
internal final class CatchInput<Downstream: Subscriber, Failure: Error>: Subscriber, CustomStringConvertible {
    typealias Input = Downstream.Input

    private let core: CatchCore<Downstream, Failure>

    init(core: CatchCore<Downstream, Failure>) {
        self.core = core
    }

    var description: String { core.description }

    func receive(subscription: any Subscription) {
        core.upstreamSubscription(subscription)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        core.upstreamValue(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        core.upstreamCompletion(completion)
    }
}

/// The subscriber catch and tryCatch attach to the replacement publisher; its failure becomes the downstream's.
internal final class CatchPostInput<Downstream: Subscriber, UpstreamFailure: Error, Failure: Error>: Subscriber,
    CustomStringConvertible
{
    typealias Input = Downstream.Input

    private let core: CatchCore<Downstream, UpstreamFailure>

    init(core: CatchCore<Downstream, UpstreamFailure>) {
        self.core = core
    }

    var description: String { core.description }

    func receive(subscription: any Subscription) {
        core.replacementSubscription(subscription)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        core.replacementValue(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished:
            core.replacementCompletion(.finished)
        case .failure(let error):
            // The replacement's failure type is the downstream's (catch) or converts to `any Error` (tryCatch).
            // swiftlint:disable:next force_cast
            core.replacementCompletion(.failure(error as! Downstream.Failure))
        }
    }
}
