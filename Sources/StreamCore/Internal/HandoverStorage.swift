/// What one handover operator (catch, tryCatch, append/prepend, retry) adds to the shared core: its name, its rules,
/// and how the next source is made and subscribed.
internal protocol HandoverPolicy {
    associatedtype Downstream: Subscriber
    /// What the next source is made from, taken under the lock (append's suffix, catch's handler, retry's upstream).
    associatedtype Next

    /// The operator's name, as Combine describes its subscription.
    var name: String { get }
    var rules: HandoverRules { get }
    /// Whether the subscription's mirror shows the downstream and its demand (catch), or nothing.
    var mirrorsDemand: Bool { get }

    /// Takes what the next source is made from; called under the lock.
    mutating func takeNext() -> Next
    /// Drops what this policy still holds for later sources, at the end of the stream; called under the lock.
    mutating func release()
    /// Subscribes the source for `generation` to `storage`, after `failure` (nil after `.finished`) ended the one
    /// before; throws to end the stream with that error instead (tryCatch). Called outside the lock.
    static func subscribe(
        _ next: Next, to storage: HandoverStorage<Self>, generation: Int, after failure: (any Error)?) throws
}

/// The subscription behind catch, tryCatch, append/prepend and retry: one source after another, each new one asked
/// for the demand still owed. The decisions are `HandoverStateMachine`'s, guarded by a lock here and carried out
/// outside it; the policy says what differs per operator.
internal final class HandoverStorage<Policy: HandoverPolicy>: Subscription, CustomStringConvertible {
    typealias Downstream = Policy.Downstream

    private let lock = Lock()
    private var machine: HandoverStateMachine
    private var policy: Policy
    private var downstream: Downstream?
    /// Set for retry: the downstream is released at the end, as Combine's retry does.
    private let releasesDownstream: Bool
    /// The policy's rule, kept apart so the delivery path reads it without the lock.
    private let requestsReturnedDemand: Bool
    let description: String

    init(downstream: Downstream, policy: Policy, releasesDownstream: Bool = false) {
        self.downstream = downstream
        self.policy = policy
        self.releasesDownstream = releasesDownstream
        machine = HandoverStateMachine(rules: policy.rules)
        requestsReturnedDemand = policy.rules.requestsReturnedDemand
        description = policy.name
    }

    // MARK: The sources' events

    func receive(subscription: any Subscription, generation: Int) {
        lock.lock()
        let action = machine.subscription(subscription, generation: generation)
        let target = downstream
        lock.unlock()
        switch action {
        case .handDownstream: target?.receive(subscription: self)
        case .request(let owed): subscription.request(owed)
        case .none: break
        case .cancel: subscription.cancel()
        }
    }

    func receive(_ input: Downstream.Input, generation: Int) -> Subscribers.Demand {
        lock.lock()
        let action = machine.value(generation: generation)
        let target = downstream
        lock.unlock()
        switch action {
        case .ignore:
            return .none
        case .trap(let problem):
            preconditionFailure(description + problem)
        case .deliver:
            guard let target else { return .none }
            let more = target.receive(input)
            guard more > 0 else { return .none }
            lock.lock()
            let source = machine.delivered(more: more)
            lock.unlock()
            if requestsReturnedDemand {
                source?.request(more)
                return .none
            }
            return more
        }
    }

    func receive<Failure: Error>(completion: Subscribers.Completion<Failure>, generation: Int) {
        let failure: (any Error)?
        if case .failure(let error) = completion { failure = error } else { failure = nil }
        lock.lock()
        let action = machine.completion(generation: generation, isFailure: failure != nil)
        switch action {
        case .handOver(let next):
            var source = policy.takeNext()
            lock.unlock()
            handOver(from: &source, generation: next, after: failure)
        case .forward:
            let target = end()
            // A source's failure type is the downstream's, or converts to it (tryCatch's `any Error`).
            // swiftlint:disable:next force_cast
            target?.receive(completion: failure.map { .failure($0 as! Downstream.Failure) } ?? .finished)
        case .ignore:
            lock.unlock()
        case .trap(let problem):
            lock.unlock()
            preconditionFailure(description + problem)
        }
    }

