import Synchronization

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
        return AnyCancellable(object: sink)
    }
}

extension Publisher where Failure == Never {
    /// Attaches a subscriber with closure-based behaviour to a publisher that never fails.
    @inlinable
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        let sink = Subscribers.Sink<Output, Failure>(receiveCompletion: { _ in }, receiveValue: receiveValue)
        subscribe(sink)
        return AnyCancellable(object: sink)
    }
}

extension Subscribers {
    /// A simple subscriber that requests an unlimited number of values upon subscription.
    ///
    /// Its closures are released when it completes or is cancelled, so a closure capturing an owner does not keep a
    /// cycle alive past the end of the subscription. Delivering a value takes no lock: an atomic phase says who may
    /// touch the closures, and a cancel that arrives during a delivery leaves the release to the deliverer.
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
        @unchecked Sendable
    {

        /// The closure to execute on receipt of a value; an empty closure once the sink has ended (and while a value
        /// is being delivered, when the closure may not be copied safely).
        public var receiveValue: (Input) -> Void {
            withIdleHandlers { $0.receiveValue } ?? { _ in }
        }

        /// The closure to execute on completion; an empty closure once the sink has ended (and while a value is being
        /// delivered).
        public var receiveCompletion: (Subscribers.Completion<Failure>) -> Void {
            withIdleHandlers { $0.receiveCompletion } ?? { _ in }
        }

        /// Runs `body` on the closures while holding them the way a delivery does, so they cannot be released meanwhile.
        private func withIdleHandlers<T>(_ body: (SinkHandlers<Input, Failure>) -> T) -> T? {
            guard
                phase.compareExchange(
                    expected: SinkPhase.idle, desired: SinkPhase.delivering, ordering: .acquiring
                ).exchanged
            else { return nil }
            let result = handlers._withUnsafeGuaranteedRef(body)
            if !phase.compareExchange(
                expected: SinkPhase.delivering, desired: SinkPhase.idle, ordering: .acquiringAndReleasing
            ).exchanged {
                phase.store(SinkPhase.ended, ordering: .releasing)
                releaseHandlers()
            }
            return result
        }

        /// Guards `subscription` and `terminated`, which only change on subscription, completion and cancel.
        @usableFromInline internal let lock = SpinLock()
        @usableFromInline internal let phase = Atomic<Int>(0)
        /// The closures, held at +1 and called without retaining them: `phase` says who may use or release them.
        @usableFromInline @exclusivity(unchecked) internal var handlers: Unmanaged<SinkHandlers<Input, Failure>>
        @usableFromInline @exclusivity(unchecked) internal var subscription: (any Subscription)?
        /// Set by completion or cancel; a subscription arriving afterwards is cancelled.
        @usableFromInline @exclusivity(unchecked) internal var terminated = false

        /// Creates a sink with the given closures.
        @inlinable
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void
        ) {
            handlers = Unmanaged.passRetained(SinkHandlers(receiveValue, receiveCompletion))
        }

        deinit {
            if phase.load(ordering: .acquiring) != SinkPhase.ended {
                handlers.release()
            }
        }

        /// A short description for debugging.
        public var description: String { "Sink" }

        /// Keeps the subscription and requests unlimited values; a second subscription is cancelled.
        @inlinable
        public func receive(subscription: any Subscription) {
            lock.lock()
            guard self.subscription == nil, !terminated else {
                lock.unlock()
                subscription.cancel()
                return
            }
            self.subscription = subscription
            lock.unlock()
            subscription.request(.unlimited)
        }

        /// Runs the value closure; asks for nothing more, since the demand is already unlimited.
        @inlinable
        public func receive(_ value: Input) -> Subscribers.Demand {
            let (claimed, current) = phase.compareExchange(
                expected: SinkPhase.idle, desired: SinkPhase.delivering, ordering: .acquiring
            )
            if claimed {
                handlers._withUnsafeGuaranteedRef { $0.receiveValue(value) }
                if !phase.compareExchange(
                    expected: SinkPhase.delivering, desired: SinkPhase.idle, ordering: .acquiringAndReleasing
                )
                .exchanged {
                    // Cancelled while the closure ran: this thread finishes the job.
                    phase.store(SinkPhase.ended, ordering: .releasing)
                    releaseHandlers()
                }
            } else if current == SinkPhase.delivering {
                // A value delivered from inside this sink's own closure (a reentrant send): nested, as in Combine.
                handlers._withUnsafeGuaranteedRef { $0.receiveValue(value) }
            }
            return .none
        }

        /// Runs the completion closure once, then releases both closures.
        @inlinable
        public func receive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            if terminated {
                lock.unlock()
                return
            }
            terminated = true
            let finished = subscription
            subscription = nil
            lock.unlock()
            withExtendedLifetime(finished) {}
            let (claimed, current) = phase.compareExchange(
                expected: SinkPhase.idle, desired: SinkPhase.delivering, ordering: .acquiring
            )
            if claimed {
                handlers._withUnsafeGuaranteedRef { $0.receiveCompletion(completion) }
                phase.store(SinkPhase.ended, ordering: .releasing)
                releaseHandlers()
            } else if current == SinkPhase.delivering {
                // Completed from inside the value closure: the outer delivery releases the closures.
                handlers._withUnsafeGuaranteedRef { $0.receiveCompletion(completion) }
                _ = phase.compareExchange(
                    expected: SinkPhase.delivering, desired: SinkPhase.endRequested, ordering: .acquiringAndReleasing)
            }
        }

        /// Cancels the subscription and releases both closures.
        @inlinable
        public func cancel() {
            lock.lock()
            guard !terminated, let subscription else {
                terminated = true
                lock.unlock()
                return
            }
            terminated = true
            self.subscription = nil
            lock.unlock()
            end()
            subscription.cancel()
        }

        /// Ends the sink: releases the closures now, or asks the thread delivering a value to do it.
        @inlinable
        internal func end() {
            while true {
                let current = phase.load(ordering: .acquiring)
                if current == SinkPhase.idle {
                    if phase.compareExchange(
                        expected: SinkPhase.idle, desired: SinkPhase.ended, ordering: .acquiringAndReleasing
                    )
                    .exchanged {
                        releaseHandlers()
                        return
                    }
                } else if current == SinkPhase.delivering {
                    if phase.compareExchange(
                        expected: SinkPhase.delivering, desired: SinkPhase.endRequested,
                        ordering: .acquiringAndReleasing
                    ).exchanged {
                        return
                    }
                } else {
                    return
                }
            }
        }

        /// Releases the closures. Called once, by the thread that owns them per `phase`, just after it set `ended`.
        @inlinable
        internal func releaseHandlers() {
            handlers.release()
        }
    }
}

/// A sink's closures, in one object so the sink can hold them without retaining them on every value.
@usableFromInline
internal final class SinkHandlers<Input, Failure: Error> {
    @usableFromInline internal let receiveValue: (Input) -> Void
    @usableFromInline internal let receiveCompletion: (Subscribers.Completion<Failure>) -> Void

    @inlinable
    internal init(
        _ receiveValue: @escaping (Input) -> Void,
        _ receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void
    ) {
        self.receiveValue = receiveValue
        self.receiveCompletion = receiveCompletion
    }
}

/// The phases of a sink's closures: who may call or release them.
@usableFromInline
internal enum SinkPhase {
    @inlinable internal static var idle: Int { 0 }
    @inlinable internal static var delivering: Int { 1 }
    @inlinable internal static var ended: Int { 2 }
    @inlinable internal static var endRequested: Int { 3 }
}
