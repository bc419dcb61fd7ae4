/// The subscription behind retry, which moves downstream from one upstream to the next in turn.
///
/// It tracks downstream's outstanding demand so the next upstream is asked for exactly what is still owed, and numbers
/// the upstreams so a late event from one already left behind is ignored. Never calls out while holding its lock.
@usableFromInline
internal final class RelaySubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible {
    @usableFromInline internal let lock = Lock()
    @usableFromInline internal var downstream: Downstream?
    @usableFromInline internal var upstream: (any Subscription)?
    @usableFromInline internal var generation = 0
    @usableFromInline internal var demand: Subscribers.Demand = .none
    @usableFromInline internal let name: String
    /// Retry passes downstream's extra demand on with `request` instead of returning it, as Combine's does.
    @usableFromInline internal let requestsExtraDemand: Bool

    @inlinable
    internal init(downstream: Downstream, name: String, requestsExtraDemand: Bool = false) {
        self.downstream = downstream
        self.name = name
        self.requestsExtraDemand = requestsExtraDemand
    }

    @usableFromInline
    internal var description: String { name }

    /// The upstream numbered `generation` sent its subscription.
    @inlinable
    internal func attach(_ generation: Int, _ subscription: any Subscription) {
        lock.lock()
        guard generation == self.generation, upstream == nil, downstream != nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstream = subscription
        let owed = demand
        lock.unlock()
        if owed > 0 { subscription.request(owed) }
    }

    @inlinable
    internal func value(_ generation: Int, _ value: Downstream.Input) -> Subscribers.Demand {
        lock.lock()
        guard generation == self.generation, let target = downstream else {
            lock.unlock()
            return .none
        }
        demand -= 1
        lock.unlock()
        let extra = target.receive(value)
        guard extra > 0 else { return .none }
        lock.lock()
        let current = generation == self.generation
        if current { demand += extra }
        let subscription = current && requestsExtraDemand ? upstream : nil
        lock.unlock()
        guard requestsExtraDemand else { return extra }
        subscription?.request(extra)
        return .none
    }

    /// Leaves the current upstream (which completed): returns the number for the next one, or nil if the stream is over.
    @inlinable
    internal func advance(from generation: Int) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard generation == self.generation, downstream != nil else { return nil }
        self.generation += 1
        upstream = nil
        return self.generation
    }

    /// The current upstream ended the stream.
    @inlinable
    internal func complete(_ generation: Int, _ completion: Subscribers.Completion<Downstream.Failure>) {
        lock.lock()
        guard generation == self.generation, let target = downstream else {
            lock.unlock()
            return
        }
        downstream = nil
        upstream = nil
        self.generation += 1
        lock.unlock()
        target.receive(completion: completion)
    }

    @inlinable
    internal func request(_ more: Subscribers.Demand) {
        // No trap on `.none`: Combine's append/catch/retry forward it upstream.
        lock.lock()
        guard downstream != nil else {
            lock.unlock()
            return
        }
        demand += more
        let current = upstream
        lock.unlock()
        current?.request(more)
    }

    @inlinable
    internal func cancel() {
        lock.lock()
        let current = upstream
        upstream = nil
        downstream = nil
        generation += 1
        lock.unlock()
        current?.cancel()
    }
}

/// A subscriber feeding a `RelaySubscription` from one upstream; what happens at its completion is up to `onCompletion`.
@usableFromInline
internal struct RelayInput<Downstream: Subscriber, Failure: Error>: Subscriber, CustomStringConvertible {
    @usableFromInline typealias Input = Downstream.Input

    @usableFromInline internal let relay: RelaySubscription<Downstream>
    @usableFromInline internal let generation: Int
    /// Decides what the completion means: passed the relay and this upstream's number.
    @usableFromInline internal let onCompletion:
        (RelaySubscription<Downstream>, Int, Subscribers.Completion<Failure>) -> Void
    @usableFromInline internal let combineIdentifier = CombineIdentifier()

    @inlinable
    internal init(
        relay: RelaySubscription<Downstream>,
        generation: Int,
        onCompletion: @escaping (RelaySubscription<Downstream>, Int, Subscribers.Completion<Failure>) -> Void
    ) {
        self.relay = relay
        self.generation = generation
        self.onCompletion = onCompletion
    }

    @usableFromInline
    internal var description: String { relay.name }

    @inlinable
    internal func receive(subscription: any Subscription) {
        relay.attach(generation, subscription)
    }

    @inlinable
    internal func receive(_ input: Input) -> Subscribers.Demand {
        relay.value(generation, input)
    }

    @inlinable
    internal func receive(completion: Subscribers.Completion<Failure>) {
        onCompletion(relay, generation, completion)
    }
}
