extension Result {
    /// A publisher that emits the success value once, or fails with the failure.
    public var publisher: Result<Success, Failure>.Publisher {
        Result<Success, Failure>.Publisher(self)
    }

    /// A publisher that publishes an output to each subscriber exactly once then finishes, or fails immediately.
    @frozen
    public struct Publisher: StreamCore.Publisher {
        /// The success type.
        public typealias Output = Success

        /// The result to deliver to each subscriber.
        public let result: Result<Output, Failure>

        /// Creates a publisher that delivers the specified result.
        @inlinable
        public init(_ result: Result<Output, Failure>) {
            self.result = result
        }

        /// Creates a publisher that sends the specified output to each subscriber once, then finishes.
        @inlinable
        public init(_ output: Output) {
            result = .success(output)
        }

        /// Creates a publisher that immediately fails with the specified error.
        @inlinable
        public init(_ failure: Failure) {
            result = .failure(failure)
        }

        /// Sends the value once demand arrives, then finishes; a failure is sent without waiting for demand.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            switch result {
            case .success(let output):
                let subscription = JustSubscription(output, subscriber)
                subscription.kind = .result
                subscriber.receive(subscription: subscription)
            case .failure(let error):
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .failure(error))
            }
        }
    }
}

extension Result.Publisher: Equatable where Success: Equatable, Failure: Equatable {}
