extension Publisher {
    /// Omits the specified number of elements before republishing subsequent elements.
    ///
    /// As in Combine, the operator hands its subscription downstream first and asks upstream for the elements it
    /// will drop together with whatever the downstream has asked for by then, so dropped elements never consume
    /// the downstream's demand. `count` must be non-negative (checked on subscription, as Combine does).
    public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
        Publishers.Drop(upstream: self, count: count)
    }
}

extension Publishers {
    /// A publisher that omits a specified number of elements before republishing later elements.
    public struct Drop<Upstream: Publisher>: Publisher {
        /// The upstream's element type.
        public typealias Output = Upstream.Output
        /// Fails only when the upstream fails.
        public typealias Failure = Upstream.Failure

        /// The publisher this publisher receives elements from.
        public let upstream: Upstream
        /// The number of elements to drop.
        public let count: Int

        /// Creates a publisher that drops the first `count` elements of `upstream`.
        public init(upstream: Upstream, count: Int) {
            self.upstream = upstream
            self.count = count
        }

        /// Hands the subscription downstream, then subscribes upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            precondition(count >= 0, "dropFirst(_:) needs a non-negative count")
            let inner = Inner(downstream: subscriber, count: count)
            subscriber.receive(subscription: inner)
            upstream.subscribe(inner)
        }
    }
}

extension Publishers.Drop: Equatable where Upstream: Equatable {}

extension Publishers.Drop {
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private enum State {
            case awaitingSubscription
            case subscribed(any Subscription)
            case terminal
        }

        private let lock = Lock()
        private var state = State.awaitingSubscription
        private var pendingDemand = Subscribers.Demand.none
        private var remainingToDrop: Int
        private let downstream: Downstream

        init(downstream: Downstream, count: Int) {
            self.downstream = downstream
            remainingToDrop = count
        }

        var description: String { "Drop" }

        func receive(subscription: any Subscription) {
            lock.lock()
            guard case .awaitingSubscription = state else {
                lock.unlock()
                subscription.cancel()
                return
            }
            state = .subscribed(subscription)
            let demand = pendingDemand + remainingToDrop
            pendingDemand = .none
            lock.unlock()
            if demand != .none {
                subscription.request(demand)
            }
        }

        /// A value that arrives before the upstream subscription still counts and, past the dropped ones, goes
        /// downstream: the downstream already has its subscription, and Combine's Drop does the same.
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            lock.lock()
            if case .terminal = state {
                lock.unlock()
                return .none
            }
            if remainingToDrop > 0 {
                remainingToDrop -= 1
                lock.unlock()
                return .none
            }
            lock.unlock()
            return downstream.receive(input)
        }

        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            lock.lock()
            guard case .subscribed = state else {
                lock.unlock()
                return
            }
            state = .terminal
            lock.unlock()
            downstream.receive(completion: completion)
        }

        func request(_ demand: Subscribers.Demand) {
            precondition(demand != .none, "demand must not be zero")
            lock.lock()
            switch state {
            case .awaitingSubscription:
                pendingDemand += demand
                lock.unlock()
            case .subscribed(let subscription):
                lock.unlock()
                subscription.request(demand)
            case .terminal:
                lock.unlock()
            }
        }

        func cancel() {
            lock.lock()
            let previous = state
            state = .terminal
            lock.unlock()
            if case .subscribed(let subscription) = previous {
                subscription.cancel()
            }
        }
    }
}
