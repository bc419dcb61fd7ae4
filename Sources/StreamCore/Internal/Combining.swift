/// The state of combineLatest and zip over N upstreams, one slot per upstream. Pure: it counts what each slot holds
/// and says what to do; the values themselves wait, typed, in the storage's `CombiningSlot`s.
///
/// Demand: every downstream request is forwarded to every upstream. combineLatest, like Combine's, does not send a
/// combination made while downstream has no demand, and does not send it later either: the next one comes with the
/// next upstream value (Combine's recorded behaviour).
///
/// zip follows Combine's recorded behaviour too: it sends one combination more than downstream asked for (an upstream
/// that sends beyond its demand gets one surplus combination through); demand that arrives while a value's
/// combination is being delivered (asked for, or returned by downstream) goes to that value's upstream as its
/// `receive` answer and to the others as a request; a failing upstream is cancelled along with the others; and the
/// downstream is kept after a completion or a cancel (the storage lives as long as whoever holds it).
@usableFromInline
internal struct CombiningStateMachine<Output, Failure: Error> {
    /// What to do with a value an upstream sent.
    @usableFromInline
    internal enum Reception {
        /// The stream or that upstream is over: drop it.
        case ignored
        /// Keep it in its slot; no combination goes out.
        case stored
        /// Keep it in its slot, then take one value from every slot (zip consumes them) and offer the combination.
        case combined
    }

    @usableFromInline internal let zip: Bool
    @usableFromInline internal var queue = DeliveryQueue<Output, Failure>()
    @usableFromInline internal var subscriptions: [(any Subscription)?]
    @usableFromInline internal var finished: [Bool]
    /// zip: values waiting per slot; combineLatest: 1 once the slot has a latest value.
    @usableFromInline internal var counts: [Int]
    /// Slots holding no value, so a combination needs no scan.
    @usableFromInline internal var emptySlots: Int
    /// Everything downstream asked for so far, for an upstream that subscribes late.
    @usableFromInline internal var requested: Subscribers.Demand = .none
    /// zip: the upstream whose value's combination is being delivered on its call, if any.
    @usableFromInline internal var sender: Int?
    /// zip: demand that arrived during that delivery, owed to the sender as its `receive` answer.
    @usableFromInline internal var senderOwed: Subscribers.Demand = .none

    @inlinable
    internal init(count: Int, zip: Bool) {
        self.zip = zip
        subscriptions = Array(repeating: nil, count: count)
        finished = Array(repeating: false, count: count)
        counts = Array(repeating: 0, count: count)
        emptySlots = count
        // Combine's zip sends one combination beyond the demand: it behaves as if asked for one more.
        if zip { queue.demand = .max(1) }
    }

    /// Returns the demand to request (`.none`: nothing yet), or nil to cancel the subscription.
    @inlinable
    internal mutating func subscribed(_ index: Int, _ subscription: any Subscription) -> Subscribers.Demand? {
        guard !queue.isClosed, subscriptions[index] == nil, !finished[index] else { return nil }
        subscriptions[index] = subscription
        return requested
    }

    /// Upstream `index` sent a value: whether to keep it, and whether it completes a combination to send now.
    @inlinable
    internal mutating func received(_ index: Int) -> Reception {
        if queue.isClosed || finished[index] { return .ignored }
        if counts[index] == 0 { emptySlots -= 1 }
        counts[index] = zip ? counts[index] + 1 : 1
        if emptySlots > 0 { return .stored }
        if !zip {
            return queue.demand == .none && !queue.delivering ? .stored : .combined
        }
        for slot in counts.indices {
            counts[slot] -= 1
            if counts[slot] == 0 { emptySlots += 1 }
        }
        return .combined
    }

