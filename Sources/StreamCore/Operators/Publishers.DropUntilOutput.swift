extension Publisher {
    /// Ignores elements from upstream until another publisher emits an element.
    ///
    /// A failure of the trigger fails this publisher; if the trigger finishes without an element, so does this one,
    /// since nothing could pass any more. Dropped elements use up the demand forwarded upstream, as in Combine.
    @inlinable
    public func drop<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.DropUntilOutput<Self, P>
    where Failure == P.Failure {
        Publishers.DropUntilOutput(upstream: self, other: publisher)
    }
}

extension Publishers {
    /// A publisher that ignores elements from upstream until another publisher emits an element.
    public struct DropUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher
    where Upstream.Failure == Other.Failure {
        /// Upstream's output.
        public typealias Output = Upstream.Output
        /// The shared failure.
        public typealias Failure = Upstream.Failure

        /// The publisher this operator receives elements from.
        public let upstream: Upstream
        /// The publisher whose first element opens the gate.
        public let other: Other

        /// Creates the operator; prefer `drop(untilOutputFrom:)`.
        @inlinable
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        /// Subscribes to the trigger first, then to upstream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let storage = UntilOutputStorage(downstream: subscriber, dropping: true, name: "DropUntilOutput")
            subscriber.receive(subscription: storage)
            other.subscribe(UntilOutputTrigger<S, Other.Output, Other.Failure>(storage: storage) { $0 })
            upstream.subscribe(UntilOutputUpstream(storage: storage))
        }
    }
}

extension Publishers.DropUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}
