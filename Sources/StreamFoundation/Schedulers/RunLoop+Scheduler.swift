import Foundation
import StreamCore

extension RunLoop: Scheduler {
    /// Run loop schedules take no options.
    public struct SchedulerOptions: Sendable {}

    /// The current date.
    public var now: SchedulerTimeType {
        SchedulerTimeType(Date())
    }

    /// Run loop timers have no minimum tolerance.
    public var minimumTolerance: SchedulerTimeType.Stride {
        0
    }

    /// Runs the action on this run loop's next pass; the loop must be running (`run(until:)`, for instance).
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let work = UncheckedSendableAction(action)
        perform {
            work.run()
        }
    }

    /// Runs the action on this run loop at `date`, through a one-shot timer in the default mode.
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let work = UncheckedSendableAction(action)
        let timer = Timer(fire: date.date, interval: 0, repeats: false) { _ in
            work.run()
        }
        timer.tolerance = tolerance.timeInterval
        add(timer, forMode: .default)
    }

    /// Runs the action on this run loop at `date` and then every `interval`, until the returned cancellable
    /// invalidates the timer.
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        let work = UncheckedSendableAction(action)
        let timer = Timer(fire: date.date, interval: interval.timeInterval, repeats: true) { _ in
            work.run()
        }
        timer.tolerance = tolerance.timeInterval
        add(timer, forMode: .default)
        let handle = UncheckedSendableTimer(timer)
        return AnyCancellable {
            handle.timer.invalidate()
        }
    }
}

/// Lets a cancellable invalidate a timer from any thread; `Timer.invalidate` is documented as callable from any thread
/// for the purpose of stopping it, and the timer is not otherwise touched.
struct UncheckedSendableTimer: @unchecked Sendable {
    let timer: Timer

    init(_ timer: Timer) {
        self.timer = timer
    }
}
