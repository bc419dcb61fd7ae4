extension Publisher {
    /// Replaces an empty stream with the provided element.
    ///
    /// If upstream finishes without publishing anything, the element is published followed by `.finished`, as soon
    /// as the downstream has demand for it.
    public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
        Publishers.ReplaceEmpty(upstream: self, output: output)
    }
}

extension Publishers {
    /// A publisher that replaces an empty stream with a provided element.
    public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
        /// The upstream's element type.
        public typealias Output = Upstream.Output
        /// Fails only when the upstream fails.
        public typealias Failure = Upstream.Failure

        /// The publisher this publisher receives elements from.
        public let upstream: Upstream
        /// The element published when upstream finishes empty.
        public let output: Upstream.Output

        /// Creates a publisher that publishes `output` if `upstream` finishes without elements.
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Attaches the subscriber through a demand-tracking subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, output: output))
        }
    }
}

extension Publishers.ReplaceEmpty: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}

extension Publishers.ReplaceEmpty {
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private enum State {
            case awaitingSubscription
            case subscribed(any Subscription)
            /// Upstream finished empty while the downstream had no demand; the replacement waits for a request.
            case replacementPending
            case terminal
        }

        private let lock = Lock()
        private var state = State.awaitingSubscription
        private var demand = Subscribers.Demand.none
        private var receivedValue = false
        private var output: Upstream.Output?
        private let downstream: Downstream

        init(downstream: Downstream, output: Upstream.Output) {
            self.downstream = downstream
            self.output = output
        }

        var description: String { "ReplaceEmpty" }

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
            receivedValue = true
            demand -= 1
            lock.unlock()
            let more = downstream.receive(input)
            if more != .none {
                lock.lock()
                demand += more
                lock.unlock()
            }
            return more
        }

        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            lock.lock()
            guard case .subscribed = state else {
                lock.unlock()
                return
            }
            if case .finished = completion, !receivedValue {
                guard demand > 0 else {
                    state = .replacementPending
                    lock.unlock()
                    return
                }
                state = .terminal
                let replacement = output
                output = nil
                lock.unlock()
                if let replacement {
                    _ = downstream.receive(replacement)
                }
                downstream.receive(completion: .finished)
                return
            }
            state = .terminal
            output = nil
            lock.unlock()
            downstream.receive(completion: completion)
        }

        func request(_ demand: Subscribers.Demand) {
            precondition(demand != .none, "demand must not be zero")
            lock.lock()
            switch state {
            case .subscribed(let subscription):
                self.demand += demand
                lock.unlock()
                subscription.request(demand)
            case .replacementPending:
                state = .terminal
                let replacement = output
                output = nil
                lock.unlock()
                if let replacement {
                    _ = downstream.receive(replacement)
                }
                downstream.receive(completion: .finished)
            case .awaitingSubscription, .terminal:
                lock.unlock()
            }
        }

        func cancel() {
            lock.lock()
            let previous = state
            state = .terminal
            output = nil
            lock.unlock()
            if case .subscribed(let subscription) = previous {
                subscription.cancel()
            }
        }
    }
}
