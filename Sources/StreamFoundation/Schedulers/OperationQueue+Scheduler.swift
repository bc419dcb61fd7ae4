import Dispatch
import Foundation
import StreamCore

extension OperationQueue: Scheduler {
    /// Operation queue schedules take no options.
    public struct SchedulerOptions: Sendable {}

    /// The current date.
    public var now: SchedulerTimeType {
        SchedulerTimeType(Date())
    }

    /// No minimum tolerance.
    public var minimumTolerance: SchedulerTimeType.Stride {
        0
    }

    /// Adds the action to this queue as a block operation.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let work = UncheckedSendableAction(action)
        // One `addOperation(_:)` call with a `BlockOperation`, as Combine makes (the block form would add a second).
        addOperation(
            BlockOperation {
                work.run()
            })
    }

    /// Adds an operation for the action to this queue at once; it becomes ready at `date`. The wait happens on a
    /// dispatch timer, not on the queue, so the waiting operation never occupies one of the queue's slots, and
    /// `waitUntilAllOperationsAreFinished()` waits for it, as in Combine.
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let operation = DelayedOperation(UncheckedSendableAction(action))
        addOperation(operation)
        operation.becomeReady(at: Self.deadline(for: date))
    }

    /// Runs the action on this queue at `date` and then every `interval`, until the returned cancellable is cancelled
    /// (or released). Each tick is an operation added when the previous one runs, ready when the tick is due.
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        let schedule = RepeatingOperationSchedule(
            queue: self,
            interval: .nanoseconds(Self.nanoseconds(interval.timeInterval)),
            action: UncheckedSendableAction(action)
        )
        schedule.add(dueAt: Self.deadline(for: date))
        return AnyCancellable(schedule)
    }

    /// Converts a wall-clock date into a deadline on the uptime clock, measured from now.
    private static func deadline(for date: SchedulerTimeType) -> DispatchTime {
        .now() + .nanoseconds(nanoseconds(max(0, date.date.timeIntervalSinceNow)))
    }

    private static func nanoseconds(_ seconds: TimeInterval) -> Int {
        let value = seconds * 1_000_000_000
        if value.isNaN || value <= 0 { return 0 }
        return value >= Double(Int.max) ? Int.max : Int(value)
    }
}
