// Publishers.Merge … Merge8: the fixed-arity merges. They share the fan-in engine with MergeMany and flatMap
// (Internal/FanIn.swift): values are interleaved in arrival order, the merge finishes when every upstream has
// finished, and fails (cancelling the others) at the first failure.

extension Publisher {
    /// Combines elements from this publisher and 1 other with the same types, delivering an interleaved sequence.
    @inlinable
    public func merge<B>(with b: B) -> Publishers.Merge<Self, B>
    where B: Publisher, Failure == B.Failure, Output == B.Output {
        Publishers.Merge(self, b)
    }
}

extension Publisher {
    /// Combines elements from this publisher and 2 others with the same types, delivering an interleaved sequence.
    @inlinable
    public func merge<B, C>(with b: B, _ c: C) -> Publishers.Merge3<Self, B, C>
    where B: Publisher, C: Publisher, Failure == B.Failure, Output == B.Output, Failure == C.Failure, Output == C.Output
    {
        Publishers.Merge3(self, b, c)
    }
}

extension Publisher {
    /// Combines elements from this publisher and 3 others with the same types, delivering an interleaved sequence.
    @inlinable
    public func merge<B, C, D>(with b: B, _ c: C, _ d: D) -> Publishers.Merge4<Self, B, C, D>
    where
        B: Publisher, C: Publisher, D: Publisher, Failure == B.Failure, Output == B.Output, Failure == C.Failure,
        Output == C.Output, Failure == D.Failure, Output == D.Output
    {
        Publishers.Merge4(self, b, c, d)
    }
}

extension Publisher {
    /// Combines elements from this publisher and 4 others with the same types, delivering an interleaved sequence.
    @inlinable
    public func merge<B, C, D, E>(with b: B, _ c: C, _ d: D, _ e: E) -> Publishers.Merge5<Self, B, C, D, E>
    where
        B: Publisher, C: Publisher, D: Publisher, E: Publisher, Failure == B.Failure, Output == B.Output,
        Failure == C.Failure, Output == C.Output, Failure == D.Failure, Output == D.Output, Failure == E.Failure,
        Output == E.Output
    {
        Publishers.Merge5(self, b, c, d, e)
    }
}

extension Publisher {
    /// Combines elements from this publisher and 5 others with the same types, delivering an interleaved sequence.
    @inlinable
    public func merge<B, C, D, E, F>(with b: B, _ c: C, _ d: D, _ e: E, _ f: F)
        -> Publishers.Merge6<Self, B, C, D, E, F>
    where
        B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, Failure == B.Failure, Output == B.Output,
        Failure == C.Failure, Output == C.Output, Failure == D.Failure, Output == D.Output, Failure == E.Failure,
        Output == E.Output, Failure == F.Failure, Output == F.Output
    {
        Publishers.Merge6(self, b, c, d, e, f)
    }
}

extension Publisher {
    /// Combines elements from this publisher and 6 others with the same types, delivering an interleaved sequence.
    @inlinable
    public func merge<B, C, D, E, F, G>(with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G)
        -> Publishers.Merge7<Self, B, C, D, E, F, G>
    where
        B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, Failure == B.Failure,
        Output == B.Output, Failure == C.Failure, Output == C.Output, Failure == D.Failure, Output == D.Output,
        Failure == E.Failure, Output == E.Output, Failure == F.Failure, Output == F.Output, Failure == G.Failure,
        Output == G.Output
    {
        Publishers.Merge7(self, b, c, d, e, f, g)
    }
}

extension Publisher {
    /// Combines elements from this publisher and 7 others with the same types, delivering an interleaved sequence.
    @inlinable
    public func merge<B, C, D, E, F, G, H>(with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H)
        -> Publishers.Merge8<Self, B, C, D, E, F, G, H>
    where
        B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher,
        Failure == B.Failure, Output == B.Output, Failure == C.Failure, Output == C.Output, Failure == D.Failure,
        Output == D.Output, Failure == E.Failure, Output == E.Output, Failure == F.Failure, Output == F.Output,
        Failure == G.Failure, Output == G.Output, Failure == H.Failure, Output == H.Output
    {
        Publishers.Merge8(self, b, c, d, e, f, g, h)
    }
}

extension Publishers {
    /// A publisher created by applying the merge function to two upstream publishers.
    public struct Merge<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure, A.Output == B.Output {
        /// The upstreams' shared output.
        public typealias Output = A.Output
        /// The upstreams' shared failure.
        public typealias Failure = A.Failure

        /// Upstream publisher 1 of 2.
        public let a: A
        /// Upstream publisher 2 of 2.
        public let b: B

        /// Creates a merge of the given publishers.
        @inlinable
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Subscribes downstream first, then each upstream in order.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let storage = FanInStorage(downstream: subscriber, maxPublishers: .unlimited, name: "Merge")
            subscriber.receive(subscription: storage)
            storage.subscribeChild(a)
            storage.subscribeChild(b)
            storage.sealChildren()
        }

