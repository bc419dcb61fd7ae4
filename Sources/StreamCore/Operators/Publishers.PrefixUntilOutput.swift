extension Publisher {
    /// Republishes elements until another publisher emits an element, then finishes.
    ///
    /// The trigger is asked for one element; if it finishes or fails without one, this publisher carries on.
    @inlinable
    public func prefix<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.PrefixUntilOutput<Self, P> {
        Publishers.PrefixUntilOutput(upstream: self, other: publisher)
    }
}

extension Publishers {
    /// A publisher that republishes elements until another publisher emits an element.
    public struct PrefixUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher {
        /// Upstream's output.
        public typealias Output = Upstream.Output
        /// Upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher this operator receives elements from.
        public let upstream: Upstream
        /// The publisher whose first element ends the stream.
        public let other: Other

        /// Creates the operator; prefer `prefix(untilOutputFrom:)`.
        @inlinable
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        /// Subscribes to the trigger first, then to upstream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let storage = UntilOutputStorage(downstream: subscriber, dropping: false, name: "PrefixUntilOutput")
            subscriber.receive(subscription: storage)
            other.subscribe(UntilOutputTrigger<S, Other.Output, Other.Failure>(storage: storage) { _ in nil })
            upstream.subscribe(UntilOutputUpstream(storage: storage))
        }
    }
}
