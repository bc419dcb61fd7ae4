extension Publisher {
    /// Converts any failure from the upstream publisher into a new error.
    public func mapError<E: Error>(_ transform: @escaping (Failure) -> E) -> Publishers.MapError<Self, E> {
        Publishers.MapError(upstream: self, transform: transform)
    }
}

extension Publishers {
    /// A publisher that converts any failure from the upstream publisher into a new error.
    ///
    /// It adds no subscription of its own: the upstream subscription goes straight downstream, so demand and
    /// cancellation reach upstream unchanged.
    public struct MapError<Upstream: Publisher, Failure: Error>: Publisher {
        /// The upstream's element type.
        public typealias Output = Upstream.Output

        /// The publisher this publisher receives elements from.
        public let upstream: Upstream
        /// Converts the upstream's failure.
        public let transform: (Upstream.Failure) -> Failure

        /// Creates a publisher that converts `upstream`'s failure with `transform`.
        public init(upstream: Upstream, transform: @escaping (Upstream.Failure) -> Failure) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Creates a publisher that converts `upstream`'s failure with `map`.
        public init(upstream: Upstream, _ map: @escaping (Upstream.Failure) -> Failure) {
            self.init(upstream: upstream, transform: map)
        }

        /// Attaches the subscriber behind an error-converting forwarder.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, transform: transform))
        }
    }
}

extension Publishers.MapError {
    fileprivate struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Failure {
        typealias Input = Upstream.Output

        let downstream: Downstream
        let transform: (Upstream.Failure) -> Failure
        let combineIdentifier = CombineIdentifier()

        var description: String { "MapError" }

        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            downstream.receive(input)
        }

        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            switch completion {
            case .finished:
                downstream.receive(completion: .finished)
            case .failure(let error):
                downstream.receive(completion: .failure(transform(error)))
            }
        }
    }
}

extension Publishers.MapError.Inner: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// No children, as in Combine.
    var customMirror: Mirror { Mirror(self, children: []) }

    /// "MapError".
    var playgroundDescription: Any { description }
}
