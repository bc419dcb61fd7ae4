extension Publisher {
    /// Ignores elements from upstream until another publisher emits an element.
    ///
    /// A failure of the trigger fails this publisher; if the trigger finishes without an element, so does this one,
    /// since nothing could pass any more. Dropped elements use up the demand forwarded upstream, and a value beyond
    /// that demand traps, as in Combine. Combine's quirks are kept too: completions are forwarded each time they
    /// arrive (from upstream, and from the trigger until it fired), and only a cancel closes the operator.
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

        /// Hands the subscription downstream, then subscribes to the trigger, then to upstream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let inner = UntilOutputInner<S, DropUntilOutputPolicy>(downstream: subscriber)
            subscriber.receive(subscription: inner)
            other.subscribe(UntilOutputTrigger<S, DropUntilOutputPolicy, Other.Output, Other.Failure>(inner: inner))
            upstream.subscribe(inner)
        }
    }
}

extension Publishers.DropUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}

/// drop(untilOutputFrom:)'s policy: the trigger's first element opens the gate.
@usableFromInline
internal enum DropUntilOutputPolicy: UntilOutputPolicy {
    @inlinable internal static var opensOnTrigger: Bool { true }
}

// Combine's drop(untilOutputFrom:) names itself and shows no children, on its subscription and on the trigger's
// subscriber alike; prefix(untilOutputFrom:) customizes neither, so these conformances are drop's alone.
extension UntilOutputInner: CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Policy == DropUntilOutputPolicy {
    /// "DropUntilOutput".
    @usableFromInline internal var description: String { "DropUntilOutput" }
    /// No children.
    @usableFromInline internal var customMirror: Mirror { Mirror(self, children: []) }
    /// "DropUntilOutput".
    @usableFromInline internal var playgroundDescription: Any { description }
}

extension UntilOutputTrigger: CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Policy == DropUntilOutputPolicy {
    /// "DropUntilOutput".
    @usableFromInline internal var description: String { "DropUntilOutput" }
    /// No children.
    @usableFromInline internal var customMirror: Mirror { Mirror(self, children: []) }
    /// "DropUntilOutput".
    @usableFromInline internal var playgroundDescription: Any { description }
}
