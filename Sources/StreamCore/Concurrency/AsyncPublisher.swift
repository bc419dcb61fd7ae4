extension Publisher where Failure == Never {
    /// The published values as an asynchronous sequence: `for await value in publisher.values { … }`.
    ///
    /// Each iteration requests one value; cancelling the iterating task cancels the subscription and ends the loop.
    @inlinable
    public var values: AsyncPublisher<Self> {
        AsyncPublisher(self)
    }
}

/// An asynchronous sequence of a non-failing publisher's values, requesting one value per `next()`.
///
/// Each iterator subscribes once, when it is made. The sequence ends when the publisher finishes, when the iterating
/// task is cancelled, or when the iterator is dropped (a `break`), which cancels the subscription.
public struct AsyncPublisher<P: Publisher>: AsyncSequence where P.Failure == Never {
    /// The publisher's output.
    public typealias Element = P.Output
    /// Iterating never throws.
    public typealias Failure = Never

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
        /// Iterating never throws.
        public typealias Failure = Never

        @usableFromInline
        internal let lifetime: AsyncValuesLifetime<P.Output, Never>

        @inlinable
        internal init(_ publisher: P) {
            let subscriber = AsyncValuesSubscriber<P.Output, Never>()
            lifetime = AsyncValuesLifetime(subscriber)
            publisher.subscribe(subscriber)
        }

        /// The next value, or nil once the publisher finished or the task was cancelled.
        @inlinable
        public mutating func next() async -> P.Output? {
            await next(isolation: nil)
        }

        /// The next value, awaited without leaving the caller's actor.
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async -> P.Output? {
            switch await lifetime.subscriber.next(isolation: actor) {
            case .value(let value): return value
            case .finished, .failure: return nil
            }
        }
    }
}