    /// zip finishes once some finished upstream has no values left to pair.
    @inlinable
    internal var zipExhausted: Bool {
        for index in counts.indices where finished[index] && counts[index] == 0 { return true }
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

    /// After a delivery: the next step; for zip, the upstreams to cancel when the values consumed have exhausted a
    /// finished upstream, and the upstreams to request downstream's returned demand from.
    @inlinable
    internal mutating func delivered(
        extra: Subscribers.Demand
    ) -> (cancel: [any Subscription], request: [any Subscription], DeliveryQueue<Output, Failure>.Step) {
        let next = queue.delivered(extra: extra)
        guard zip else { return ([], [], next) }
        var toRequest: [any Subscription] = []
        if extra > .none && !queue.isClosed {
            requested += extra
            toRequest = forward(extra)
        }
        guard case .idle = next, !queue.isClosed, zipExhausted else { return ([], toRequest, next) }
        return (cancelAll(), toRequest, queue.complete(.finished, flush: true))
    }

    /// zip: the upstreams a demand goes to as a request. The sender, if a delivery runs on its call, gets it as its
    /// `receive` answer instead (Combine's zip does this).
    @inlinable
    internal mutating func forward(_ demand: Subscribers.Demand) -> [any Subscription] {
        guard let sender else { return subscriptions.compactMap { $0 } }
        senderOwed += demand
        var others: [any Subscription] = []
        for index in subscriptions.indices where index != sender {
            if let subscription = subscriptions[index] { others.append(subscription) }
        }
        return others
    }

    /// zip: the sender's delivery is over; what it owes its upstream.
    @inlinable
    internal mutating func senderDone() -> Subscribers.Demand {
        let owed = senderOwed
        sender = nil
        senderOwed = .none
        return owed
    }

    @inlinable
    internal mutating func cancelAll() -> [any Subscription] {
        let live = subscriptions.compactMap { $0 }
        subscriptions = Array(repeating: nil, count: subscriptions.count)
        finished = Array(repeating: true, count: finished.count)
        return live
    }

    /// An upstream failed (`index`), or downstream cancelled (`failure` nil): the subscriptions to cancel, whether the
    /// slots must be emptied, and the next step.
    @inlinable
    internal mutating func fail(_ index: Int?, _ failure: Failure?) -> (
        [any Subscription], clear: Bool, DeliveryQueue<Output, Failure>.Step
    ) {
        if queue.closed { return ([], false, .idle) }
        // Combine's zip cancels the failing upstream too; combineLatest leaves it alone.
        if let index, !zip { subscriptions[index] = nil }
        let live = cancelAll()
        counts = Array(repeating: 0, count: counts.count)
        emptySlots = counts.count
        guard let failure else {
            queue.cancel()
            return (live, true, .idle)
        }
        if queue.pendingCompletion != nil { return (live, true, .idle) }
        return (live, true, queue.complete(.failure(failure), flush: false))
    }

    /// Downstream asked for more: the upstreams to forward it to (nil when the stream is over), and the next step.
    @inlinable
    internal mutating func request(
        _ demand: Subscribers.Demand
    ) -> ([any Subscription]?, DeliveryQueue<Output, Failure>.Step) {
        if queue.isClosed { return (nil, .idle) }
        requested += demand
        return (zip ? forward(demand) : subscriptions.compactMap { $0 }, queue.request(demand))
    }
}

/// The values one upstream sent that no combination has used up yet, typed. Only touched under the storage's lock.
///
/// A ring of raw cells rather than an Array: a combination takes from every slot inside a pack expansion, which the
/// compiler does not specialize, and Array's generic paths there cost metadata look-ups per value (zip ran at twice
/// its former time). Moving out of a cell is one value-witness call, and releases the value as it is handed on.
@usableFromInline
internal final class CombiningSlot<Value> {
    @usableFromInline internal let index: Int
    /// `capacity` cells (a power of two); `count` of them hold values, the oldest at `head`.
    // Only touched under the storage's lock, so the runtime's exclusivity checks would be pure cost.
    @usableFromInline @exclusivity(unchecked) internal var cells: UnsafeMutablePointer<Value>
    @usableFromInline @exclusivity(unchecked) internal var capacity = 1
    @usableFromInline @exclusivity(unchecked) internal var head = 0
    @usableFromInline @exclusivity(unchecked) internal var count = 0

