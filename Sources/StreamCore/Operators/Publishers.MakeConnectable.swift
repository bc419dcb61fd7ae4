extension Publisher where Failure == Never {
    /// Wraps this publisher so that it only starts publishing when `connect()` is called.
    @inlinable
    public func makeConnectable() -> Publishers.MakeConnectable<Self> {
        Publishers.MakeConnectable(upstream: self)
    }
}

extension Publishers {
    /// A connectable publisher over an upstream that can't fail, shared through a `PassthroughSubject`.
    public struct MakeConnectable<Upstream: Publisher>: ConnectablePublisher {
        /// Upstream's output.
        public typealias Output = Upstream.Output
        /// Upstream's failure.
        public typealias Failure = Upstream.Failure

        private let inner: Multicast<Upstream, PassthroughSubject<Output, Failure>>

        /// Creates the operator; prefer `makeConnectable()`.
        public init(upstream: Upstream) {
            inner = Multicast(upstream: upstream) { PassthroughSubject() }
        }

        /// Attaches the subscriber; it sees what upstream sends once connected.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            inner.receive(subscriber: subscriber)
        }

        /// Subscribes to upstream; cancelling the result disconnects.
        public func connect() -> any Cancellable {
            inner.connect()
        }
    }
}