    /// Subscribes each source in turn: a handover asked for while one runs (a source that fails synchronously
    /// inside `subscribe`) is looped over here, not nested.
    private func handOver(from source: inout Policy.Next, generation: Int, after failure: (any Error)?) {
        var generation = generation
        while true {
            do {
                try Policy.subscribe(source, to: self, generation: generation, after: failure)
            } catch {
                lock.lock()
                _ = machine.handOverReturned()
                guard machine.handOverFailed() else {
                    lock.unlock()
                    return
                }
                let target = end()
                // Only tryCatch throws, and its downstream fails with `any Error`.
                // swiftlint:disable:next force_cast
                target?.receive(completion: .failure(error as! Downstream.Failure))
                return
            }
            lock.lock()
            guard let next = machine.handOverReturned() else {
                lock.unlock()
                return
            }
            generation = next
            source = policy.takeNext()
            lock.unlock()
        }
    }

    /// Called with the lock held, which it releases: lets go of what the stream no longer needs (the policy's later
    /// sources; retry's downstream) and returns the downstream, to complete. What is let go of is released by the
    /// caller's scope, outside the lock, where a deinit may run.
    private func end() -> Downstream? {
        let held = policy
        policy.release()
        let target = downstream
        if releasesDownstream { downstream = nil }
        lock.unlock()
        withExtendedLifetime(held) {}
        return target
    }

    // MARK: Subscription

    /// No trap on `.none`: Combine's catch, append, prepend and retry pass it on.
    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        let subscription = machine.request(demand)
        lock.unlock()
        subscription?.request(demand)
    }

    func cancel() {
        lock.lock()
        let (ends, subscription) = machine.cancel()
        guard ends else {
            lock.unlock()
            return
        }
        let released = end()
        subscription?.cancel()
        withExtendedLifetime(released) {}
    }

    // MARK: Debugging

    /// The downstream and its outstanding demand, as catch's mirror shows them; empty for the others.
    var customMirrorChildren: [Mirror.Child] {
        guard policy.mirrorsDemand else { return [] }
        lock.lock()
        let demand = machine.demand
        let target = downstream
        lock.unlock()
        return [("downstream", mirrorValue(target)), ("demand", demand)]
    }
}

/// The subscriber a handover operator attaches to its first source (catch's upstream, append's prefix, retry's
/// first attempt). It shares the storage's identifier and description, as Combine's do, and is also the
/// subscription's stand-in (Combine's retry attaches its subscription itself): requests and cancels go to the storage.
internal final class HandoverFirstInput<Policy: HandoverPolicy, Failure: Error>: Subscriber, Subscription,
    CustomStringConvertible
{
    typealias Input = Policy.Downstream.Input

    private let storage: HandoverStorage<Policy>

    init(storage: HandoverStorage<Policy>) {
        self.storage = storage
    }

    var combineIdentifier: CombineIdentifier { storage.combineIdentifier }

    var description: String { storage.description }

    func receive(subscription: any Subscription) {
        storage.receive(subscription: subscription, generation: 0)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        storage.receive(input, generation: 0)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        storage.receive(completion: completion, generation: 0)
    }

    func request(_ demand: Subscribers.Demand) {
        storage.request(demand)
    }

    func cancel() {
        storage.cancel()
    }
}

/// The subscriber a handover operator attaches to each later source (catch's replacement, append's suffix, retry's
/// next attempt), numbered so that a late event from an earlier source is told apart.
internal final class HandoverLaterInput<Policy: HandoverPolicy, Failure: Error>: Subscriber, CustomStringConvertible {
    typealias Input = Policy.Downstream.Input

    private let storage: HandoverStorage<Policy>
    private let generation: Int

    init(storage: HandoverStorage<Policy>, generation: Int) {
        self.storage = storage
        self.generation = generation
    }

    var combineIdentifier: CombineIdentifier { storage.combineIdentifier }

    var description: String { storage.description }

    func receive(subscription: any Subscription) {
        storage.receive(subscription: subscription, generation: generation)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        storage.receive(input, generation: generation)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        storage.receive(completion: completion, generation: generation)
    }
}

extension HandoverStorage: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// Catch's downstream and demand; nothing for the others, as in Combine.
    var customMirror: Mirror { Mirror(self, children: customMirrorChildren) }

    /// The operator's name.
    var playgroundDescription: Any { description }
}

extension HandoverFirstInput: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// The subscription's mirror, as in Combine.
    var customMirror: Mirror { Mirror(self, children: storage.customMirrorChildren) }

    /// The operator's name.
    var playgroundDescription: Any { description }
}

extension HandoverLaterInput: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// The subscription's mirror, as in Combine.
    var customMirror: Mirror { Mirror(self, children: storage.customMirrorChildren) }

    /// The operator's name.
    var playgroundDescription: Any { description }
}
