extension Publisher {
    /// Shares one subscription to upstream among all subscribers: `multicast` through a `PassthroughSubject`, with
    /// `autoconnect()`. The first subscriber connects; subscribers joining later miss what was already sent.
    @inlinable
    public func share() -> Publishers.Share<Self> {
        Publishers.Share(upstream: self)
    }
}

extension Publishers {
    /// A publisher that shares the output of an upstream publisher with multiple subscribers.
    ///
    /// A class, as in Combine, so copies share one subscription; two shares are equal only if they are the same object.
    public final class Share<Upstream: Publisher>: Publisher, Equatable {
        /// Upstream's output.
        public typealias Output = Upstream.Output
        /// Upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher being shared.
        public let upstream: Upstream

        private let inner: Autoconnect<Multicast<Upstream, PassthroughSubject<Output, Failure>>>

        /// Creates the operator; prefer `share()`.
        public init(upstream: Upstream) {
            self.upstream = upstream
            inner = Multicast(upstream: upstream) { PassthroughSubject() }.autoconnect()
        }

        /// Attaches the subscriber to the shared subject, connecting upstream for the first one.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            inner.receive(subscriber: subscriber)
        }

        /// Identity.
        public static func == (lhs: Share, rhs: Share) -> Bool {
            lhs === rhs
        }
    }
}
