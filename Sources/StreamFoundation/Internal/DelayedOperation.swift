import Dispatch
import Foundation
import StreamCore

/// An operation that is on its queue at once but not ready until its date: what `OperationQueue`'s delayed schedules
/// add, as Combine's do. It is cancellable, runs its action at most once (a later `main()` does nothing), and becomes
/// ready early when cancelled, so that the queue can discard it without waiting.
///
/// The wait happens on a dispatch timer, not in the operation, so a waiting operation occupies none of the queue's
/// slots.
internal final class DelayedOperation: Operation, Cancellable, @unchecked Sendable {
    private let lock = NSLock()
    private var due = false
    private var action: UncheckedSendableAction?

    init(_ action: UncheckedSendableAction) {
        self.action = action
    }

    /// Ready once due (or cancelled) and once the base class's conditions (dependencies) hold.
    override var isReady: Bool {
        lock.withLock { due } && super.isReady || isCancelled
    }

    override func main() {
        let action = lock.withLock { () -> UncheckedSendableAction? in
            defer { self.action = nil }
            return self.action
        }
        guard let action, !isCancelled else { return }
        action.run()
    }

    override func cancel() {
        // Dropped now rather than when the queue gets round to the cancelled operation: the action may hold a lot.
        let dropped = lock.withLock { () -> UncheckedSendableAction? in
            defer { action = nil }
            return action
        }
        withExtendedLifetime(dropped) {}
        super.cancel()
    }

    /// Makes the operation ready at `deadline`, telling its queue through the readiness notification queues observe.
    func becomeReady(at deadline: DispatchTime) {
        DispatchQueue.global().asyncAfter(deadline: deadline) { [self] in
            willChangeValue(forKey: "isReady")
            lock.withLock { due = true }
            didChangeValue(forKey: "isReady")
        }
    }
}

/// A repeating schedule on an operation queue: one delayed operation per tick, each adding the next before it runs
/// the action, until cancelled.
internal final class RepeatingOperationSchedule: Cancellable, @unchecked Sendable {
    private let lock = NSLock()
    private weak var queue: OperationQueue?
    private let interval: DispatchTimeInterval
    private let action: UncheckedSendableAction
    private var pending: DelayedOperation?
    private var cancelled = false

    init(queue: OperationQueue, interval: DispatchTimeInterval, action: UncheckedSendableAction) {
        self.queue = queue
        self.interval = interval
        self.action = action
    }

    /// Adds the operation for the tick due at `deadline`.
    func add(dueAt deadline: DispatchTime) {
        let action = self.action
        let operation = DelayedOperation(
            UncheckedSendableAction { [weak self] in
                // The next tick is on the queue before this one's action runs, counted from this tick's due time so
                // that late ticks do not drift.
                if let self { add(dueAt: deadline + interval) }
                action.run()
            })
        let queue: OperationQueue? = lock.withLock {
            guard !cancelled else { return nil }
            pending = operation
            return self.queue
        }
        guard let queue else { return }
        queue.addOperation(operation)
        operation.becomeReady(at: deadline)
    }

    func cancel() {
        let operation = lock.withLock { () -> DelayedOperation? in
            cancelled = true
            defer { pending = nil }
            return pending
        }
        operation?.cancel()
    }
}
