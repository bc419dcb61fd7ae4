// Publishers.CombineLatest, CombineLatest3 and CombineLatest4 share one core (Internal/Combining.swift):
// a storage generic over a parameter pack of the upstreams' outputs; each type only declares and attaches upstreams.

extension Publisher {
    /// Subscribes to additional publishers and publishes a tuple upon receiving output from any of them, once each has published at least one value.
    @inlinable
    public func combineLatest<P>(_ p: P) -> Publishers.CombineLatest<Self, P>
    where P: Publisher, Failure == P.Failure {
        Publishers.CombineLatest(self, p)
    }

    /// As `combineLatest` with 1 other, then transforms each tuple with `transform`.
    @inlinable
    public func combineLatest<P, T>(_ p: P, _ transform: @escaping (Output, P.Output) -> T)
        -> Publishers.Map<Publishers.CombineLatest<Self, P>, T>
    where P: Publisher, Failure == P.Failure {
        Publishers.Map(upstream: Publishers.CombineLatest(self, p)) { transform($0.0, $0.1) }
    }

    /// Subscribes to additional publishers and publishes a tuple upon receiving output from any of them, once each has published at least one value.
    @inlinable
    public func combineLatest<P, Q>(_ p: P, _ q: Q) -> Publishers.CombineLatest3<Self, P, Q>
    where P: Publisher, Q: Publisher, Failure == P.Failure, Failure == Q.Failure {
        Publishers.CombineLatest3(self, p, q)
    }

    /// As `combineLatest` with 2 others, then transforms each tuple with `transform`.
    @inlinable
    public func combineLatest<P, Q, T>(_ p: P, _ q: Q, _ transform: @escaping (Output, P.Output, Q.Output) -> T)
        -> Publishers.Map<Publishers.CombineLatest3<Self, P, Q>, T>
    where P: Publisher, Q: Publisher, Failure == P.Failure, Failure == Q.Failure {
        Publishers.Map(upstream: Publishers.CombineLatest3(self, p, q)) { transform($0.0, $0.1, $0.2) }
    }

    /// Subscribes to additional publishers and publishes a tuple upon receiving output from any of them, once each has published at least one value.
    @inlinable
    public func combineLatest<P, Q, R>(_ p: P, _ q: Q, _ r: R) -> Publishers.CombineLatest4<Self, P, Q, R>
    where P: Publisher, Q: Publisher, R: Publisher, Failure == P.Failure, Failure == Q.Failure, Failure == R.Failure {
        Publishers.CombineLatest4(self, p, q, r)
    }

    /// As `combineLatest` with 3 others, then transforms each tuple with `transform`.
    @inlinable
    public func combineLatest<P, Q, R, T>(
        _ p: P, _ q: Q, _ r: R, _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
    )
        -> Publishers.Map<Publishers.CombineLatest4<Self, P, Q, R>, T>
    where P: Publisher, Q: Publisher, R: Publisher, Failure == P.Failure, Failure == Q.Failure, Failure == R.Failure {
        Publishers.Map(upstream: Publishers.CombineLatest4(self, p, q, r)) { transform($0.0, $0.1, $0.2, $0.3) }
    }

}

extension Publishers {
    /// A publisher that receives and combines the latest elements from two publishers.
    ///
    /// Finishes when every upstream has finished and fails at the first failure. Downstream demand is forwarded to
    /// every upstream; a combination made while downstream has no demand is dropped, as in Combine: the next one
    /// comes with the next upstream value.
    public struct CombineLatest<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
        /// One element from each upstream.
        public typealias Output = (A.Output, B.Output)
        /// The upstreams' shared failure.
        public typealias Failure = A.Failure

        /// Upstream publisher 1 of 2.
        public let a: A
        /// Upstream publisher 2 of 2.
        public let b: B

        /// Creates the operator; prefer `combineLatest(_:)`.
        @inlinable
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Subscribes downstream first, then each upstream in order.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let storage = CombiningStorage<S, A.Output, B.Output>.start(subscriber, zip: false, name: "CombineLatest")
            storage.attach(a, to: storage.slots.0)
            storage.attach(b, to: storage.slots.1)
        }
    }
}

extension Publishers.CombineLatest: Equatable where A: Equatable, B: Equatable {}

extension Publishers {
    /// A publisher that receives and combines the latest elements from three publishers.
    ///
    /// Finishes when every upstream has finished and fails at the first failure. Downstream demand is forwarded to
    /// every upstream; a combination made while downstream has no demand is dropped, as in Combine: the next one
    /// comes with the next upstream value.
    public struct CombineLatest3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Failure == B.Failure, A.Failure == C.Failure {
        /// One element from each upstream.
        public typealias Output = (A.Output, B.Output, C.Output)
        /// The upstreams' shared failure.
        public typealias Failure = A.Failure

        /// Upstream publisher 1 of 3.
        public let a: A
        /// Upstream publisher 2 of 3.
        public let b: B
        /// Upstream publisher 3 of 3.
        public let c: C

        /// Creates the operator; prefer `combineLatest(_:)`.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        /// Subscribes downstream first, then each upstream in order.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let storage = CombiningStorage<S, A.Output, B.Output, C.Output>.start(
                subscriber, zip: false, name: "CombineLatest")
            storage.attach(a, to: storage.slots.0)
            storage.attach(b, to: storage.slots.1)
            storage.attach(c, to: storage.slots.2)
        }
    }
}

extension Publishers.CombineLatest3: Equatable where A: Equatable, B: Equatable, C: Equatable {}

extension Publishers {
    /// A publisher that receives and combines the latest elements from four publishers.
    ///
    /// Finishes when every upstream has finished and fails at the first failure. Downstream demand is forwarded to
    /// every upstream; a combination made while downstream has no demand is dropped, as in Combine: the next one
    /// comes with the next upstream value.
    public struct CombineLatest4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
    where A.Failure == B.Failure, A.Failure == C.Failure, A.Failure == D.Failure {
        /// One element from each upstream.
        public typealias Output = (A.Output, B.Output, C.Output, D.Output)
        /// The upstreams' shared failure.
        public typealias Failure = A.Failure

        /// Upstream publisher 1 of 4.
        public let a: A
        /// Upstream publisher 2 of 4.
        public let b: B
        /// Upstream publisher 3 of 4.
        public let c: C
        /// Upstream publisher 4 of 4.
        public let d: D

        /// Creates the operator; prefer `combineLatest(_:)`.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
        }

        /// Subscribes downstream first, then each upstream in order.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let storage = CombiningStorage<S, A.Output, B.Output, C.Output, D.Output>.start(
                subscriber, zip: false, name: "CombineLatest")
            storage.attach(a, to: storage.slots.0)
            storage.attach(b, to: storage.slots.1)
            storage.attach(c, to: storage.slots.2)
            storage.attach(d, to: storage.slots.3)
        }
    }
}

extension Publishers.CombineLatest4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}
