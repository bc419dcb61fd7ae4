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
        /// ends the stream without subscribing to the suffix. Combine's rules: see `ConcatenateCore`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = ConcatenateCore(downstream: subscriber, suffix: suffix)
            prefix.subscribe(ConcatenatePrefixInput(core: core))
        }
    }
}

extension Publishers.Concatenate: Equatable where Prefix: Equatable, Suffix: Equatable {}
