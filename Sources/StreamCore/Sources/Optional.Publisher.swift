extension Optional {
    /// A publisher that emits the wrapped value once, or finishes at once when there is none.
    public var publisher: Optional<Wrapped>.Publisher {
        Optional<Wrapped>.Publisher(self)
    }

    /// A publisher that publishes an optional value to each subscriber exactly once, if the optional has a value.
    @frozen
    public struct Publisher: StreamCore.Publisher {
        /// The wrapped type.
        public typealias Output = Wrapped
        /// Never fails.
        public typealias Failure = Never

        /// The result to deliver to each subscriber.
        public let output: Wrapped?

        /// Creates a publisher to emit the value of the optional, or to finish immediately if it is `nil`.
        @inlinable
        public init(_ output: Output?) {
            self.output = output
        }

        /// Sends the value once demand arrives, then finishes; with no value, finishes without waiting for demand.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            if let output {
                let subscription = JustSubscription(output, subscriber)
                subscription.kind = .optional
                subscriber.receive(subscription: subscription)
            } else {
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .finished)
            }
        }
    }
}

extension Optional.Publisher: Equatable where Wrapped: Equatable {}