    /// Numbers the slots in order as a pack expansion creates them.
    @inlinable
    internal init(numbering counter: inout Int) {
        index = counter
        counter += 1
        cells = .allocate(capacity: 1)
    }

    @inlinable
    deinit {
        clear()
        cells.deallocate()
    }

    /// zip (`queueing`) adds the value after the others; combineLatest keeps only the latest.
    @inlinable
    internal func store(_ value: Value, queueing: Bool) {
        if !queueing && count == 1 {
            cells[head] = value
            return
        }
        if count == capacity { grow() }
        (cells + ((head + count) & (capacity - 1))).initialize(to: value)
        count += 1
    }

    /// The oldest value, moved out (zip, `consuming`), or a copy of the latest one (combineLatest).
    @inlinable
    internal func take(consuming: Bool) -> Value {
        guard consuming else { return cells[head] }
        let value = (cells + head).move()
        head = (head + 1) & (capacity - 1)
        count -= 1
        return value
    }

    @inlinable
    internal func grow() {
        let larger = UnsafeMutablePointer<Value>.allocate(capacity: capacity * 2)
        for offset in 0..<count {
            (larger + offset).initialize(to: (cells + ((head + offset) & (capacity - 1))).move())
        }
        cells.deallocate()
        cells = larger
        capacity *= 2
        head = 0
    }

