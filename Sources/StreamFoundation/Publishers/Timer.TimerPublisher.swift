import Foundation
import StreamCore

extension Timer {
    /// Returns a connectable publisher that emits the current date every `interval` seconds on `runLoop` in `mode`.
    ///
    /// Nothing ticks until `connect()` (or `autoconnect()`); a tick reaching a subscriber without demand is dropped for
    /// that subscriber, as in Combine. Combine's `publish` does not pass `tolerance` on (the publisher's `tolerance`
    /// is `nil`), and neither does this one, so code behaves the same on both; to give the timer a tolerance, create
    /// the `TimerPublisher` directly.
    public static func publish(
        every interval: TimeInterval,
        tolerance: TimeInterval? = nil,
        on runLoop: RunLoop,
        in mode: RunLoop.Mode,
        options: RunLoop.SchedulerOptions? = nil
    ) -> TimerPublisher {
        TimerPublisher(interval: interval, tolerance: nil, runLoop: runLoop, mode: mode, options: options)
    }

    /// A connectable publisher of dates driven by a repeating `Timer`; subscribers share one timer.
    public final class TimerPublisher: ConnectablePublisher, @unchecked Sendable {
        /// The date of each tick.
        public typealias Output = Date
        /// Ticking cannot fail.
        public typealias Failure = Never

        /// Seconds between ticks.
        public let interval: TimeInterval
        /// The timer's tolerance, if any.
        public let tolerance: TimeInterval?
        /// The run loop the timer runs on.
        public let runLoop: RunLoop
        /// The run loop mode the timer runs in.
        public let mode: RunLoop.Mode
        /// Scheduler options (run loops take none; kept for Combine's signature).
        public let options: RunLoop.SchedulerOptions?

        private let lock = NSLock()
        private var subscribers: [DemandGatedDelivery<Date, Never>] = []
        private var timer: Timer?
        private var target: TimerTarget?

        /// Creates a timer publisher; prefer `Timer.publish(every:tolerance:on:in:options:)`.
        public init(
            interval: TimeInterval,
            tolerance: TimeInterval? = nil,
            runLoop: RunLoop,
            mode: RunLoop.Mode,
            options: RunLoop.SchedulerOptions? = nil
        ) {
            self.interval = interval
            self.tolerance = tolerance
            self.runLoop = runLoop
            self.mode = mode
            self.options = options
        }

        /// Adds the subscriber to those receiving ticks; it receives ticks only while connected and while it has demand.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let delivery = DemandGatedDelivery<Date, Never>(downstream: AnySubscriber(subscriber))
            lock.withLock { subscribers.append(delivery) }
            subscriber.receive(subscription: TimerSubscription(publisher: self, delivery: delivery))
        }

        /// Starts the timer if it is not running; cancelling the result stops it (subscribers are not completed).
        public func connect() -> any Cancellable {
            let (timer, isNew): (Timer, Bool) = lock.withLock {
                if let running = self.timer { return (running, false) }
                // While connected, the timer holds the publisher strongly (through `target`): the run loop keeps a
                // scheduled timer, so a connected publisher stays alive even when nothing else references it, as
                // `Timer.publish(…).autoconnect()` chains rely on. Disconnecting empties the target, so the publisher
                // is released however long Foundation keeps the invalidated timer and its block.
                let target = TimerTarget(self)
                let created = Timer(timeInterval: interval, repeats: true) { _ in
                    target.fire()
                }
                self.target = target
                if let tolerance { created.tolerance = tolerance }
                self.timer = created
                return (created, true)
            }
            if isNew {
                runLoop.add(timer, forMode: mode)
            }
            let handle = UncheckedSendableTimer(timer)
            // Weak: while connected the timer keeps the publisher alive; a cancellable kept after that must not.
            return AnyCancellable { [weak self] in
                self?.disconnect(handle.timer)
            }
        }

        private func disconnect(_ timer: Timer) {
            let target: TimerTarget? = lock.withLock {
                guard self.timer === timer else { return nil }
                self.timer = nil
                defer { self.target = nil }
                return self.target
            }
            if let target {
                timer.invalidate()
                target.clear()
            }
        }

        fileprivate func tick() {
            let now = Date()
            let current = lock.withLock { subscribers }
            for subscriber in current {
                subscriber.offer(now)
            }
        }

        fileprivate func remove(_ delivery: DemandGatedDelivery<Date, Never>) {
            lock.withLock { subscribers.removeAll { $0 === delivery } }
        }
    }
}

/// A subscriber's subscription to the timer. As Combine's, it has no description or mirror of its own.
private final class TimerSubscription: Subscription, @unchecked Sendable {
    private weak var publisher: Timer.TimerPublisher?
    private let delivery: DemandGatedDelivery<Date, Never>

    init(publisher: Timer.TimerPublisher, delivery: DemandGatedDelivery<Date, Never>) {
        self.publisher = publisher
        self.delivery = delivery
    }

    func request(_ demand: Subscribers.Demand) {
        precondition(demand != .none, "demand must not be .none")
        delivery.request(demand)
    }

    func cancel() {
        delivery.cancel()
        publisher?.remove(delivery)
    }
}

/// What a connected timer calls: a strong reference to the publisher that disconnecting clears.
private final class TimerTarget: @unchecked Sendable {
    private let lock = NSLock()
    private var publisher: Timer.TimerPublisher?

    init(_ publisher: Timer.TimerPublisher) {
        self.publisher = publisher
    }

    func fire() {
        let publisher = lock.withLock { self.publisher }
        publisher?.tick()
    }

    func clear() {
        let released = lock.withLock { () -> Timer.TimerPublisher? in
            defer { publisher = nil }
            return publisher
        }
        // Released outside the lock: this may be the publisher's last reference.
        _ = released
    }
}
