extension Publisher {
    /// Ignores all upstream elements, but passes along the upstream publisher's completion state.
    ///
    /// Asks upstream for unlimited elements, since none of them reach the downstream.
    public func ignoreOutput() -> Publishers.IgnoreOutput<Self> {
        Publishers.IgnoreOutput(upstream: self)
    }
}

extension Publishers {
    /// A publisher that ignores all upstream elements, but passes along the upstream publisher's completion state.
    public struct IgnoreOutput<Upstream: Publisher>: Publisher {
        /// Nothing is ever published.
        public typealias Output = Never
        /// Fails only when the upstream fails.
        public typealias Failure = Upstream.Failure

        /// The publisher this publisher receives elements from.
        public let upstream: Upstream

        /// Creates a publisher that only relays `upstream`'s completion.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches the subscriber through a subscription that discards values.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber))
        }
    }
}

extension Publishers.IgnoreOutput: Equatable where Upstream: Equatable {}

extension Publishers.IgnoreOutput {
    /// Combine's ignoreOutput is a pass-through: the downstream gets the upstream's own subscription (so its requests
    /// and cancels reach upstream unchanged), upstream is asked for everything once the downstream has it, values are
    /// dropped, and every completion is forwarded. There is nothing to lock: the struct holds no state.
    private struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    where Downstream.Input == Never, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        let downstream: Downstream
        let combineIdentifier = CombineIdentifier()

        init(downstream: Downstream) {
            self.downstream = downstream
        }

        var description: String { "IgnoreOutput" }

        var customMirror: Mirror { Mirror(self, children: []) }

        var playgroundDescription: Any { description }

        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
            subscription.request(.unlimited)
        }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            .none
        }

        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            downstream.receive(completion: completion)
        }
    }
}
