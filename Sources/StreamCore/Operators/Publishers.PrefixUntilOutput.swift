extension Publisher {
    /// Republishes elements until another publisher emits an element, then finishes.
    ///
    /// The trigger is asked for one element; if it finishes or fails without one, this publisher carries on. As in
    /// Combine, the subscription reaches downstream only with upstream's (a trigger that fires first finishes
    /// downstream without one), and the trigger's subscription is let go, not cancelled, after its element.
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

        /// Subscribes to the trigger first, then to upstream; the subscription goes downstream with upstream's.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let inner = UntilOutputInner<S, PrefixUntilOutputPolicy>(downstream: subscriber)
            other.subscribe(UntilOutputTrigger<S, PrefixUntilOutputPolicy, Other.Output, Other.Failure>(inner: inner))
            upstream.subscribe(inner)
        }
    }
}

/// prefix(untilOutputFrom:)'s policy: the trigger's first element ends the stream. Its subscription has no custom
/// description or mirror, as in Combine (a description shows its type, which names this policy).
@usableFromInline
internal enum PrefixUntilOutputPolicy: UntilOutputPolicy {
    @inlinable internal static var opensOnTrigger: Bool { false }
}
