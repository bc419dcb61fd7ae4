import Synchronization

extension Sequence {
    /// A publisher that emits the elements of this sequence, as demand allows, then finishes.
    @inlinable
    public var publisher: Publishers.Sequence<Self, Never> {
        Publishers.Sequence(sequence: self)
    }
}

extension Publishers {
    /// A publisher that publishes a given sequence of elements.
    ///
    /// It sends elements only as demand allows and finishes right after the last one, without waiting for more
    /// demand. An empty sequence finishes as soon as a subscriber attaches.
    @frozen
    public struct Sequence<Elements: Swift.Sequence, Failure: Error>: Publisher {
        /// The sequence's elements are the published values.
        public typealias Output = Elements.Element

        /// The sequence of elements to publish.
        public let sequence: Elements

        /// Creates a publisher for a sequence of elements.
        @inlinable
        public init(sequence: Elements) {
            self.sequence = sequence
        }

        /// Starts a fresh iteration of the sequence for this subscriber.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = SequenceSubscription<Elements, S>(sequence, subscriber)
            if subscription.isExhausted {
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .finished)
            } else {
                subscriber.receive(subscription: subscription)
            }
        }
    }
}

extension Publishers.Sequence: Equatable where Elements: Equatable {}

extension Publishers.Sequence: Sendable where Elements: Sendable {}

/// The subscription behind `Publishers.Sequence`.
///
/// The thread that finds nobody emitting becomes the emitter and loops while there is demand; a request made
/// meanwhile (from another thread, or reentrantly from the subscriber) only adds demand for that loop to use, so
/// the iterator is touched by one thread at a time and no lock is held while calling the subscriber. Cancellation is
/// an atomic flag the loop checks before each element.
@usableFromInline
internal final class SequenceSubscription<Elements: Sequence, Downstream: Subscriber>: Subscription,
    CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Elements.Element {
    @usableFromInline internal let lock = Lock()
    /// Set once the subscription has finished or been cancelled.
    @usableFromInline internal let cancelled = Atomic<Bool>(false)
    /// The sequence, kept for the subscription's description and mirror only (the iterator is what is walked).
    @usableFromInline internal let sequence: Elements
    @usableFromInline @exclusivity(unchecked) internal var iterator: Elements.Iterator
    /// The element the iterator produced last; `nil` once the sequence is exhausted.
    @usableFromInline @exclusivity(unchecked) internal var nextElement: Elements.Element?
    @usableFromInline @exclusivity(unchecked) internal var downstream: Downstream?
    @usableFromInline @exclusivity(unchecked) internal var demand = Subscribers.Demand.none
    @usableFromInline @exclusivity(unchecked) internal var emitting = false
    /// `request` and `cancel` arrive through `any Subscription`, that is in unspecialized code, where every iterator
    /// step and optional move would look up generic metadata. These capture-free closures, made in the specialized
    /// initializer, run the real work as specialized code, at no allocation.
    @usableFromInline internal let emitter: (SequenceSubscription, Subscribers.Demand) -> Void
    @usableFromInline internal let canceller: (SequenceSubscription) -> Void

    @inlinable
    internal init(_ sequence: Elements, _ downstream: Downstream) {
        self.sequence = sequence
        iterator = sequence.makeIterator()
        self.downstream = downstream
        emitter = { subscription, demand in subscription.emit(demand) }
        canceller = { subscription in subscription.cancelNow() }
        nextElement = self.iterator.next()
    }

    /// True when the sequence had no element at all; checked before the subscription is handed out.
    @inlinable
    internal var isExhausted: Bool { nextElement == nil }

    /// The sequence's own description while it plays, "Sequence" once finished or cancelled, as in Combine.
    @usableFromInline
    internal var description: String {
        cancelled.load(ordering: .relaxed) ? "Sequence" : String(describing: sequence)
    }

    /// `.none` is accepted and emits nothing, as in Combine.
    @inlinable
    internal func request(_ demand: Subscribers.Demand) {
        emitter(self, demand)
    }

    @inlinable
    internal func cancel() {
        canceller(self)
    }

    /// The body of `request`, run specialized through `emitter`.
    @inlinable
    internal func emit(_ demand: Subscribers.Demand) {
        lock.lock()
        guard let downstream, !emitting else {
            self.demand += demand
            lock.unlock()
            return
        }
        self.demand += demand
        emitting = true
        var budget = self.demand
        self.demand = .none
        lock.unlock()

        while true {
            // Emit what the budget allows, without the lock: only the emitter touches the iterator.
            while budget > 0 {
                guard !cancelled.load(ordering: .relaxed), let element = nextElement else { break }
                nextElement = iterator.next()
                if budget != .unlimited { budget -= 1 }
                let more = downstream.receive(element)
                if more != .none { budget += more }
                if nextElement == nil {
                    finish(downstream)
                    return
                }
            }
            lock.lock()
            if cancelled.load(ordering: .relaxed) {
                emitting = false
                let dropped = self.downstream
                self.downstream = nil
                lock.unlock()
                withExtendedLifetime(dropped) {}
                return
            }
            budget += self.demand
            self.demand = .none
            if budget == .none {
                emitting = false
                lock.unlock()
                return
            }
            lock.unlock()
        }
    }

    /// Sends `.finished` after the last element unless cancelled meanwhile, and forgets the subscriber.
    @inlinable
    internal func finish(_ downstream: Downstream) {
        lock.lock()
        let wasCancelled = cancelled.exchange(true, ordering: .relaxed)
        self.downstream = nil
        emitting = false
        lock.unlock()
        if !wasCancelled {
            downstream.receive(completion: .finished)
        }
    }

    /// The body of `cancel`, run specialized through `canceller`.
    @inlinable
    internal func cancelNow() {
        lock.lock()
        guard !cancelled.exchange(true, ordering: .relaxed) else {
            lock.unlock()
            return
        }
        // The emitter, if any, drops the subscriber when it notices; otherwise drop it now.
        let dropped = emitting ? nil : downstream
        if !emitting { downstream = nil }
        lock.unlock()
        withExtendedLifetime(dropped) {}
    }
}

extension SequenceSubscription: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// The sequence while it plays, and no elements once finished or cancelled, as Combine shows it.
    @usableFromInline
    internal var customMirror: Mirror {
        if cancelled.load(ordering: .relaxed) {
            return Mirror(self, children: ["sequence": [Elements.Element]()])
        }
        return Mirror(self, children: ["sequence": sequence])
    }

    /// The description.
    @usableFromInline
    internal var playgroundDescription: Any { description }
}
