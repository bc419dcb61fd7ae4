extension Publisher {
    /// Buffers up to `size` elements from upstream until downstream asks for them.
    ///
    /// `.keepFull` asks upstream for `size` elements at once and one more after each delivery; `.byRequest` asks
    /// upstream for unlimited elements. When the buffer is full, `whenFull` drops the newest or oldest element, or fails
    /// (cancelling upstream). A finish waits until the buffered elements have been delivered; a failure waits only
    /// while the downstream still has demand for buffered elements, as in Combine.
    @inlinable
    public func buffer(
        size: Int, prefetch: Publishers.PrefetchStrategy, whenFull: Publishers.BufferingStrategy<Failure>
    ) -> Publishers.Buffer<Self> {
        Publishers.Buffer(upstream: self, size: size, prefetch: prefetch, whenFull: whenFull)
    }
}

extension Publishers {
    /// A strategy for filling a buffer.
    public enum PrefetchStrategy: Equatable, Hashable, Sendable {
        /// Keeps the buffer full: asks upstream for `size` elements, then one more for each element delivered.
        case keepFull
        /// Asks upstream for unlimited elements.
        case byRequest
    }

    /// A strategy for handling an element that arrives when the buffer is full.
    public enum BufferingStrategy<Failure: Error> {
        /// Drops the element that just arrived.
        case dropNewest
        /// Drops the oldest buffered element to make room.
        case dropOldest
        /// Fails the stream with the error the closure makes.
        case customError(() -> Failure)
    }

    /// A publisher that buffers elements from an upstream publisher.
    public struct Buffer<Upstream: Publisher>: Publisher {
        /// Upstream's output.
        public typealias Output = Upstream.Output
        /// Upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher this operator receives elements from.
        public let upstream: Upstream
        /// The most elements held.
        public let size: Int
        /// How upstream is asked for elements.
        public let prefetch: PrefetchStrategy
        /// What to do when an element arrives to a full buffer.
        public let whenFull: BufferingStrategy<Upstream.Failure>

        /// Creates the operator; prefer `buffer(size:prefetch:whenFull:)`.
        public init(upstream: Upstream, size: Int, prefetch: PrefetchStrategy, whenFull: BufferingStrategy<Failure>) {
            self.upstream = upstream
            self.size = size
            self.prefetch = prefetch
            self.whenFull = whenFull
        }

        /// Subscribes to upstream; upstream is asked for elements before downstream gets its subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(BufferInner(downstream: subscriber, size: size, prefetch: prefetch, whenFull: whenFull))
        }
    }
}

