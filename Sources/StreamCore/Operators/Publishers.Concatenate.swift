extension Publisher {
    /// Appends the elements of another publisher after this one finishes.
    @inlinable
    public func append<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<Self, P>
    where P.Output == Output, P.Failure == Failure {
        Publishers.Concatenate(prefix: self, suffix: publisher)
    }

    /// Prefixes this publisher's elements with the elements of another publisher.
    @inlinable
    public func prepend<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<P, Self>
    where P.Output == Output, P.Failure == Failure {
        Publishers.Concatenate(prefix: publisher, suffix: self)
    }

    /// Appends the given elements after this publisher finishes.
    @inlinable
    public func append(_ elements: Output...) -> Publishers.Concatenate<Self, Publishers.Sequence<[Output], Failure>> {
        append(Publishers.Sequence(sequence: elements))
    }

    /// Appends the elements of a sequence after this publisher finishes.
    @inlinable
    public func append<S: Swift.Sequence>(_ elements: S)
        -> Publishers.Concatenate<Self, Publishers.Sequence<S, Failure>>
    where Output == S.Element {
        append(Publishers.Sequence(sequence: elements))
    }

    /// Prefixes this publisher's elements with the given elements.
    @inlinable
    public func prepend(_ elements: Output...) -> Publishers.Concatenate<Publishers.Sequence<[Output], Failure>, Self> {
        prepend(Publishers.Sequence(sequence: elements))
    }

    /// Prefixes this publisher's elements with the elements of a sequence.
    @inlinable
    public func prepend<S: Swift.Sequence>(_ elements: S)
        -> Publishers.Concatenate<Publishers.Sequence<S, Failure>, Self>
    where Output == S.Element {
        prepend(Publishers.Sequence(sequence: elements))
    }
}

extension Publishers {
    /// A publisher that emits all of one publisher's elements before those of another publisher.
    public struct Concatenate<Prefix: Publisher, Suffix: Publisher>: Publisher
    where Prefix.Failure == Suffix.Failure, Prefix.Output == Suffix.Output {
        /// The shared output.
        public typealias Output = Suffix.Output
        /// The shared failure.
        public typealias Failure = Suffix.Failure

        /// The publisher to republish first.
        public let prefix: Prefix
        /// The publisher to republish once the prefix finishes.
        public let suffix: Suffix

        /// Creates the operator; prefer `append(_:)` or `prepend(_:)`.
        @inlinable
        public init(prefix: Prefix, suffix: Suffix) {
            self.prefix = prefix
            self.suffix = suffix
        }

        /// Subscribes to the prefix; when it finishes, to the suffix with the demand still owed. A prefix failure
        /// ends the stream without subscribing to the suffix. Combine's rules: see `ConcatenatePolicy`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let storage = HandoverStorage(downstream: subscriber, policy: ConcatenatePolicy<Suffix, S>(suffix: suffix))
            prefix.subscribe(HandoverFirstInput<ConcatenatePolicy<Suffix, S>, Failure>(storage: storage))
        }
    }
}

/// append and prepend (`Publishers.Concatenate`) on the handover core, following Combine's recorded behaviour.
///
/// The downstream gets the subscription once the prefix's has arrived; events before it are ignored. Values are
/// counted against the downstream's demand, and one beyond it is dropped (a reentrant upstream cannot overrun the
/// downstream). When the prefix finishes, the suffix is subscribed and asked for whatever is still owed; the suffix
/// publisher is held until then, or until a failure or a cancel releases it.
internal struct ConcatenatePolicy<Suffix: Publisher, Downstream: Subscriber>: HandoverPolicy
where Suffix.Output == Downstream.Input, Suffix.Failure == Downstream.Failure {
    private var suffix: Suffix?

    init(suffix: Suffix) {
        self.suffix = suffix
    }

    var name: String { "Concatenate" }

    var rules: HandoverRules {
        HandoverRules(
            handsOverOnFailure: false, handovers: 1, trapsOnEarlyValue: false, firstSurplus: .drop,
            laterSurplus: .drop)
    }

    var mirrorsDemand: Bool { false }

    mutating func takeNext() -> Suffix? {
        defer { suffix = nil }
        return suffix
    }

    mutating func release() {
        suffix = nil
    }

    static func subscribe(
        _ next: Suffix?, to storage: HandoverStorage<Self>, generation: Int, after failure: (any Error)?
    ) {
        next?.subscribe(HandoverLaterInput<Self, Suffix.Failure>(storage: storage, generation: generation))
    }
}

extension Publishers.Concatenate: Equatable where Prefix: Equatable, Suffix: Equatable {}
