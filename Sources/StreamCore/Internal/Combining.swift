/// The state of combineLatest and zip over N upstreams. Values are kept type-erased per slot; the publisher's
/// `combine` closure turns one value per slot back into the typed tuple.
///
/// Demand: every downstream request is forwarded to every upstream. zip can then never buffer more than what was
/// asked for. combineLatest, like Combine's, does not send a combination made while downstream has no demand, and does
/// not send it later either: the next one comes with the next upstream value (Combine's recorded behaviour).
@usableFromInline
internal struct CombiningStateMachine<Output, Failure: Error> {
    @usableFromInline internal let zip: Bool
    @usableFromInline internal var queue = DeliveryQueue<Output, Failure>()
    @usableFromInline internal var subscriptions: [(any Subscription)?]
    @usableFromInline internal var finished: [Bool]
    /// zip: values waiting per slot; combineLatest: at most the latest one per slot.
    @usableFromInline internal var slots: [[Any]]
    /// Everything downstream asked for so far, for an upstream that subscribes late.
    @usableFromInline internal var requested: Subscribers.Demand = .none

    @inlinable
    internal init(count: Int, zip: Bool) {
        self.zip = zip
        subscriptions = Array(repeating: nil, count: count)
        finished = Array(repeating: false, count: count)
        slots = Array(repeating: [], count: count)
    }

    /// Returns the demand to request (`.none`: nothing yet), or nil to cancel the subscription.
    @inlinable
    internal mutating func subscribed(_ index: Int, _ subscription: any Subscription) -> Subscribers.Demand? {
        guard !queue.isClosed, subscriptions[index] == nil, !finished[index] else { return nil }
        subscriptions[index] = subscription
        return requested
    }

    /// True when every slot has a value.
    @inlinable
    internal var ready: Bool {
        for slot in slots where slot.isEmpty { return false }
        return true
    }

    /// Takes one combination's worth of values (zip consumes them; combineLatest keeps them).
    @inlinable
    internal mutating func take() -> [Any] {
        if zip {
            var values: [Any] = []
            values.reserveCapacity(slots.count)
            for index in slots.indices { values.append(slots[index].removeFirst()) }
            return values
        }
        return slots.map { $0[0] }
    }

    /// Stores a new value; returns one value per slot when they make a combination to send, else nil.
    @inlinable
    internal mutating func value(_ index: Int, _ value: Any) -> [Any]? {
        if queue.isClosed || finished[index] { return nil }
        if zip {
            slots[index].append(value)
        } else {
            slots[index] = [value]
        }
        guard ready else { return nil }
        if !zip && queue.demand == .none && !queue.delivering { return nil }
        return take()
    }

    /// zip finishes once some finished upstream has no values left to pair.
    @inlinable
    internal var zipExhausted: Bool {
        for index in slots.indices where finished[index] && slots[index].isEmpty { return true }
        return false
    }

    /// An upstream finished: the subscriptions to cancel, and the next step.
    @inlinable
    internal mutating func finish(_ index: Int) -> ([any Subscription], DeliveryQueue<Output, Failure>.Step) {
        if queue.isClosed || finished[index] { return ([], .idle) }
        finished[index] = true
        subscriptions[index] = nil
        if zip ? zipExhausted : !finished.contains(false) {
            return (cancelAll(), queue.complete(.finished, flush: true))
        }
        return ([], .idle)
    }

    /// After a zip delivery, the values consumed may have exhausted a finished upstream.
    @inlinable
    internal mutating func checkExhausted() -> ([any Subscription], DeliveryQueue<Output, Failure>.Step) {
        guard zip, !queue.isClosed, zipExhausted else { return ([], .idle) }
        return (cancelAll(), queue.complete(.finished, flush: true))
    }

    @inlinable
    internal mutating func cancelAll() -> [any Subscription] {
        let live = subscriptions.compactMap { $0 }
        subscriptions = Array(repeating: nil, count: subscriptions.count)
        finished = Array(repeating: true, count: finished.count)
        return live
    }

    @inlinable
    internal mutating func fail(_ index: Int?, _ failure: Failure?) -> (
        [any Subscription], DeliveryQueue<Output, Failure>.Step
    ) {
        if queue.closed { return ([], .idle) }
        if let index { subscriptions[index] = nil }
        let live = cancelAll()
        slots = Array(repeating: [], count: slots.count)
        guard let failure else {
            queue.cancel()
            return (live, .idle)
        }
        if queue.pendingCompletion != nil { return (live, .idle) }
        return (live, queue.complete(.failure(failure), flush: false))
    }
}

