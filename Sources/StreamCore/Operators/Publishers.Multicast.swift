extension Publisher {
    /// Shares upstream through a subject made on first use by `createSubject`: subscribers attach to the subject, and
    /// `connect()` subscribes the subject to upstream.
    @inlinable
    public func multicast<S: Subject>(_ createSubject: @escaping () -> S) -> Publishers.Multicast<Self, S>
    where S.Output == Output, S.Failure == Failure {
        Publishers.Multicast(upstream: self, createSubject: createSubject)
    }

    /// Shares upstream through `subject`: subscribers attach to it, and `connect()` subscribes it to upstream.
    @inlinable
    public func multicast<S: Subject>(subject: S) -> Publishers.Multicast<Self, S>
    where S.Output == Output, S.Failure == Failure {
        Publishers.Multicast(upstream: self) { subject }
    }
}

extension Publishers {
    /// A publisher that uses a subject to deliver elements to multiple subscribers.
    ///
    /// It is a class, as in Combine, so every copy shares one subject. The subject is created once, on the first
    /// subscription or connection.
    public final class Multicast<Upstream: Publisher, SubjectType: Subject>: ConnectablePublisher
    where Upstream.Output == SubjectType.Output, Upstream.Failure == SubjectType.Failure {
        /// Upstream's output.
        public typealias Output = Upstream.Output
        /// Upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher this operator shares.
        public let upstream: Upstream
        /// Makes the subject, once.
        public let createSubject: () -> SubjectType

        private let lock = Lock()
        private var madeSubject: SubjectType?

        /// Creates the operator; prefer `multicast(_:)` or `multicast(subject:)`.
        public init(upstream: Upstream, createSubject: @escaping () -> SubjectType) {
            self.upstream = upstream
            self.createSubject = createSubject
        }

        /// The one subject, made on first use (outside the lock, since `createSubject` is user code).
        private var subject: SubjectType {
            lock.lock()
            if let made = madeSubject {
                lock.unlock()
                return made
            }
            lock.unlock()
            let fresh = createSubject()
            lock.lock()
            defer { lock.unlock() }
            if let made = madeSubject { return made }
            madeSubject = fresh
            return fresh
        }

        /// Attaches the subscriber to the subject; it sees what upstream sends once connected.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subject.subscribe(MulticastInner(downstream: subscriber))
        }

        /// Subscribes the subject to upstream; cancelling the result disconnects.
        public func connect() -> any Cancellable {
            upstream.subscribe(subject)
        }
    }
}
