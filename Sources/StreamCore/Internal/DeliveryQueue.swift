/// The downstream half of an operator fed by several producers (merge, flatMap, switchToLatest, combineLatest…).
///
/// It is a pure value kept under the operator's lock. It serializes calls downstream without holding the lock while
/// calling out: whoever finds nobody delivering becomes the deliverer and drains what others buffered meanwhile, so a
/// reentrant or concurrent value is queued instead of deadlocking, and never dropped. It also counts downstream demand
/// and holds a completion back until the values already accepted have been delivered.
@usableFromInline
internal struct DeliveryQueue<Element, Failure: Error> {
    /// What the caller must do next, outside the lock.
    @usableFromInline
    internal enum Step {
        /// Deliver this value (it came from producer `tag`), then call `delivered(extra:)` with the returned demand.
        case deliver(Element, tag: Int)
        /// Send this completion; nothing follows.
        case complete(Subscribers.Completion<Failure>)
        /// Nothing to do.
        case idle
    }

    @usableFromInline internal var demand: Subscribers.Demand = .none
    @usableFromInline internal var buffer: [(Int, Element)] = []
    @usableFromInline internal var head = 0
    @usableFromInline internal var delivering = false
    @usableFromInline internal var pendingCompletion: Subscribers.Completion<Failure>?
    /// A completion was handed out, or the stream was cancelled: nothing more goes downstream.
    @usableFromInline internal var closed = false

    @inlinable
    internal init() {}

    /// True when values are waiting for demand.
    @inlinable
    internal var hasBuffered: Bool { head < buffer.count }

    /// True once nothing more may go downstream.
    @inlinable
    internal var isClosed: Bool { closed || pendingCompletion != nil }

    /// A producer offers a value. Returns true when the caller is now the deliverer and must deliver it itself;
    /// otherwise the value was queued (or ignored because the stream is over).
    @inlinable
    internal mutating func offer(_ value: Element, tag: Int) -> Bool {
        if closed || pendingCompletion != nil { return false }
        if !delivering && demand > 0 && head == buffer.count {
            demand -= 1
            delivering = true
            return true
        }
        buffer.append((tag, value))
        return false
    }

    /// The deliverer finished one delivery; `extra` is what downstream returned.
    @inlinable
    internal mutating func delivered(extra: Subscribers.Demand) -> Step {
        if extra > 0 { demand += extra }
        return next()
    }

    /// Downstream asked for more.
    @inlinable
    internal mutating func request(_ more: Subscribers.Demand) -> Step {
        if closed { return .idle }
        demand += more
        if delivering { return .idle }
        return next()
    }

    /// The stream ends. A failure (or `flush: false`) discards queued values; a finish with `flush` waits for them.
    @inlinable
    internal mutating func complete(_ completion: Subscribers.Completion<Failure>, flush: Bool) -> Step {
        if closed || pendingCompletion != nil { return .idle }
        var flush = flush
        if case .failure = completion { flush = false }
        if !flush {
            buffer.removeAll()
            head = 0
        }
        pendingCompletion = completion
        if delivering { return .idle }
        return next()
    }

    /// Downstream cancelled: drop everything.
    @inlinable
    internal mutating func cancel() {
        closed = true
        pendingCompletion = nil
        buffer.removeAll()
        head = 0
    }

    @inlinable
    internal mutating func next() -> Step {
        if closed {
            delivering = false
            return .idle
        }
        if head < buffer.count {
            if demand > 0 {
                demand -= 1
                let (tag, value) = buffer[head]
                head += 1
                if head == buffer.count {
                    buffer.removeAll(keepingCapacity: true)
                    head = 0
                } else if head >= 64 && head * 2 >= buffer.count {
                    buffer.removeFirst(head)
                    head = 0
                }
                delivering = true
                return .deliver(value, tag: tag)
            }
            delivering = false
            return .idle
        }
        if let completion = pendingCompletion {
            pendingCompletion = nil
            closed = true
            delivering = false
            return .complete(completion)
        }
        delivering = false
        return .idle
    }
}
