extension Publisher {
    /// Publishes the value of a key path of each element.
    @inlinable
    public func map<T>(_ keyPath: KeyPath<Output, T>) -> Publishers.MapKeyPath<Self, T> {
        Publishers.MapKeyPath(upstream: self, keyPath: keyPath)
    }

    /// Publishes the values of two key paths of each element, as a tuple.
    @inlinable
    public func map<T0, T1>(
        _ keyPath0: KeyPath<Output, T0>,
        _ keyPath1: KeyPath<Output, T1>
    ) -> Publishers.MapKeyPath2<Self, T0, T1> {
        Publishers.MapKeyPath2(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1)
    }

    /// Publishes the values of three key paths of each element, as a tuple.
    @inlinable
    public func map<T0, T1, T2>(
        _ keyPath0: KeyPath<Output, T0>,
        _ keyPath1: KeyPath<Output, T1>,
        _ keyPath2: KeyPath<Output, T2>
    ) -> Publishers.MapKeyPath3<Self, T0, T1, T2> {
        Publishers.MapKeyPath3(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1, keyPath2: keyPath2)
    }
}

extension Publishers {
    /// A publisher that publishes the value of a key path.
    @frozen
    public struct MapKeyPath<Upstream: Publisher, Output>: Publisher {
        /// MapKeyPath fails exactly when its upstream does.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The key path of a property on the upstream's elements.
        public let keyPath: KeyPath<Upstream.Output, Output>

        /// Creates a publisher that publishes `keyPath` of each upstream element.
        @inlinable
        public init(upstream: Upstream, keyPath: KeyPath<Upstream.Output, Output>) {
            self.upstream = upstream
            self.keyPath = keyPath
        }

        /// Subscribes a projecting wrapper of `subscriber` to the upstream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let keyPath = self.keyPath
            upstream.subscribe(
                KeyPathMapSubscriber(downstream: subscriber, keyPaths: (keyPath, nil, nil)) { $0[keyPath: keyPath] })
        }
    }

    /// A publisher that publishes the values of two key paths as a tuple.
    @frozen
    public struct MapKeyPath2<Upstream: Publisher, Output0, Output1>: Publisher {
        /// A tuple of the two projected values.
        public typealias Output = (Output0, Output1)
        /// MapKeyPath2 fails exactly when its upstream does.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The key path of the first projected property.
        public let keyPath0: KeyPath<Upstream.Output, Output0>
        /// The key path of the second projected property.
        public let keyPath1: KeyPath<Upstream.Output, Output1>

        /// Creates a publisher that publishes both key paths of each upstream element.
        @inlinable
        public init(
            upstream: Upstream,
            keyPath0: KeyPath<Upstream.Output, Output0>,
            keyPath1: KeyPath<Upstream.Output, Output1>
        ) {
            self.upstream = upstream
            self.keyPath0 = keyPath0
            self.keyPath1 = keyPath1
        }

        /// Subscribes a projecting wrapper of `subscriber` to the upstream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let keyPath0 = self.keyPath0
            let keyPath1 = self.keyPath1
            upstream.subscribe(
                KeyPathMapSubscriber(downstream: subscriber, keyPaths: (keyPath0, keyPath1, nil)) {
                    ($0[keyPath: keyPath0], $0[keyPath: keyPath1])
                })
        }
    }

    /// A publisher that publishes the values of three key paths as a tuple.
    @frozen
    public struct MapKeyPath3<Upstream: Publisher, Output0, Output1, Output2>: Publisher {
        /// A tuple of the three projected values.
        public typealias Output = (Output0, Output1, Output2)
        /// MapKeyPath3 fails exactly when its upstream does.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The key path of the first projected property.
        public let keyPath0: KeyPath<Upstream.Output, Output0>
        /// The key path of the second projected property.
        public let keyPath1: KeyPath<Upstream.Output, Output1>
        /// The key path of the third projected property.
        public let keyPath2: KeyPath<Upstream.Output, Output2>

        /// Creates a publisher that publishes the three key paths of each upstream element.
        @inlinable
        public init(
            upstream: Upstream,
            keyPath0: KeyPath<Upstream.Output, Output0>,
            keyPath1: KeyPath<Upstream.Output, Output1>,
            keyPath2: KeyPath<Upstream.Output, Output2>
        ) {
            self.upstream = upstream
            self.keyPath0 = keyPath0
            self.keyPath1 = keyPath1
            self.keyPath2 = keyPath2
        }

        /// Subscribes a projecting wrapper of `subscriber` to the upstream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let keyPath0 = self.keyPath0
            let keyPath1 = self.keyPath1
            let keyPath2 = self.keyPath2
            upstream.subscribe(
                KeyPathMapSubscriber(downstream: subscriber, keyPaths: (keyPath0, keyPath1, keyPath2)) {
                    ($0[keyPath: keyPath0], $0[keyPath: keyPath1], $0[keyPath: keyPath2])
                })
        }
    }
}

/// The key-path maps' subscriber: a map that also keeps its key paths, for Combine's names ("ValueForKey",
/// "ValueForKeys") and mirror. The key paths are read only when a debugger or a `Mirror` asks.
@usableFromInline
internal struct KeyPathMapSubscriber<Input, Downstream: Subscriber>: Subscriber, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    @usableFromInline internal typealias Failure = Downstream.Failure

    @usableFromInline internal let downstream: Downstream
    @usableFromInline internal let keyPaths: (AnyKeyPath, AnyKeyPath?, AnyKeyPath?)
    @usableFromInline internal let transform: (Input) -> Downstream.Input
    @usableFromInline internal let combineIdentifier = CombineIdentifier()

    @inlinable
    internal init(
        downstream: Downstream,
        keyPaths: (AnyKeyPath, AnyKeyPath?, AnyKeyPath?),
        transform: @escaping (Input) -> Downstream.Input
    ) {
        self.downstream = downstream
        self.keyPaths = keyPaths
        self.transform = transform
    }

    /// "ValueForKey" for one key path, "ValueForKeys" for several, as in Combine.
    @usableFromInline
    internal var description: String { keyPaths.1 == nil ? "ValueForKey" : "ValueForKeys" }

    /// The key path ("keyPath"), or the key paths ("keyPath0", "keyPath1", …).
    @usableFromInline
    internal var customMirror: Mirror {
        guard let second = keyPaths.1 else { return Mirror(self, children: ["keyPath": keyPaths.0]) }
        var children: [(label: String?, value: Any)] = [("keyPath0", keyPaths.0), ("keyPath1", second)]
        if let third = keyPaths.2 { children.append(("keyPath2", third)) }
        return Mirror(self, children: children)
    }

    /// The description.
    @usableFromInline
    internal var playgroundDescription: Any { description }

    @inlinable
    internal func receive(subscription: any Subscription) {
        downstream.receive(subscription: subscription)
    }

    @inlinable
    internal func receive(_ input: Input) -> Subscribers.Demand {
        downstream.receive(transform(input))
    }

    @inlinable
    internal func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        downstream.receive(completion: completion)
    }
}