        /// Adds one more publisher to the merge.
        @inlinable
        public func merge<C: Publisher>(with other: C) -> Publishers.Merge3<A, B, C>
        where C.Failure == Failure, C.Output == Output {
            Publishers.Merge3(a, b, other)
        }

    }
}

extension Publishers.Merge: Equatable where A: Equatable, B: Equatable {}

extension Publishers {
    /// A publisher created by applying the merge function to three upstream publishers.
    public struct Merge3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Failure == B.Failure, A.Output == B.Output, A.Failure == C.Failure, A.Output == C.Output {
        /// The upstreams' shared output.
        public typealias Output = A.Output
        /// The upstreams' shared failure.
        public typealias Failure = A.Failure

        /// Upstream publisher 1 of 3.
        public let a: A
        /// Upstream publisher 2 of 3.
        public let b: B
        /// Upstream publisher 3 of 3.
        public let c: C

        /// Creates a merge of the given publishers.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        /// Subscribes downstream first, then each upstream in order.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let storage = FanInStorage(downstream: subscriber, maxPublishers: .unlimited, name: "Merge3")
            subscriber.receive(subscription: storage)
            storage.subscribeChild(a)
            storage.subscribeChild(b)
            storage.subscribeChild(c)
            storage.sealChildren()
        }

        /// Adds one more publisher to the merge.
        @inlinable
        public func merge<D: Publisher>(with other: D) -> Publishers.Merge4<A, B, C, D>
        where D.Failure == Failure, D.Output == Output {
            Publishers.Merge4(a, b, c, other)
        }

    }
}

extension Publishers.Merge3: Equatable where A: Equatable, B: Equatable, C: Equatable {}

extension Publishers {
    /// A publisher created by applying the merge function to four upstream publishers.
    public struct Merge4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
    where
        A.Failure == B.Failure, A.Output == B.Output, A.Failure == C.Failure, A.Output == C.Output,
        A.Failure == D.Failure, A.Output == D.Output
    {
        /// The upstreams' shared output.
        public typealias Output = A.Output
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

        /// Creates a merge of the given publishers.
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
            let storage = FanInStorage(downstream: subscriber, maxPublishers: .unlimited, name: "Merge4")
            subscriber.receive(subscription: storage)
            storage.subscribeChild(a)
            storage.subscribeChild(b)
            storage.subscribeChild(c)
            storage.subscribeChild(d)
            storage.sealChildren()
        }

        /// Adds one more publisher to the merge.
        @inlinable
        public func merge<E: Publisher>(with other: E) -> Publishers.Merge5<A, B, C, D, E>
        where E.Failure == Failure, E.Output == Output {
            Publishers.Merge5(a, b, c, d, other)
        }

    }
}

extension Publishers.Merge4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}

extension Publishers {
    /// A publisher created by applying the merge function to five upstream publishers.
    public struct Merge5<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher>: Publisher
    where
        A.Failure == B.Failure, A.Output == B.Output, A.Failure == C.Failure, A.Output == C.Output,
        A.Failure == D.Failure, A.Output == D.Output, A.Failure == E.Failure, A.Output == E.Output
    {
        /// The upstreams' shared output.
        public typealias Output = A.Output
        /// The upstreams' shared failure.
        public typealias Failure = A.Failure

        /// Upstream publisher 1 of 5.
        public let a: A
        /// Upstream publisher 2 of 5.
        public let b: B
        /// Upstream publisher 3 of 5.
        public let c: C
        /// Upstream publisher 4 of 5.
        public let d: D
        /// Upstream publisher 5 of 5.
        public let e: E

        /// Creates a merge of the given publishers.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
        }

        /// Subscribes downstream first, then each upstream in order.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let storage = FanInStorage(downstream: subscriber, maxPublishers: .unlimited, name: "Merge5")
            subscriber.receive(subscription: storage)
            storage.subscribeChild(a)
            storage.subscribeChild(b)
            storage.subscribeChild(c)
            storage.subscribeChild(d)
            storage.subscribeChild(e)
            storage.sealChildren()
        }

        /// Adds one more publisher to the merge.
        @inlinable
        public func merge<F: Publisher>(with other: F) -> Publishers.Merge6<A, B, C, D, E, F>
        where F.Failure == Failure, F.Output == Output {
            Publishers.Merge6(a, b, c, d, e, other)
        }

    }
}

extension Publishers.Merge5: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable {}

extension Publishers {
    /// A publisher created by applying the merge function to six upstream publishers.
    public struct Merge6<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher>: Publisher
    where
        A.Failure == B.Failure, A.Output == B.Output, A.Failure == C.Failure, A.Output == C.Output,
        A.Failure == D.Failure, A.Output == D.Output, A.Failure == E.Failure, A.Output == E.Output,
        A.Failure == F.Failure, A.Output == F.Output
    {
        /// The upstreams' shared output.
        public typealias Output = A.Output
        /// The upstreams' shared failure.
        public typealias Failure = A.Failure

        /// Upstream publisher 1 of 6.
        public let a: A
        /// Upstream publisher 2 of 6.
        public let b: B
        /// Upstream publisher 3 of 6.
        public let c: C
        /// Upstream publisher 4 of 6.
        public let d: D
        /// Upstream publisher 5 of 6.
        public let e: E
        /// Upstream publisher 6 of 6.
        public let f: F

        /// Creates a merge of the given publishers.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
        }

