import Dispatch
import Synchronization

/// The store's one libpq connection, confined to a serial queue of its own, so libpq's blocking calls never hold a
/// thread of Swift's cooperative pool (as many threads as cores: two on a 2-core machine). An async command hops onto
/// the queue through a checked continuation and is suspended, not blocked, while its query runs and while it waits
/// behind another command of the same store; the REPL, a Ctrl-C handler's task and timers keep running meanwhile.
/// This is the shape of the SQLite store's `Database`.
///
/// Cancelling never needs the queue: the task's cancellation handler, or `close()`, sends `PQcancel` from its own
/// thread through the running command's `CancelSlot`, and a command still waiting its turn sees the mark and does not
/// start.
///
/// `@unchecked Sendable`: `connection` is only touched on `queue`; the rest is behind `state`'s lock.
final class ConnectionQueue: @unchecked Sendable {
    /// The address with any password masked, for messages.
    let address: String
    private let conninfo: String
    private let queue = DispatchQueue(label: "tweetsh.postgres.connection", qos: .userInitiated)
    /// Marks the queue's own thread, so `close()` from a command's callback does not wait for itself.
    private let queueKey = DispatchSpecificKey<Bool>()
    /// Only touched on `queue`; nil until the first command connects, and after the connection broke or was closed.
    private var connection: PGConnection?
    /// The command running now (for `close()` to cancel) and how many times the store was closed (a command queued
    /// before a `close()` fails with `closed` instead of connecting again).
    private let state = Mutex<(running: CancelSlot?, closes: Int)>((nil, 0))

    /// A queue for `conninfo`'s server, starting with `opened` (the connection `init` used), if any.
    init(conninfo: String, opened: PGConnection?) {
        self.conninfo = conninfo
        self.address = ConnectionAddress.masked(conninfo)
        self.connection = opened
        queue.setSpecific(key: queueKey, value: true)
    }

    /// Runs `body` on the queue, connecting first when there is no usable connection, while the calling task waits
    /// suspended. With `cancellable`, cancelling the task cancels the running statement on the server (SQLSTATE
    /// 57014; the connection stays) and the command throws `CancellationError`; without it, only `close()` stops it.
    /// `body` may check `slot` between statements of a long command (`CancelSlot.check`).
    func run<T: Sendable>(
        cancellable: Bool, _ body: @escaping (PGConnection, CancelSlot) throws -> T
    ) async throws -> T {
        if cancellable { try Task.checkCancellation() }
        let slot = CancelSlot()
        let generation = state.withLock { $0.closes }
        // The caller stays suspended until the queue has run `body`, so `body` and whatever it captures are used by
        // one thread at a time: on the queue, then (after the continuation resumes) by the caller again.
        let work = UncheckedBody(body: body)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
                queue.async {
                    continuation.resume(with: Result { try self.perform(slot, generation, work.body) })
                }
            }
        } onCancel: {
            if cancellable { slot.cancel(.task) }
        }
    }

    /// Runs `body` on the queue and waits for it, for the store's synchronous methods (`migrate()`, `counts()`, …).
    /// Not for use from a command's own body, which already holds the connection.
    func runNow<T>(_ body: (PGConnection, CancelSlot) throws -> T) throws -> T {
        dispatchPrecondition(condition: .notOnQueue(queue))
        let slot = CancelSlot()
        let generation = state.withLock { $0.closes }
        return try queue.sync { try perform(slot, generation, body) }
    }

    /// Cancels the running statement on the server, fails the commands queued before this call with `closed`, and
    /// drops the connection once the running command has stopped (waiting at most a few seconds for that: a server
    /// that does not answer the cancel must not hold up a shell that is ending). A later command connects again.
    func close() {
        let running = state.withLock { state -> CancelSlot? in
            state.closes += 1
            return state.running
        }
        running?.cancel(.close)
        let dropped = DispatchSemaphore(value: 0)
        queue.async {
            self.connection = nil
            dropped.signal()
        }
        if DispatchQueue.getSpecific(key: queueKey) != true { _ = dropped.wait(timeout: .now() + 5) }
    }

    /// The command on the queue: refuses to start when it was cancelled or the store closed since it was queued,
    /// connects when needed, arms the slot with the connection's canceller while `body` runs, and drops a connection
    /// that broke so the next command connects again.
    private func perform<T>(
        _ slot: CancelSlot, _ generation: Int, _ body: (PGConnection, CancelSlot) throws -> T
    ) throws -> T {
        try slot.check(address: address)
        guard state.withLock({ $0.closes == generation }) else { throw PostgresError(.closed, address: address) }
        if connection?.isUsable != true {
            connection = nil
            connection = try PGConnection(conninfo: conninfo)
        }
        guard let open = connection else { throw PostgresError(.connectionLost, address: address) }
        guard slot.arm(open.makeCanceller()) else {
            try slot.check(address: address)
            throw CancellationError()
        }
        defer { slot.disarm() }
        // Registered under the lock `close()` takes: either this command is the one a close cancels, or it saw that
        // close and does not start.
        let current = state.withLock { state -> Bool in
            guard state.closes == generation else { return false }
            state.running = slot
            return true
        }
        guard current else { throw PostgresError(.closed, address: address) }
        defer { state.withLock { if $0.running === slot { $0.running = nil } } }
        let address = self.address
        open.stopCheck = { try slot.check(address: address) }
        defer { open.stopCheck = nil }
        do {
            return try body(open, slot)
        } catch {
            if !open.isUsable || (error as? PostgresError)?.kind == .connectionLost { connection = nil }
            // The server's "canceling statement due to user request": the command was stopped, not broken.
            if error is PostgresError { try slot.check(address: address) }
            throw error
        }
    }
}

/// A command's body on its way to the queue; see `ConnectionQueue.run` for why it is used by one thread at a time.
private struct UncheckedBody<T>: @unchecked Sendable {
    let body: (PGConnection, CancelSlot) throws -> T
}
