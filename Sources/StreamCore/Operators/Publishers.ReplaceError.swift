extension Publisher {
    /// Replaces any errors in the stream with the provided element.
    ///
    /// On failure the element is published followed by `.finished`; if the downstream has no outstanding demand at
    /// that moment, both wait for its next request rather than exceed its demand.
    public func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
        Publishers.ReplaceError(upstream: self, output: output)
    }
}

extension Publishers {
    /// A publisher that replaces any errors in the stream with a provided element.
    public struct ReplaceError<Upstream: Publisher>: Publisher {
        /// The upstream's element type.
        public typealias Output = Upstream.Output
        /// Errors are replaced, so the publisher never fails.
        public typealias Failure = Never

        /// The publisher this publisher receives elements from.
        public let upstream: Upstream
        /// The element published in place of a failure.
        public let output: Upstream.Output

        /// Creates a publisher that replaces `upstream`'s failure with `output`.
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

extension Publishers.ReplaceError: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}

extension Publishers.ReplaceError {
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Never {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private enum State {
            case awaitingSubscription
            case subscribed(any Subscription)
            /// Upstream failed while the downstream had no demand; the replacement waits for a request.
            case replacementPending
            case terminal
        }

        private let lock = Lock()
        private var state = State.awaitingSubscription
        private var demand = Subscribers.Demand.none
        private var output: Upstream.Output?
        private let downstream: Downstream

        init(downstream: Downstream, output: Upstream.Output) {
            self.downstream = downstream
            self.output = output
        }

        var description: String { "ReplaceError" }

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
            switch completion {
            case .finished:
                state = .terminal
                output = nil
                lock.unlock()
                downstream.receive(completion: .finished)
            case .failure:
                if demand > 0 {
                    state = .terminal
                    let replacement = output
                    output = nil
                    lock.unlock()
                    if let replacement {
                        _ = downstream.receive(replacement)
                    }
                    downstream.receive(completion: .finished)
                } else {
                    state = .replacementPending
                    lock.unlock()
                }
            }
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
