// Publishers.Zip, Zip3 and Zip4 share one core (Internal/Combining.swift):
// a storage generic over a parameter pack of the upstreams' outputs; each type only declares and attaches upstreams.

extension Publisher {
    /// Combines elements from this publisher and others, delivering tuples of the n-th element of each.
    @inlinable
    public func zip<P>(_ p: P) -> Publishers.Zip<Self, P>
    where P: Publisher, Failure == P.Failure {
        Publishers.Zip(self, p)
    }

    /// As `zip` with 1 other, then transforms each tuple with `transform`.
    @inlinable
    public func zip<P, T>(_ p: P, _ transform: @escaping (Output, P.Output) -> T)
        -> Publishers.Map<Publishers.Zip<Self, P>, T>
    where P: Publisher, Failure == P.Failure {
        Publishers.Map(upstream: Publishers.Zip(self, p)) { transform($0.0, $0.1) }
    }

    /// Combines elements from this publisher and others, delivering tuples of the n-th element of each.
    @inlinable
    public func zip<P, Q>(_ p: P, _ q: Q) -> Publishers.Zip3<Self, P, Q>
    where P: Publisher, Q: Publisher, Failure == P.Failure, Failure == Q.Failure {
        Publishers.Zip3(self, p, q)
    }

    /// As `zip` with 2 others, then transforms each tuple with `transform`.
    @inlinable
    public func zip<P, Q, T>(_ p: P, _ q: Q, _ transform: @escaping (Output, P.Output, Q.Output) -> T)
        -> Publishers.Map<Publishers.Zip3<Self, P, Q>, T>
    where P: Publisher, Q: Publisher, Failure == P.Failure, Failure == Q.Failure {
        Publishers.Map(upstream: Publishers.Zip3(self, p, q)) { transform($0.0, $0.1, $0.2) }
    }

    /// Combines elements from this publisher and others, delivering tuples of the n-th element of each.
    @inlinable
    public func zip<P, Q, R>(_ p: P, _ q: Q, _ r: R) -> Publishers.Zip4<Self, P, Q, R>
    where P: Publisher, Q: Publisher, R: Publisher, Failure == P.Failure, Failure == Q.Failure, Failure == R.Failure {
        Publishers.Zip4(self, p, q, r)
    }

    /// As `zip` with 3 others, then transforms each tuple with `transform`.
    @inlinable
    public func zip<P, Q, R, T>(
        _ p: P, _ q: Q, _ r: R, _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
    )
        -> Publishers.Map<Publishers.Zip4<Self, P, Q, R>, T>
    where P: Publisher, Q: Publisher, R: Publisher, Failure == P.Failure, Failure == Q.Failure, Failure == R.Failure {
        Publishers.Map(upstream: Publishers.Zip4(self, p, q, r)) { transform($0.0, $0.1, $0.2, $0.3) }
    }

}

extension Publishers {
    /// A publisher created by applying the zip function to two upstream publishers.
    ///
    /// Finishes as soon as an upstream has finished with no value left to pair, cancelling the others; fails at the
    /// first failure. Downstream demand is forwarded to every upstream.
    public struct Zip<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
        /// One element from each upstream.
        public typealias Output = (A.Output, B.Output)
        /// The upstreams' shared failure.
        public typealias Failure = A.Failure

        /// Upstream publisher 1 of 2.
        public let a: A
        /// Upstream publisher 2 of 2.
        public let b: B

        /// Creates the operator; prefer `zip(_:)`.
        @inlinable
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Subscribes downstream first, then each upstream in order.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let storage = CombiningStorage<S, A.Output, B.Output>.start(subscriber, zip: true, name: "Zip")
            storage.attach(a, to: storage.slots.0)
            storage.attach(b, to: storage.slots.1)
        }
    }
}

extension Publishers.Zip: Equatable where A: Equatable, B: Equatable {}

extension Publishers {
    /// A publisher created by applying the zip function to three upstream publishers.
    ///
    /// Finishes as soon as an upstream has finished with no value left to pair, cancelling the others; fails at the
    /// first failure. Downstream demand is forwarded to every upstream.
    public struct Zip3<A: Publisher, B: Publisher, C: Publisher>: Publisher
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

        /// Creates the operator; prefer `zip(_:)`.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        /// Subscribes downstream first, then each upstream in order.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let storage = CombiningStorage<S, A.Output, B.Output, C.Output>.start(subscriber, zip: true, name: "Zip")
            storage.attach(a, to: storage.slots.0)
            storage.attach(b, to: storage.slots.1)
            storage.attach(c, to: storage.slots.2)
        }
    }
}

extension Publishers.Zip3: Equatable where A: Equatable, B: Equatable, C: Equatable {}

extension Publishers {
    /// A publisher created by applying the zip function to four upstream publishers.
    ///
    /// Finishes as soon as an upstream has finished with no value left to pair, cancelling the others; fails at the
    /// first failure. Downstream demand is forwarded to every upstream.
    public struct Zip4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
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

        /// Creates the operator; prefer `zip(_:)`.
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
                subscriber, zip: true, name: "Zip")
            storage.attach(a, to: storage.slots.0)
            storage.attach(b, to: storage.slots.1)
            storage.attach(c, to: storage.slots.2)
            storage.attach(d, to: storage.slots.3)
        }
    }
}

extension Publishers.Zip4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}
