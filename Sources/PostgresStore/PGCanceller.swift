import CLibPQ
import Synchronization

/// Asks the server to cancel the statement a connection is running (`PQcancel` over a separate connection to the
/// server), so Ctrl-C stops a long query on the server instead of only abandoning its result.
///
/// libpq documents `PQcancel` on a `PGcancel` as safe from another thread (a signal handler, even) while the
/// connection's own thread waits for the result. Unchecked: the pointer never changes, is freed only in `deinit`
/// (when no other reference can call `cancel()`), and the lock keeps two cancels from overlapping.
package final class PGCanceller: @unchecked Sendable {
    private let handle: OpaquePointer
    private let lock = Mutex(())

    init(_ handle: OpaquePointer) { self.handle = handle }

    deinit { PQfreeCancel(handle) }

    /// Sends the cancel request; returns whether the server was reached (the statement may have ended already).
    @discardableResult
    package func cancel() -> Bool {
        lock.withLock { _ in
            var message = [CChar](repeating: 0, count: 256)
            return PQcancel(handle, &message, Int32(message.count)) == 1
        }
    }
}

/// The canceller of the statement a command is running, if any, and why the command was stopped, if it was (then a
/// statement not yet started must not start, and a long command stops at its next check).
final class CancelSlot: Sendable {
    /// Who stopped the command.
    enum Reason: Sendable {
        /// The calling task was cancelled (Ctrl-C in the shell).
        case task
        /// The store was closed.
        case close
    }

    private let state = Mutex<(canceller: PGCanceller?, reason: Reason?)>((nil, nil))

    /// Holds `canceller` while a statement runs; false when the command was stopped already.
    func arm(_ canceller: PGCanceller?) -> Bool {
        state.withLock { state in
            guard state.reason == nil else { return false }
            state.canceller = canceller
            return true
        }
    }

    /// Drops the canceller once the command is done, so a late cancel goes nowhere.
    func disarm() { state.withLock { $0.canceller = nil } }

    /// Marks the command stopped and cancels its running statement on the server, if one is armed. Runs on the
    /// cancelling thread (a task's cancellation handler, `close()`), never on the store's queue.
    func cancel(_ reason: Reason) {
        let canceller = state.withLock { state -> PGCanceller? in
            if state.reason == nil { state.reason = reason }
            return state.canceller
        }
        canceller?.cancel()
    }

    /// Throws when the command was stopped: `CancellationError` for a cancelled task, `closed` for a closed store.
    func check(address: String) throws {
        switch state.withLock({ $0.reason }) {
        case nil: return
        case .task: throw CancellationError()
        case .close: throw PostgresError(.closed, address: address)
        }
    }
}
