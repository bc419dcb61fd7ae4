import CLibPQ
import Foundation
import Synchronization

/// Asks the server to cancel the statement a connection is running (`PQcancel` over a separate connection to the
/// server), so Ctrl-C stops a long query on the server instead of only abandoning its result.
///
/// libpq documents `PQcancel` on a `PGcancel` as safe from another thread (a signal handler, even) while the
/// connection's own thread waits for the result. But PostgreSQL 15's `PQcancel` has no timeout: it connects, sends
/// the request and waits for the server to close that connection. To a server gone from the network that took the
/// system's TCP timeout (about two minutes), during which the thread that pressed Ctrl-C, or the shell closing on
/// SIGTERM, waited. So the request goes out on a thread of its own, and the caller waits for it `waitLimit` at most.
package final class PGCanceller: Sendable {
    /// How long `cancel()` waits for the server to take the request. A reachable server answers in milliseconds.
    static let waitLimit: Double = 3

    private let send: @Sendable () -> Bool

    init(_ handle: OpaquePointer) {
        let handle = CancelHandle(handle)
        send = { handle.send() }
    }

    /// A canceller whose request is `send` (tests stand in a server that never answers).
    init(send: @escaping @Sendable () -> Bool) { self.send = send }

    /// Sends the cancel request; returns whether the server took it within `waitLimit` (the statement may have
    /// ended already). A request still under way then finishes, or fails, on its own thread.
    @discardableResult
    package func cancel() -> Bool {
        let done = DispatchSemaphore(value: 0)
        let reached = Mutex(false)
        let send = self.send
        Thread.detachNewThread {
            let result = send()
            reached.withLock { $0 = result }
            done.signal()
        }
        guard done.wait(timeout: .now() + Self.waitLimit) == .success else { return false }
        return reached.withLock { $0 }
    }
}

/// The `PGcancel` itself, freed when the last request that needs it is done. Unchecked: the pointer never changes,
/// is freed only in `deinit`, and the lock keeps two requests from overlapping.
private final class CancelHandle: @unchecked Sendable {
    private let handle: OpaquePointer
    private let lock = Mutex(())

    init(_ handle: OpaquePointer) { self.handle = handle }

    deinit { PQfreeCancel(handle) }

    func send() -> Bool {
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