    @inlinable
    internal func clear() {
        for offset in 0..<count {
            (cells + ((head + offset) & (capacity - 1))).deinitialize(count: 1)
        }
        head = 0
        count = 0
    }
}

/// The storage behind combineLatest and zip of any arity: the state machine behind a lock, one typed slot per
/// upstream (a parameter pack), and the downstream it serializes calls to.
@usableFromInline
internal final class CombiningStorage<Downstream: Subscriber, each Input>: Subscription, CustomStringConvertible
where Downstream.Input == (repeat each Input) {
    @usableFromInline typealias Machine = CombiningStateMachine<Downstream.Input, Downstream.Failure>
    @usableFromInline typealias Step = DeliveryQueue<Downstream.Input, Downstream.Failure>.Step

    @usableFromInline internal let lock = Lock()
    // Only touched under `lock`, so the runtime's exclusivity checks would be pure cost (they were a third of zip's).
    @usableFromInline @exclusivity(unchecked) internal var machine: Machine
    @usableFromInline @exclusivity(unchecked) internal var downstream: Downstream?
    @usableFromInline internal let slots: (repeat CombiningSlot<each Input>)
    @usableFromInline internal let name: String

    @inlinable
    internal init(downstream: Downstream, zip: Bool, name: String) {
        var count = 0
        slots = (repeat CombiningSlot<each Input>(numbering: &count))
        machine = Machine(count: count, zip: zip)
        self.downstream = downstream
        self.name = name
    }

    /// Creates the storage and hands it downstream as its subscription; the caller then attaches every upstream.
    @inlinable
    internal static func start(_ downstream: Downstream, zip: Bool, name: String) -> CombiningStorage {
        let storage = CombiningStorage(downstream: downstream, zip: zip, name: name)
        downstream.receive(subscription: storage)
        return storage
    }

    /// Subscribes `upstream` to feed `slot`, one of this storage's `slots`.
    @inlinable
    internal func attach<Upstream: Publisher>(_ upstream: Upstream, to slot: CombiningSlot<Upstream.Output>)
    where Upstream.Failure == Downstream.Failure {
        upstream.subscribe(CombiningInput(storage: self, slot: slot))
    }

    @usableFromInline
    internal var description: String { name }

    /// Delivers until the queue is idle. Run on a zip upstream's call (`sender`), returns the demand owed to it.
    @inlinable
    @discardableResult
    internal func run(_ first: Step, sender: Bool = false) -> Subscribers.Demand {
        var step = first
        var owed = Subscribers.Demand.none
        while true {
            switch step {
            case .idle:
                return owed
            case .complete(let completion):
                lock.lock()
                let target = downstream
                // Combine's zip keeps its downstream; combineLatest lets it go.
                if !machine.zip { downstream = nil }
                lock.unlock()
                target?.receive(completion: completion)
                return owed
            case .deliver(let value, _):
                lock.lock()
                let target = downstream
                lock.unlock()
                let extra = target?.receive(value) ?? .none
                lock.lock()
                let (toCancel, toRequest, next) = machine.delivered(extra: extra)
                var deliversMore = false
                if case .deliver = next { deliversMore = true }
                if sender && !deliversMore { owed = machine.senderDone() }
                lock.unlock()
                for subscription in toCancel { subscription.cancel() }
                for subscription in toRequest { subscription.request(extra) }
                step = next
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

    /// Storing the value, taking one per slot and offering their combination happen under one lock, so combinations
    /// reach the queue in the order their values arrived even when upstreams send from different threads.
    @inlinable
    internal func value<Value>(_ value: Value, into slot: CombiningSlot<Value>) -> Subscribers.Demand {
        lock.lock()
        let reception = machine.received(slot.index)
        if case .ignored = reception {
            lock.unlock()
            return .none
        }
        let zip = machine.zip
        slot.store(value, queueing: zip)
        guard case .combined = reception else {
            lock.unlock()
            return .none
        }
        let combined: Downstream.Input = (repeat (each slots).take(consuming: zip))
        let deliverNow = machine.queue.offer(combined, tag: 0)
        if deliverNow && zip { machine.sender = slot.index }
        lock.unlock()
        guard deliverNow else { return .none }
        return run(.deliver(combined, tag: 0), sender: zip)
    }

    @inlinable
    internal func completed(_ index: Int, _ completion: Subscribers.Completion<Downstream.Failure>) {
        let toCancel: [any Subscription]
        let step: Step
        lock.lock()
        switch completion {
        case .finished:
            (toCancel, step) = machine.finish(index)
        case .failure(let error):
            let (live, clear, next) = machine.fail(index, error)
            if clear { clearSlots() }
            (toCancel, step) = (live, next)
        }
        lock.unlock()
        for subscription in toCancel { subscription.cancel() }
        run(step)
    }

    /// Under the lock: the values held can never be combined any more.
    @inlinable
    internal func clearSlots() {
        repeat (each slots).clear()
    }

    @inlinable
    internal func request(_ demand: Subscribers.Demand) {
        precondition(demand != .none, "demand must not be .none")
        lock.lock()
        let (upstreams, step) = machine.request(demand)
        lock.unlock()
        guard let upstreams else { return }
        for upstream in upstreams { upstream.request(demand) }
        run(step)
    }

    @inlinable
    internal func cancel() {
        lock.lock()
        let (toCancel, clear, _) = machine.fail(nil, nil)
        if clear { clearSlots() }
        if !machine.zip { downstream = nil }
        lock.unlock()
        for subscription in toCancel { subscription.cancel() }
    }
}

/// The subscriber for one upstream of combineLatest or zip: it feeds its own typed slot.
@usableFromInline
internal struct CombiningInput<Downstream: Subscriber, each Slot, Input>: Subscriber, CustomStringConvertible
where Downstream.Input == (repeat each Slot) {
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline internal let storage: CombiningStorage<Downstream, repeat each Slot>
    @usableFromInline internal let slot: CombiningSlot<Input>
    @usableFromInline internal let combineIdentifier = CombineIdentifier()

    @inlinable
    internal init(storage: CombiningStorage<Downstream, repeat each Slot>, slot: CombiningSlot<Input>) {
        self.storage = storage
        self.slot = slot
    }

    @usableFromInline
    internal var description: String { storage.name }

    @inlinable
    internal func receive(subscription: any Subscription) {
        storage.subscribed(slot.index, subscription)
    }

    @inlinable
    internal func receive(_ input: Input) -> Subscribers.Demand {
        storage.value(input, into: slot)
    }

    @inlinable
    internal func receive(completion: Subscribers.Completion<Failure>) {
        storage.completed(slot.index, completion)
    }
}
