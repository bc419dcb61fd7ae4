extension Publisher {
    /// The published values as an asynchronous throwing sequence: `for try await value in publisher.values { … }`;
    /// a failure is thrown from the loop.
    ///
    /// Each iteration requests one value; cancelling the iterating task cancels the subscription and ends the loop.
    @inlinable
    public var values: AsyncThrowingPublisher<Self> {
        AsyncThrowingPublisher(self)
    }
}

/// An asynchronous sequence of a publisher's values that throws the publisher's failure, requesting one value per
/// `next()`.
///
/// Each iterator subscribes once, when it is made. The sequence ends when the publisher finishes, after throwing its
/// failure, when the iterating task is cancelled, or when the iterator is dropped, which cancels the subscription.
public struct AsyncThrowingPublisher<P: Publisher>: AsyncSequence {
    /// The publisher's output.
    public typealias Element = P.Output
    /// Errors are thrown untyped, as with Combine's `AsyncThrowingPublisher`.
    public typealias Failure = any Error

    @usableFromInline
    internal let publisher: P

    /// Creates a sequence over `publisher`'s values.
    @inlinable
    public init(_ publisher: P) {
        self.publisher = publisher
    }

    /// Subscribes to the publisher and returns the iterator that pulls from that subscription.
    @inlinable
    public func makeAsyncIterator() -> Iterator {
        Iterator(publisher)
    }

    /// Pulls values from one subscription.
    public struct Iterator: AsyncIteratorProtocol {
        /// The publisher's output.
        public typealias Element = P.Output
        /// Errors are thrown untyped.
        public typealias Failure = any Error

        @usableFromInline
        internal let lifetime: AsyncValuesLifetime<P.Output, P.Failure>

        @inlinable
        internal init(_ publisher: P) {
            let subscriber = AsyncValuesSubscriber<P.Output, P.Failure>()
            lifetime = AsyncValuesLifetime(subscriber)
            publisher.subscribe(subscriber)
        }

        /// The next value; nil once the publisher finished or the task was cancelled; throws the publisher's failure.
        @inlinable
        public mutating func next() async throws -> P.Output? {
            try await next(isolation: nil)
        }

        /// The next value, awaited without leaving the caller's actor.
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> P.Output? {
            switch await lifetime.subscriber.next(isolation: actor) {
            case .value(let value): return value
            case .finished: return nil
            case .failure(let error): throw error
            }
        }
    }
}
