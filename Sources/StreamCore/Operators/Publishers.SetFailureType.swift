extension Publisher where Failure == Never {
    /// Changes the failure type declared by the upstream publisher, which cannot fail.
    ///
    /// Only available where `Failure == Never`, as in Combine; the upstream subscription passes straight through.
    public func setFailureType<E: Error>(to failureType: E.Type) -> Publishers.SetFailureType<Self, E> {
        Publishers.SetFailureType(upstream: self)
    }
}

extension Publishers {
    /// A publisher that appears to send a specified failure type, although it never fails.
    public struct SetFailureType<Upstream: Publisher, Failure: Error>: Publisher where Upstream.Failure == Never {
        /// The upstream's element type.
        public typealias Output = Upstream.Output

        /// The publisher this publisher receives elements from.
        public let upstream: Upstream

        /// Creates a publisher that declares `Failure` for a `upstream` that cannot fail.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches the subscriber behind a forwarder that only retypes the completion.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber))
        }

        /// Changes the declared failure type again, without adding a layer.
        public func setFailureType<E: Error>(to failure: E.Type) -> Publishers.SetFailureType<Upstream, E> {
            Publishers.SetFailureType<Upstream, E>(upstream: upstream)
        }
    }
}

extension Publishers.SetFailureType: Equatable where Upstream: Equatable {}

extension Publishers.SetFailureType {
    fileprivate struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Failure {
        typealias Input = Upstream.Output

        let downstream: Downstream
        let combineIdentifier = CombineIdentifier()

        var description: String { "SetFailureType" }

        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            downstream.receive(input)
        }

        func receive(completion: Subscribers.Completion<Never>) {
            downstream.receive(completion: .finished)
        }
    }
}

extension Publishers.SetFailureType.Inner: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// No children, as in Combine.
    var customMirror: Mirror { Mirror(self, children: []) }

    /// "SetFailureType".
    var playgroundDescription: Any { description }
}
