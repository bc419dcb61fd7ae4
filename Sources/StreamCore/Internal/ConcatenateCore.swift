/// The subscription behind append and prepend (`Publishers.Concatenate`), following Combine's recorded behaviour.
///
/// The downstream gets this subscription once the prefix's has arrived; events before it are ignored. Values are
/// counted against the downstream's demand, and one beyond it is dropped (a reentrant upstream cannot overrun the
/// downstream). When the prefix finishes, the suffix is subscribed and asked for whatever is still owed; the suffix
/// publisher is held until then, or until a cancel releases it. The downstream is held for the subscription's life.
/// Never calls out while holding its lock.
internal final class ConcatenateCore<Downstream: Subscriber, Suffix: Publisher>: Subscription,
    CustomStringConvertible
where Suffix.Output == Downstream.Input, Suffix.Failure == Downstream.Failure {
    private enum State {
        case awaitingPrefix
        case prefix(any Subscription)
        /// The prefix finished; the suffix is being subscribed.
        case awaitingSuffix
        case suffix(any Subscription)
        /// Completed or cancelled.
        case done
    }

    private let lock = Lock()
    private var state = State.awaitingPrefix
    private var demand = Subscribers.Demand.none
    private var suffix: Suffix?
    private let downstream: Downstream

    init(downstream: Downstream, suffix: Suffix) {
        self.downstream = downstream
        self.suffix = suffix
    }

    var description: String { "Concatenate" }

    // MARK: The prefix's events

    func prefixSubscription(_ subscription: any Subscription) {
        lock.lock()
        guard case .awaitingPrefix = state else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .prefix(subscription)
        lock.unlock()
        downstream.receive(subscription: self)
    }

    func prefixValue(_ input: Downstream.Input) -> Subscribers.Demand {
        lock.lock()
        guard case .prefix = state else {
            lock.unlock()
            return .none
        }
        return deliverUnlocking(input)
    }

    func prefixCompletion(_ completion: Subscribers.Completion<Downstream.Failure>) {
        lock.lock()
        guard case .prefix = state else {
            lock.unlock()
            return
        }
        switch completion {
        case .finished:
            state = .awaitingSuffix
            let next = suffix
            suffix = nil
            lock.unlock()
            next?.subscribe(ConcatenateSuffixInput(core: self))
        case .failure:
            state = .done
            suffix = nil
            lock.unlock()
            downstream.receive(completion: completion)
        }
    }

    // MARK: The suffix's events

    func suffixSubscription(_ subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSuffix = state else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .suffix(subscription)
        let owed = demand
        lock.unlock()
        if owed > 0 {
            subscription.request(owed)
        }
    }

    func suffixValue(_ input: Downstream.Input) -> Subscribers.Demand {
        lock.lock()
        guard case .suffix = state else {
            lock.unlock()
            return .none
        }
        return deliverUnlocking(input)
    }

    func suffixCompletion(_ completion: Subscribers.Completion<Downstream.Failure>) {
        lock.lock()
        guard case .suffix = state else {
            lock.unlock()
            return
        }
        state = .done
        lock.unlock()
        downstream.receive(completion: completion)
    }

    // MARK: Subscription

    /// No trap on `.none`: Combine's append and prepend pass it on.
    func request(_ more: Subscribers.Demand) {
        lock.lock()
        let current: (any Subscription)?
        switch state {
        case .prefix(let subscription), .suffix(let subscription): current = subscription
        case .awaitingSuffix: current = nil
        case .awaitingPrefix, .done:
            lock.unlock()
            return
        }
        demand += more
        lock.unlock()
        current?.request(more)
    }

    func cancel() {
        lock.lock()
        let current: (any Subscription)?
        switch state {
        case .prefix(let subscription), .suffix(let subscription): current = subscription
        case .awaitingSuffix: current = nil
        case .awaitingPrefix, .done:
            lock.unlock()
            return
        }
        state = .done
        let released = suffix
        suffix = nil
        lock.unlock()
        // Released outside the lock: the suffix's deinit may run here.
        withExtendedLifetime(released) {}
        current?.cancel()
    }

    /// Called with the lock held: a value within the demand is delivered and the downstream's answer added (and
    /// returned upstream); one beyond it is dropped.
    private func deliverUnlocking(_ input: Downstream.Input) -> Subscribers.Demand {
        guard demand > 0 else {
            lock.unlock()
            return .none
        }
        if demand != .unlimited { demand -= 1 }
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

/// The subscriber Concatenate attaches to its prefix.
internal final class ConcatenatePrefixInput<Downstream: Subscriber, Suffix: Publisher>: Subscriber,
    CustomStringConvertible
where Suffix.Output == Downstream.Input, Suffix.Failure == Downstream.Failure {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let core: ConcatenateCore<Downstream, Suffix>

    init(core: ConcatenateCore<Downstream, Suffix>) {
        self.core = core
    }

    var description: String { "Concatenate" }

    func receive(subscription: any Subscription) {
        core.prefixSubscription(subscription)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        core.prefixValue(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        core.prefixCompletion(completion)
    }
}

/// The subscriber Concatenate attaches to its suffix once the prefix has finished.
internal final class ConcatenateSuffixInput<Downstream: Subscriber, Suffix: Publisher>: Subscriber,
    CustomStringConvertible
where Suffix.Output == Downstream.Input, Suffix.Failure == Downstream.Failure {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let core: ConcatenateCore<Downstream, Suffix>

    init(core: ConcatenateCore<Downstream, Suffix>) {
        self.core = core
    }

    var description: String { "Concatenate" }

    func receive(subscription: any Subscription) {
        core.suffixSubscription(subscription)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        core.suffixValue(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        core.suffixCompletion(completion)
    }
}
