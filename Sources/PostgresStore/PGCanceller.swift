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

/// The canceller of the statement a command is running, if any, and whether the command was cancelled before one
/// was armed (then the statement must not start).
final class CancelSlot: Sendable {
    private let state = Mutex<(canceller: PGCanceller?, cancelled: Bool)>((nil, false))

    /// Holds `canceller` while a statement runs; false when the command was cancelled already.
    func arm(_ canceller: PGCanceller?) -> Bool {
        state.withLock { state in
            guard !state.cancelled else { return false }
            state.canceller = canceller
            return true
        }
    }

    /// Drops the canceller once the statement is done, so a late cancel goes nowhere.
    func disarm() { state.withLock { $0.canceller = nil } }

    /// Marks the command cancelled and cancels its running statement, if one is armed.
    func cancel() {
        let canceller = state.withLock { state -> PGCanceller? in
            state.cancelled = true
            return state.canceller
        }
        canceller?.cancel()
    }
}