/// The buffer's subscription, following Combine's recorded behaviour:
///
/// - Before the upstream subscription, values, completions, requests and cancels are ignored.
/// - A full buffer with `.customError` cancels upstream and holds the failure: it is delivered as soon as the
///   downstream has no demand left or the buffer is empty, and values arriving after it are ignored. An upstream
///   failure is held the same way. `.finished` waits until the buffer is empty and the downstream has demand left (or
///   asks again); values after it are still buffered.
/// - `.keepFull` refills what it delivered: as the demand returned from `receive(_:)` when the delivery happened
///   inside it, otherwise as an upstream request. `request(.none)` is accepted.
/// - The downstream is held for the subscription's whole life, as in Combine.
///
/// Unlike Combine, deliveries are serialized: a drain started while another one runs (reentrantly or on another
/// thread) only updates the state, and the running drain delivers.
private final class BufferInner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private enum State {
        case awaitingSubscription
        case subscribed(any Subscription)
        case terminal
    }

    private let lock = Lock()
    private let downstream: Downstream
    private var state = State.awaitingSubscription
    private var values: [Input] = []
    private var head = 0
    private var demand: Subscribers.Demand = .none
    private var delivering = false
    /// True while the `.customError` closure runs (outside the lock).
    private var makingError = false
    /// The upstream subscription the latest drain started with, for its refill.
    private var drainUpstream: (any Subscription)?
    /// Upstream's completion, or the `.customError` failure, waiting for its turn.
    private var completion: Subscribers.Completion<Failure>?
    private let size: Int
    private let prefetch: Publishers.PrefetchStrategy
    private let whenFull: Publishers.BufferingStrategy<Failure>

    init(
        downstream: Downstream, size: Int, prefetch: Publishers.PrefetchStrategy,
        whenFull: Publishers.BufferingStrategy<Failure>
    ) {
        self.downstream = downstream
        self.size = max(0, size)
        self.prefetch = prefetch
        self.whenFull = whenFull
    }

    var description: String { "Buffer" }

    private var count: Int { values.count - head }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription = state else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .subscribed(subscription)
        lock.unlock()
        switch prefetch {
        case .keepFull: if size > 0 { subscription.request(.max(size)) }
        case .byRequest: subscription.request(.unlimited)
        }
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .subscribed(let subscription) = state else {
            lock.unlock()
            return .none
        }
        if case .failure? = completion {
            lock.unlock()
            return .none
        }
        if count >= size {
            switch whenFull {
            case .dropNewest:
                lock.unlock()
                return drain()
            case .dropOldest:
                if count > 0 {
                    head += 1
                    values.append(input)
                }
            case .customError(let makeError):
                // Combine deadlocks (and so crashes) when the closure sends into the buffer again; trap clearly.
                precondition(!makingError, "buffer's customError closure sent a value into the same buffer")
                makingError = true
                lock.unlock()
                // The user's closure runs outside the lock.
                let error = makeError()
                lock.lock()
                makingError = false
                guard case .subscribed = state, completion == nil else {
                    lock.unlock()
                    return .none
                }
                completion = .failure(error)
                lock.unlock()
                subscription.cancel()
                return .none
            }
        } else {
            values.append(input)
        }
        lock.unlock()
        return drain()
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard case .subscribed = state, self.completion == nil else {
            lock.unlock()
            return
        }
        self.completion = completion
        lock.unlock()
        requestRefill(drain())
    }

    func request(_ more: Subscribers.Demand) {
        lock.lock()
        guard case .subscribed = state else {
            lock.unlock()
            return
        }
        demand += more
        lock.unlock()
        requestRefill(drain())
    }

    func cancel() {
        lock.lock()
        guard case .subscribed(let subscription) = state else {
            lock.unlock()
            return
        }
        state = .terminal
        values = []
        head = 0
        drainUpstream = nil
        lock.unlock()
        subscription.cancel()
    }

    /// Asks upstream for the `.keepFull` refill a drain outside `receive(_:)` produced, through the subscription
    /// that drain started with (Combine asks even when the drain ended with a completion).
    private func requestRefill(_ refill: Subscribers.Demand) {
        guard refill > 0 else { return }
        lock.lock()
        let subscription = drainUpstream
        lock.unlock()
        subscription?.request(refill)
    }

    /// Delivers buffered values while there is demand, then a completion whose turn has come; returns the refill
    /// (`.keepFull`) for the values delivered. Whoever finds nobody delivering does it.
    private func drain() -> Subscribers.Demand {
        lock.lock()
        if delivering {
            lock.unlock()
            return .none
        }
        delivering = true
        if case .subscribed(let subscription) = state {
            drainUpstream = subscription
        }
        var delivered = 0
        while case .subscribed = state {
            if count > 0 && demand > 0 {
                let value = values[head]
                head += 1
                if head == values.count {
                    values.removeAll(keepingCapacity: true)
                    head = 0
                } else if head >= 64 && head * 2 >= values.count {
                    values.removeFirst(head)
                    head = 0
                }
                demand -= 1
                delivered += 1
                lock.unlock()
                let extra = downstream.receive(value)
                lock.lock()
                demand += extra
                continue
            }
            // A failure goes once the demand is spent or nothing is left; a finish only once nothing is left and
            // the downstream asks for more (so values arriving after it, which Combine still buffers, come first).
            let due: Bool
            switch completion {
            case .failure?: due = count == 0 || demand == .none
            case .finished?: due = count == 0 && demand > 0
            case nil: due = false
            }
            if due, let completion {
                state = .terminal
                values = []
                head = 0
                delivering = false
                lock.unlock()
                downstream.receive(completion: completion)
                // Combine still asks for the refill of what it delivered before the completion.
                return prefetch == .keepFull && delivered > 0 ? .max(delivered) : .none
            }
            break
        }
        delivering = false
        lock.unlock()
        guard prefetch == .keepFull, delivered > 0 else { return .none }
        return .max(delivered)
    }
}

extension BufferInner: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// The buffered values, the upstream state, the downstream's outstanding demand and the completion waiting for
    /// its turn, as in Combine.
    var customMirror: Mirror {
        lock.lock()
        let buffered = Array(values[head...])
        let current = state
        let owed = demand
        let terminal = completion
        lock.unlock()
        return Mirror(
            self,
            children: [
                "values": buffered, "state": current, "downstreamDemand": owed, "terminal": terminal as Any,
            ])
    }

    /// "Buffer".
    var playgroundDescription: Any { description }
}
