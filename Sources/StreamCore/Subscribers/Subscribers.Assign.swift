extension Publisher where Failure == Never {
    /// Assigns each element from a publisher to a property on an object.
    ///
    /// The object is retained until the subscription completes or is cancelled, as in Combine: assigning to a
    /// property of the object that holds the cancellable is a retain cycle.
    public func assign<Root>(
        to keyPath: ReferenceWritableKeyPath<Root, Output>,
        on object: Root
    ) -> AnyCancellable {
        let assign = Subscribers.Assign(object: object, keyPath: keyPath)
        subscribe(assign)
        return AnyCancellable(assign)
    }

    /// Republishes elements to a `@Published` property's publisher (`assign(to: &$property)`).
    ///
    /// The subscription lives as long as the property does, so there is no cancellable to keep; each element is
    /// published as if the property had been set, including the owning object's `objectWillChange`.
    public func assign(to published: inout Published<Output>.Publisher) {
        let box = published.box
        let assignment = sink { [weak box] value in
            box?.publish(value)
        }
        box.keep(assignment)
    }
}

extension Subscribers {
    /// A simple subscriber that assigns received elements to a property indicated by a key path.
    public final class Assign<Root, Input>: Subscriber, Cancellable, CustomStringConvertible, @unchecked Sendable {
        /// Assign never fails.
        public typealias Failure = Never

        private enum Status {
            case awaiting
            case subscribed(any Subscription)
            case terminal
        }

        private let lock = Lock()
        private var status = Status.awaiting
        private var storedObject: Root?

        /// The object that contains the property; `nil` once the subscription has ended.
        public var object: Root? {
            lock.lock()
            defer { lock.unlock() }
            return storedObject
        }

        /// The key path that indicates the property to assign.
        public let keyPath: ReferenceWritableKeyPath<Root, Input>

        /// Creates a subscriber to assign the value of a property indicated by a key path.
        public init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
            storedObject = object
            self.keyPath = keyPath
        }

        /// A short description for debugging.
        public var description: String { "Assign \(Root.self)." }

        /// Keeps the subscription and requests unlimited values; a second subscription is cancelled.
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

        /// Assigns the value to the object's property.
        public func receive(_ value: Input) -> Subscribers.Demand {
            lock.lock()
            guard case .subscribed = status, let object = storedObject else {
                lock.unlock()
                return .none
            }
            lock.unlock()
            object[keyPath: keyPath] = value
            return .none
        }

        /// Releases the object.
        public func receive(completion: Subscribers.Completion<Never>) {
            lock.lock()
            guard case .subscribed = status else {
                lock.unlock()
                return
            }
            status = .terminal
            let object = storedObject
            storedObject = nil
            lock.unlock()
            withExtendedLifetime(object) {}
        }

        /// Cancels the subscription and releases the object.
        public func cancel() {
            lock.lock()
            guard case .subscribed(let subscription) = status else {
                lock.unlock()
                return
            }
            status = .terminal
            let object = storedObject
            storedObject = nil
            lock.unlock()
            withExtendedLifetime(object) {}
            subscription.cancel()
        }

        /// The subscription state, for `customMirror` only (read under the lock, off the delivery path).
        internal var reflectedStatus: Any {
            lock.lock()
            defer { lock.unlock() }
            return status
        }
    }
}