        /// Subscribes downstream first, then each upstream in order.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let storage = FanInStorage(downstream: subscriber, maxPublishers: .unlimited, name: "Merge6")
            subscriber.receive(subscription: storage)
            storage.subscribeChild(a)
            storage.subscribeChild(b)
            storage.subscribeChild(c)
            storage.subscribeChild(d)
            storage.subscribeChild(e)
            storage.subscribeChild(f)
            storage.sealChildren()
        }

        /// Adds one more publisher to the merge.
        @inlinable
        public func merge<G: Publisher>(with other: G) -> Publishers.Merge7<A, B, C, D, E, F, G>
        where G.Failure == Failure, G.Output == Output {
            Publishers.Merge7(a, b, c, d, e, f, other)
        }

    }
}

extension Publishers.Merge6: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable {}

extension Publishers {
    /// A publisher created by applying the merge function to seven upstream publishers.
    public struct Merge7<
        A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher
    >: Publisher
    where
        A.Failure == B.Failure, A.Output == B.Output, A.Failure == C.Failure, A.Output == C.Output,
        A.Failure == D.Failure, A.Output == D.Output, A.Failure == E.Failure, A.Output == E.Output,
        A.Failure == F.Failure, A.Output == F.Output, A.Failure == G.Failure, A.Output == G.Output
    {
        /// The upstreams' shared output.
        public typealias Output = A.Output
        /// The upstreams' shared failure.
        public typealias Failure = A.Failure

        /// Upstream publisher 1 of 7.
        public let a: A
        /// Upstream publisher 2 of 7.
        public let b: B
        /// Upstream publisher 3 of 7.
        public let c: C
        /// Upstream publisher 4 of 7.
        public let d: D
        /// Upstream publisher 5 of 7.
        public let e: E
        /// Upstream publisher 6 of 7.
        public let f: F
        /// Upstream publisher 7 of 7.
        public let g: G

        /// Creates a merge of the given publishers.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
            self.g = g
        }

        /// Subscribes downstream first, then each upstream in order.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let storage = FanInStorage(downstream: subscriber, maxPublishers: .unlimited, name: "Merge7")
            subscriber.receive(subscription: storage)
            storage.subscribeChild(a)
            storage.subscribeChild(b)
            storage.subscribeChild(c)
            storage.subscribeChild(d)
            storage.subscribeChild(e)
            storage.subscribeChild(f)
            storage.subscribeChild(g)
            storage.sealChildren()
        }

        /// Adds one more publisher to the merge.
        @inlinable
        public func merge<H: Publisher>(with other: H) -> Publishers.Merge8<A, B, C, D, E, F, G, H>
        where H.Failure == Failure, H.Output == Output {
            Publishers.Merge8(a, b, c, d, e, f, g, other)
        }

    }
}

extension Publishers.Merge7: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable {}

extension Publishers {
    /// A publisher created by applying the merge function to eight upstream publishers.
    public struct Merge8<
        A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher
    >: Publisher
    where
        A.Failure == B.Failure, A.Output == B.Output, A.Failure == C.Failure, A.Output == C.Output,
        A.Failure == D.Failure, A.Output == D.Output, A.Failure == E.Failure, A.Output == E.Output,
        A.Failure == F.Failure, A.Output == F.Output, A.Failure == G.Failure, A.Output == G.Output,
        A.Failure == H.Failure, A.Output == H.Output
    {
        /// The upstreams' shared output.
        public typealias Output = A.Output
        /// The upstreams' shared failure.
        public typealias Failure = A.Failure

        /// Upstream publisher 1 of 8.
        public let a: A
        /// Upstream publisher 2 of 8.
        public let b: B
        /// Upstream publisher 3 of 8.
        public let c: C
        /// Upstream publisher 4 of 8.
        public let d: D
        /// Upstream publisher 5 of 8.
        public let e: E
        /// Upstream publisher 6 of 8.
        public let f: F
        /// Upstream publisher 7 of 8.
        public let g: G
        /// Upstream publisher 8 of 8.
        public let h: H

        /// Creates a merge of the given publishers.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
            self.g = g
            self.h = h
        }

        /// Subscribes downstream first, then each upstream in order.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let storage = FanInStorage(downstream: subscriber, maxPublishers: .unlimited, name: "Merge8")
            subscriber.receive(subscription: storage)
            storage.subscribeChild(a)
            storage.subscribeChild(b)
            storage.subscribeChild(c)
            storage.subscribeChild(d)
            storage.subscribeChild(e)
            storage.subscribeChild(f)
            storage.subscribeChild(g)
            storage.subscribeChild(h)
            storage.sealChildren()
        }

    }
}

extension Publishers.Merge8: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable, H: Equatable {}
