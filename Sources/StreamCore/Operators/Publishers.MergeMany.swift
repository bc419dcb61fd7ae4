extension Publishers.MergeMany {
    /// Adds one more publisher of the same type to the merge.
    @inlinable
    public func merge(with other: Upstream) -> Publishers.MergeMany<Upstream> {
        Publishers.MergeMany(publishers + [other])
    }
}

extension Publishers {
    /// A publisher created by applying the merge function to an arbitrary number of upstream publishers of one type.
    ///
    /// Values are interleaved in arrival order; it finishes when every upstream has finished (at once when there are
    /// none) and fails, cancelling the others, at the first failure.
    public struct MergeMany<Upstream: Publisher>: Publisher {
        /// The upstreams' output.
        public typealias Output = Upstream.Output
        /// The upstreams' failure.
        public typealias Failure = Upstream.Failure

        /// The merged publishers, subscribed in this order.
        public let publishers: [Upstream]

        /// Merges the given publishers.
        @inlinable
        public init(_ upstream: Upstream...) {
            publishers = upstream
        }

        /// Merges the publishers of a sequence.
        @inlinable
        public init<S: Swift.Sequence>(_ upstream: S) where S.Element == Upstream {
            publishers = Array(upstream)
        }

        /// Subscribes downstream first, then each upstream in order.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let storage = FanInStorage(downstream: subscriber, maxPublishers: .unlimited, name: "MergeMany")
            subscriber.receive(subscription: storage)
            for publisher in publishers {
                storage.subscribeChild(publisher)
            }
            storage.sealChildren()
        }
    }
}

extension Publishers.MergeMany: Equatable where Upstream: Equatable {}
