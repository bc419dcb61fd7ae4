extension Publisher {
    /// Collects up to the specified number of elements, and then emits a single array of the collection.
    ///
    /// Each unit of downstream demand becomes `count` elements of upstream demand. When upstream finishes, a partly
    /// filled array is published before `.finished`; a failure discards it. `count` must be positive.
    public func collect(_ count: Int) -> Publishers.CollectByCount<Self> {
        Publishers.CollectByCount(upstream: self, count: count)
    }
}

extension Publishers {
    /// A publisher that buffers a maximum number of items and publishes them as arrays.
    public struct CollectByCount<Upstream: Publisher>: Publisher {
        /// Arrays of at most `count` elements.
        public typealias Output = [Upstream.Output]
        /// Fails only when the upstream fails.
        public typealias Failure = Upstream.Failure

        /// The publisher this publisher receives elements from.
        public let upstream: Upstream
        /// The size of every array but possibly the last.
        public let count: Int

        /// Creates a publisher that groups `upstream`'s elements into arrays of `count`.
        public init(upstream: Upstream, count: Int) {
            precondition(count > 0, "collect(_:) needs a positive count")
            self.upstream = upstream
            self.count = count
        }

        /// Attaches the subscriber through a batching subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, count: count))
        }
    }
}

extension Publishers.CollectByCount: Equatable where Upstream: Equatable {}

extension Publishers.CollectByCount {
    fileprivate final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible
    where Downstream.Input == [Upstream.Output], Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private enum State {
            case awaitingSubscription
            case subscribed(any Subscription)
            case terminal
        }

        private let lock = Lock()
        private var state = State.awaitingSubscription
        private var buffer: [Upstream.Output] = []
        private let count: Int
        private let downstream: Downstream

        init(downstream: Downstream, count: Int) {
            self.downstream = downstream
            self.count = count
            buffer.reserveCapacity(count)
        }

        var description: String { "CollectByCount" }

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
        }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            lock.lock()
            guard case .subscribed = state else {
                lock.unlock()
                return .none
            }
            buffer.append(input)
            guard buffer.count == count else {
                lock.unlock()
                return .none
            }
            let batch = buffer
            buffer = []
            buffer.reserveCapacity(count)
            lock.unlock()
            return downstream.receive(batch) * count
        }

        /// As in Combine, every completion is forwarded, whatever the state (before the subscription, after a cancel,
        /// a second one); only the first, while subscribed, flushes a partial group.
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            lock.lock()
            var rest: [Upstream.Output] = []
            if case .subscribed = state {
                state = .terminal
                rest = buffer
            }
            buffer = []
            lock.unlock()
            if case .finished = completion, !rest.isEmpty {
                _ = downstream.receive(rest)
            }
            downstream.receive(completion: completion)
        }

        func request(_ demand: Subscribers.Demand) {
            precondition(demand != .none, "demand must not be zero")
            lock.lock()
            guard case .subscribed(let subscription) = state else {
                lock.unlock()
                return
            }
            lock.unlock()
            subscription.request(demand * count)
        }

        /// A cancel before the upstream subscription is ignored, as in Combine: the subscription is taken later.
        func cancel() {
            lock.lock()
            if case .awaitingSubscription = state {
                lock.unlock()
                return
            }
            let previous = state
            state = .terminal
            buffer = []
            lock.unlock()
            if case .subscribed(let subscription) = previous {
                subscription.cancel()
            }
        }
    }
}

extension Publishers.CollectByCount.Inner: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// The downstream, the upstream subscription, the values collected so far and the group size, as in Combine.
    var customMirror: Mirror {
        lock.lock()
        let collected = buffer
        let upstream: Any
        if case .subscribed(let subscription) = state { upstream = subscription } else { upstream = "nil" }
        lock.unlock()
        return Mirror(
            self,
            children: [
                "downstream": downstream, "upstreamSubscription": upstream, "buffer": collected, "count": count,
            ])
    }

    /// "CollectByCount".
    var playgroundDescription: Any { description }
}
