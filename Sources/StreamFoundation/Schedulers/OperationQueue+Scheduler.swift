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

    /// Adds the action to this queue as an operation.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let work = UncheckedSendableAction(action)
        addOperation {
            work.run()
        }
    }

    /// Adds the action to this queue once `date` is reached; the wait happens on a dispatch timer, not on the queue,
    /// so a delayed action never occupies one of the queue's slots while waiting.
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let work = UncheckedSendableAction(action)
        DispatchQueue.global().asyncAfter(deadline: Self.deadline(for: date)) { [self] in
            addOperation {
                work.run()
            }
        }
    }

    /// Adds the action to this queue at `date` and then every `interval`, until the returned cancellable cancels the
    /// dispatch timer that drives it.
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        let work = UncheckedSendableAction(action)
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(
            deadline: Self.deadline(for: date),
            repeating: .nanoseconds(Self.nanoseconds(interval.timeInterval)),
            leeway: .nanoseconds(Self.nanoseconds(tolerance.timeInterval))
        )
        timer.setEventHandler { [self] in
            addOperation {
                work.run()
            }
        }
        timer.resume()
        return AnyCancellable {
            timer.cancel()
        }
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
