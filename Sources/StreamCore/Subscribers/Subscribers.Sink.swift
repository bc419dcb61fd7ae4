extension Publisher {
    /// Attaches a subscriber with closure-based behaviour, requesting an unlimited number of values.
    ///
    /// The returned cancellable keeps the subscription alive; cancelling it (or releasing it) ends the subscription.
    @inlinable
    public func sink(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        let sink = Subscribers.Sink<Output, Failure>(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        subscribe(sink)
        return AnyCancellable(sink)
    }
}

extension Publisher where Failure == Never {
    /// Attaches a subscriber with closure-based behaviour to a publisher that never fails.
    @inlinable
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        let sink = Subscribers.Sink<Output, Failure>(receiveCompletion: { _ in }, receiveValue: receiveValue)
        subscribe(sink)
        return AnyCancellable(sink)
    }
}

extension Subscribers {
    /// A simple subscriber that requests an unlimited number of values upon subscription.
    ///
    /// Its closures are released when it completes or is cancelled, so a closure capturing an owner does not keep a
    /// cycle alive past the end of the subscription.
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible, @unchecked Sendable {
        @usableFromInline
        internal enum Status {
            case awaiting
            case subscribed(any Subscription)
            case terminal
        }

        /// The closure to execute on receipt of a value.
        public var receiveValue: (Input) -> Void {
            lock.lock()
            defer { lock.unlock() }
            return valueHandler
        }

        /// The closure to execute on completion.
        public var receiveCompletion: (Subscribers.Completion<Failure>) -> Void {
            lock.lock()
            defer { lock.unlock() }
            return completionHandler
        }

        @usableFromInline internal let lock = Lock()
        @usableFromInline internal var valueHandler: (Input) -> Void
        @usableFromInline internal var completionHandler: (Subscribers.Completion<Failure>) -> Void
        @usableFromInline internal var status = Status.awaiting

        /// Creates a sink with the given closures.
        @inlinable
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void
        ) {
            valueHandler = receiveValue
            completionHandler = receiveCompletion
        }

        /// A short description for debugging.
        public var description: String { "Sink" }

        /// Keeps the subscription and requests unlimited values; a second subscription is cancelled.
        @inlinable
        public func receive(subscription: any Subscription) {
            lock.lock()
            guard case .awaiting = status else {
                lock.unlock()
                subscription.cancel()
                return
            }
            status = .subscribed(subscription)
            lock.unlock()
            subscription.request(.unlimited)
        }

        /// Runs the value closure; asks for nothing more, since the demand is already unlimited.
        @inlinable
        public func receive(_ value: Input) -> Subscribers.Demand {
            lock.lock()
            let handler = valueHandler
            lock.unlock()
            handler(value)
            return .none
        }

        /// Runs the completion closure once, then releases both closures.
        @inlinable
        public func receive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            if case .terminal = status {
                lock.unlock()
                return
            }
            status = .terminal
            let handler = completionHandler
            lock.unlock()
            handler(completion)
            releaseHandlers()
        }

        /// Cancels the subscription and releases both closures.
        @inlinable
        public func cancel() {
            lock.lock()
            guard case .subscribed(let subscription) = status else {
                if case .awaiting = status { status = .terminal }
                lock.unlock()
                return
            }
            status = .terminal
            lock.unlock()
            releaseHandlers()
            subscription.cancel()
        }

        /// Replaces the closures by empty ones; the old ones are released after the lock is dropped.
        @usableFromInline
        internal func releaseHandlers() {
            lock.lock()
            let oldValue = valueHandler
            let oldCompletion = completionHandler
            valueHandler = { _ in }
            completionHandler = { _ in }
            lock.unlock()
            withExtendedLifetime((oldValue, oldCompletion)) {}
        }
    }
}