@usableFromInline
internal final class CombiningStorage<Downstream: Subscriber>: Subscription, CustomStringConvertible {
    @usableFromInline typealias Machine = CombiningStateMachine<Downstream.Input, Downstream.Failure>
    @usableFromInline typealias Step = DeliveryQueue<Downstream.Input, Downstream.Failure>.Step

    @usableFromInline internal let lock = Lock()
    @usableFromInline internal var machine: Machine
    @usableFromInline internal var downstream: Downstream?
    @usableFromInline internal let combine: ([Any]) -> Downstream.Input
    @usableFromInline internal let name: String

    @inlinable
    internal init(
        downstream: Downstream, count: Int, zip: Bool, name: String, combine: @escaping ([Any]) -> Downstream.Input
    ) {
        self.downstream = downstream
        self.combine = combine
        self.name = name
        machine = Machine(count: count, zip: zip)
    }

    @usableFromInline
    internal var description: String { name }

    @inlinable
    internal func run(_ first: Step) {
        var step = first
        while true {
            switch step {
            case .idle:
                return
            case .complete(let completion):
                lock.lock()
                let target = downstream
                downstream = nil
                lock.unlock()
                target?.receive(completion: completion)
                return
            case .deliver(let value, _):
                lock.lock()
                let target = downstream
                lock.unlock()
                let extra = target?.receive(value) ?? .none
                lock.lock()
                let next = machine.queue.delivered(extra: extra)
                let (toCancel, end) = next.isIdle ? machine.checkExhausted() : ([], .idle)
                lock.unlock()
                for subscription in toCancel { subscription.cancel() }
                step = next.isIdle ? end : next
            }
        }
    }

    @inlinable
    internal func subscribed(_ index: Int, _ subscription: any Subscription) {
        lock.lock()
        let demand = machine.subscribed(index, subscription)
        lock.unlock()
        guard let demand else {
            subscription.cancel()
            return
        }
        if demand != .none { subscription.request(demand) }
    }

    /// Taking the values and offering their combination happen under one lock, so combinations reach the queue in
    /// the order their values arrived even when upstreams send from different threads. `combine` is the publisher's
    /// own cast into a tuple, not user code.
    @inlinable
    internal func value(_ index: Int, _ value: Any) -> Subscribers.Demand {
        lock.lock()
        guard let values = machine.value(index, value) else {
            lock.unlock()
            return .none
        }
        let combined = combine(values)
        let deliverNow = machine.queue.offer(combined, tag: 0)
        lock.unlock()
        if deliverNow { run(.deliver(combined, tag: 0)) }
        return .none
    }

    @inlinable
    internal func completed(_ index: Int, _ completion: Subscribers.Completion<Downstream.Failure>) {
        lock.lock()
        let (toCancel, step): ([any Subscription], Step)
        switch completion {
        case .finished: (toCancel, step) = machine.finish(index)
        case .failure(let error): (toCancel, step) = machine.fail(index, error)
        }
        lock.unlock()
        for subscription in toCancel { subscription.cancel() }
        run(step)
    }

    @inlinable
    internal func request(_ demand: Subscribers.Demand) {
        precondition(demand != .none, "demand must not be .none")
        lock.lock()
        if machine.queue.isClosed {
            lock.unlock()
            return
        }
        machine.requested += demand
        let upstreams = machine.subscriptions.compactMap { $0 }
        let step = machine.queue.request(demand)
        lock.unlock()
        for upstream in upstreams { upstream.request(demand) }
        run(step)
    }

    @inlinable
    internal func cancel() {
        lock.lock()
        let (toCancel, _) = machine.fail(nil, nil)
        downstream = nil
        lock.unlock()
        for subscription in toCancel { subscription.cancel() }
    }
}

extension DeliveryQueue.Step {
    @inlinable
    internal var isIdle: Bool {
        if case .idle = self { return true }
        return false
    }
}

/// The subscriber for one upstream of combineLatest or zip.
@usableFromInline
internal struct CombiningInput<Downstream: Subscriber, Input>: Subscriber, CustomStringConvertible {
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline internal let storage: CombiningStorage<Downstream>
    @usableFromInline internal let index: Int
    @usableFromInline internal let combineIdentifier = CombineIdentifier()

    @inlinable
    internal init(storage: CombiningStorage<Downstream>, index: Int) {
        self.storage = storage
        self.index = index
    }

    @usableFromInline
    internal var description: String { storage.name }

    @inlinable
    internal func receive(subscription: any Subscription) {
        storage.subscribed(index, subscription)
    }

    @inlinable
    internal func receive(_ input: Input) -> Subscribers.Demand {
        storage.value(index, input)
    }

    @inlinable
    internal func receive(completion: Subscribers.Completion<Failure>) {
        storage.completed(index, completion)
    }
}
