import StreamCore

/// A scheduler with a virtual clock that moves only when a test tells it to, so timing operators are tested without sleeps.
///
/// Every action waits in a queue ordered by due time, and by arrival among equal times (FIFO). `schedule(options:_:)`
/// queues its action at `now`: nothing runs until the test calls `advance(by:)`, `advance(to:)`, `advance()` or `run()`.
/// Actions that an action schedules run in the same advance when they fall due within it. Repeating schedules fire at
/// `after`, `after + interval`, … until their cancellable is cancelled. Every call is recorded in `calls`.
///
/// Thread-safe: any thread may schedule, and the clock is advanced by the test; actions run outside the lock on the thread
/// that advances, so an action may schedule more actions.
public final class TestScheduler: Scheduler, @unchecked Sendable {
    /// Test schedules take no options; `nil` is the only value.
    public typealias SchedulerOptions = Never

    /// One schedule call the scheduler received, in the order received.
    public enum Call: Hashable, Sendable, CustomStringConvertible {
        /// `schedule(options:_:)`, received when the clock read `now`.
        case immediate(now: SchedulerTimeType)
        /// `schedule(after:tolerance:options:_:)`.
        case after(SchedulerTimeType, tolerance: SchedulerTimeType.Stride)
        /// `schedule(after:interval:tolerance:options:_:)`.
        case repeating(
            after: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride)

        /// The call, for failure messages.
        public var description: String {
            switch self {
            case .immediate(let now): return "immediate(now: \(now))"
            case .after(let date, let tolerance): return "after(\(date), tolerance: \(tolerance))"
            case .repeating(let date, let interval, let tolerance):
                return "repeating(after: \(date), interval: \(interval), tolerance: \(tolerance))"
            }
        }
    }

    private struct Item {
        var date: SchedulerTimeType
        var sequence: UInt64
        var action: () -> Void
        var repetition: Repetition?
    }

    private struct Repetition {
        var interval: SchedulerTimeType.Stride
        var token: RepeatToken
    }

    private let lock = TestingLock()
    private var clock: SchedulerTimeType
    private var queue: [Item] = []
    private var nextSequence: UInt64 = 0
    private var received: [Call] = []
    private let tolerance: SchedulerTimeType.Stride

    /// Creates a scheduler whose clock reads `now` (zero by default).
    public init(now: SchedulerTimeType = .zero, minimumTolerance: SchedulerTimeType.Stride = .zero) {
        clock = now
        tolerance = minimumTolerance
    }

    /// The virtual clock's current reading.
    public var now: SchedulerTimeType {
        lock.withLock { clock }
    }

    /// The tolerance given at creation; the virtual clock is exact, so tolerance never shifts an action.
    public var minimumTolerance: SchedulerTimeType.Stride {
        tolerance
    }

    /// Every schedule call received so far, oldest first.
    public var calls: [Call] {
        lock.withLock { received }
    }

    /// How many actions are waiting, counting each live repeating schedule once.
    public var pendingActionCount: Int {
        lock.withLock { queue.count }
    }

    /// Queues `action` at the current time; it runs at the next advance.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        lock.withLock {
            received.append(.immediate(now: clock))
            enqueue(Item(date: clock, sequence: 0, action: action, repetition: nil))
        }
    }

    /// Queues `action` to run when the clock reaches `date` (at the next advance if `date` has passed).
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        lock.withLock {
            received.append(.after(date, tolerance: tolerance))
            enqueue(Item(date: date, sequence: 0, action: action, repetition: nil))
        }
    }

    /// Queues `action` to run at `date` and then every `interval` until the returned cancellable is cancelled.
    ///
    /// An interval shorter than one nanosecond is treated as one nanosecond, so `run()` and `advance` always progress.
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        let token = RepeatToken(scheduler: self)
        let step = max(interval, .nanoseconds(1))
        lock.withLock {
            received.append(.repeating(after: date, interval: interval, tolerance: tolerance))
            enqueue(Item(date: date, sequence: 0, action: action, repetition: Repetition(interval: step, token: token)))
        }
        return token
    }

    /// Runs the actions due at the current time, without moving the clock.
    public func advance() {
        advance(by: .zero)
    }

    /// Moves the clock forward by `stride`, running every action that falls due on the way, in time order.
    public func advance(by stride: SchedulerTimeType.Stride) {
        advance(to: now.advanced(by: stride))
    }

    /// Moves the clock to `instant`, running every action due by then in time order; each action sees `now` at its due
    /// time. The clock never moves backwards: an `instant` in the past only runs what is already due.
    public func advance(to instant: SchedulerTimeType) {
        while let item = takeNext(dueBy: instant) {
            item.action()
        }
        lock.withLock {
            if clock < instant { clock = instant }
        }
    }

    /// Runs every queued action, moving the clock to each one's due time, until nothing is left.
    ///
    /// A repeating schedule never runs out, so `run()` stops after `maximumSteps` actions and returns false then;
    /// it returns true when the queue emptied.
    @discardableResult
    public func run(maximumSteps: Int = 100_000) -> Bool {
        var steps = 0
        while steps < maximumSteps {
            guard let item = takeNext(dueBy: nil) else { return true }
            item.action()
            steps += 1
        }
        return pendingActionCount == 0
    }

    /// Removes the earliest action due by `limit` (any, if nil), moves the clock to it and requeues a repetition.
    private func takeNext(dueBy limit: SchedulerTimeType?) -> Item? {
        lock.withLock {
            guard let first = queue.first else { return nil }
            if let limit, first.date > limit { return nil }
            queue.removeFirst()
            if clock < first.date { clock = first.date }
            if let repetition = first.repetition {
                var next = first
                next.date = first.date.advanced(by: repetition.interval)
                enqueue(next)
            }
            return first
        }
    }

    /// Inserts after every item due at or before `item.date`, which keeps equal times in arrival order. Lock held.
    private func enqueue(_ item: Item) {
        var item = item
        item.sequence = nextSequence
        nextSequence += 1
        var low = 0
        var high = queue.count
        while low < high {
            let middle = (low + high) / 2
            if queue[middle].date <= item.date {
                low = middle + 1
            } else {
                high = middle
            }
        }
        queue.insert(item, at: low)
    }

    /// Drops a cancelled repetition's pending fire, releasing its action.
    fileprivate func removeRepetition(_ token: RepeatToken) {
        let removed: [Item] = lock.withLock {
            let dropped = queue.filter { $0.repetition?.token === token }
            queue.removeAll { $0.repetition?.token === token }
            return dropped
        }
        // The dropped actions are released here, outside the lock, in case releasing them runs a deinit that schedules.
        _ = removed
    }
}

/// The cancellable returned for a repeating schedule.
private final class RepeatToken: Cancellable, @unchecked Sendable {
    private weak var scheduler: TestScheduler?

    init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    func cancel() {
        scheduler?.removeRepetition(self)
    }
}
