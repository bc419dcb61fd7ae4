/// The subscription behind `replaceEmpty` and `replaceError`: forwards values, and at completion either forwards it or
/// publishes the replacement element followed by `.finished`, waiting for demand when the downstream has none.
///
/// The two operators differ in which completions they replace, which `decide` says, and in two of Combine's habits:
/// replaceEmpty also asks upstream for `.unlimited` right after handing the subscription downstream, and
/// replaceError traps on a value beyond the downstream's demand. Both ignore a cancel before the subscription.
final class ReplacingInner<Upstream: Publisher, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible
where Downstream.Input == Upstream.Output {
    typealias Input = Upstream.Output
    typealias Failure = Upstream.Failure

    /// What to send for upstream's completion, given whether any value came before it; nil sends the replacement
    /// and `.finished`.
    typealias Decision = (Subscribers.Completion<Upstream.Failure>, _ receivedValue: Bool)
        -> Subscribers.Completion<Downstream.Failure>?

    private enum State {
        case awaitingSubscription
        case subscribed(any Subscription)
        /// The replacement is due but the downstream had no demand; it waits for a request.
        case replacementPending
        case terminal
    }

    private let lock = Lock()
    private var state = State.awaitingSubscription
    private var demand = Subscribers.Demand.none
    private var receivedValue = false
    private var output: Upstream.Output?
    private let downstream: Downstream
    private let decide: Decision
    private let requestsUnlimited: Bool
    private let trapsUnwantedValues: Bool
    let description: String

    init(
        downstream: Downstream, output: Upstream.Output, name: String, requestsUnlimited: Bool = false,
        trapsUnwantedValues: Bool = false, decide: @escaping Decision
    ) {
        self.downstream = downstream
        self.output = output
        self.description = name
        self.requestsUnlimited = requestsUnlimited
        self.trapsUnwantedValues = trapsUnwantedValues
        self.decide = decide
    }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription = state else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .subscribed(subscription)
        lock.unlock()
        downstream.receive(subscription: self)
        if requestsUnlimited {
            subscription.request(.unlimited)
        }
    }

    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
        lock.lock()
        guard case .subscribed = state else {
            lock.unlock()
            return .none
        }
        if trapsUnwantedValues && demand == .none {
            lock.unlock()
            preconditionFailure("\(description) received a value it did not ask for")
        }
        receivedValue = true
        demand -= 1
        lock.unlock()
        let more = downstream.receive(input)
        if more != .none {
            lock.lock()
            demand += more
            lock.unlock()
        }
        return more
    }

    func receive(completion: Subscribers.Completion<Upstream.Failure>) {
        lock.lock()
        guard case .subscribed = state else {
            lock.unlock()
            return
        }
        if let forwarded = decide(completion, receivedValue) {
            state = .terminal
            let dropped = output
            output = nil
            lock.unlock()
            withExtendedLifetime(dropped) {}
            downstream.receive(completion: forwarded)
            return
        }
        guard demand > 0 else {
            state = .replacementPending
            lock.unlock()
            return
        }
        sendReplacementUnlocking()
    }

    func request(_ demand: Subscribers.Demand) {
        precondition(demand != .none, "demand must not be zero")
        lock.lock()
        switch state {
        case .subscribed(let subscription):
            self.demand += demand
            lock.unlock()
            subscription.request(demand)
        case .replacementPending:
            sendReplacementUnlocking()
        case .awaitingSubscription, .terminal:
            lock.unlock()
        }
    }

    func cancel() {
        lock.lock()
        if case .awaitingSubscription = state {
            lock.unlock()
            return
        }
        let previous = state
        state = .terminal
        let dropped = output
        output = nil
        lock.unlock()
        withExtendedLifetime(dropped) {}
        if case .subscribed(let subscription) = previous {
            subscription.cancel()
        }
    }

    /// Called with the lock held: ends the subscription, unlocks, then sends the replacement and `.finished`.
    private func sendReplacementUnlocking() {
        state = .terminal
        let replacement = output
        output = nil
        lock.unlock()
        if let replacement {
            _ = downstream.receive(replacement)
        }
        downstream.receive(completion: .finished)
    }
}
