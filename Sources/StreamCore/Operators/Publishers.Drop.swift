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
    fileprivate final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        /// Combine's Drop keeps only the current upstream subscription: a completion frees the slot (a later
        /// subscription is taken and asked for the demand owed), every completion is forwarded, and requests or a
        /// cancel with no upstream are kept or ignored. Only a cancel of a live subscription ends the stream.
        private let lock = Lock()
        private var upstream: (any Subscription)?
        private var cancelled = false
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
            guard upstream == nil, !cancelled else {
                lock.unlock()
                subscription.cancel()
                return
            }
            upstream = subscription
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
            if cancelled {
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
            guard !cancelled else {
                lock.unlock()
                return
            }
            upstream = nil
            lock.unlock()
            downstream.receive(completion: completion)
        }

        func request(_ demand: Subscribers.Demand) {
            precondition(demand != .none, "demand must not be zero")
            lock.lock()
            guard !cancelled else {
                lock.unlock()
                return
            }
            guard let subscription = upstream else {
                pendingDemand += demand
                lock.unlock()
                return
            }
            lock.unlock()
            subscription.request(demand)
        }

        func cancel() {
            lock.lock()
            guard let subscription = upstream, !cancelled else {
                lock.unlock()
                return
            }
            cancelled = true
            upstream = nil
            lock.unlock()
            subscription.cancel()
        }
    }
}

extension Publishers.Drop.Inner: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// No children, as in Combine.
    var customMirror: Mirror { Mirror(self, children: []) }

    /// "Drop".
    var playgroundDescription: Any { description }
}
