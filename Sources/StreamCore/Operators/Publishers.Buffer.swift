extension Publisher {
    /// Buffers up to `size` elements from upstream until downstream asks for them.
    ///
    /// `.keepFull` asks upstream for `size` elements at once and one more after each delivery; `.byRequest` asks
    /// upstream for unlimited elements. When the buffer is full, `whenFull` drops the newest or oldest element, or fails.
    /// A finish waits until the buffered elements have been delivered; a failure is delivered at once.
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

private final class BufferInner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let lock = Lock()
    private var downstream: Downstream?
    private var upstream: (any Subscription)?
    private var values: [Input] = []
    private var head = 0
    private var demand: Subscribers.Demand = .none
    private var delivering = false
    private var finished = false
    private var terminal = false
    private let size: Int
    private let prefetch: Publishers.PrefetchStrategy
    private var whenFull: Publishers.BufferingStrategy<Failure>

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
        guard upstream == nil, !terminal, let target = downstream else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstream = subscription
        lock.unlock()
        switch prefetch {
        case .keepFull: if size > 0 { subscription.request(.max(size)) }
        case .byRequest: subscription.request(.unlimited)
        }
        target.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard !terminal, !finished, downstream != nil else {
            lock.unlock()
            return .none
        }
        if count >= size {
            switch whenFull {
            case .dropNewest:
                lock.unlock()
                return .none
            case .dropOldest:
                if count > 0 {
                    head += 1
                    values.append(input)
                }
            case .customError(let makeError):
                lock.unlock()
                fail(makeError())
                return .none
            }
        } else {
            values.append(input)
        }
        lock.unlock()
        drain()
        return .none
    }

    private func fail(_ error: Failure) {
        lock.lock()
        guard !terminal else {
            lock.unlock()
            return
        }
        terminal = true
        let target = downstream
        let subscription = upstream
        downstream = nil
        upstream = nil
        values = []
        head = 0
        whenFull = .dropNewest
        lock.unlock()
        subscription?.cancel()
        target?.receive(completion: .failure(error))
    }

    /// Delivers buffered elements while there is demand; whoever finds nobody delivering does it.
    private func drain() {
        lock.lock()
        if delivering {
            lock.unlock()
            return
        }
        delivering = true
        while true {
            if terminal {
                delivering = false
                lock.unlock()
                return
            }
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
                let target = downstream
                let refill = prefetch == .keepFull ? upstream : nil
                lock.unlock()
                let extra = target?.receive(value) ?? .none
                refill?.request(.max(1))
                lock.lock()
                demand += extra
                continue
            }
            if count == 0 && finished {
                terminal = true
                delivering = false
                let target = downstream
                downstream = nil
                upstream = nil
                lock.unlock()
                target?.receive(completion: .finished)
                return
            }
            delivering = false
            lock.unlock()
            return
        }
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished:
            lock.lock()
            guard !terminal, !finished else {
                lock.unlock()
                return
            }
            finished = true
            upstream = nil
            lock.unlock()
            drain()
        case .failure(let error):
            lock.lock()
            upstream = nil
            lock.unlock()
            fail(error)
        }
    }

    func request(_ more: Subscribers.Demand) {
        precondition(more != .none, "demand must not be .none")
        lock.lock()
        demand += more
        lock.unlock()
        drain()
    }

    func cancel() {
        lock.lock()
        terminal = true
        let subscription = upstream
        upstream = nil
        downstream = nil
        values = []
        head = 0
        lock.unlock()
        subscription?.cancel()
    }
}
