import Foundation
import TweetStore

extension PostgresStore {
    /// Runs `body` on the connection as `withConnection` does, and cancels its statement on the server when the
    /// calling task is cancelled (Ctrl-C in the shell): the server stops the query (SQLSTATE 57014), the
    /// connection stays usable for the next command, and this throws `CancellationError`, as the SQLite store does
    /// with `sqlite3_interrupt`.
    func withCancellableConnection<T: Sendable>(_ body: (PGConnection) throws -> T) async throws -> T {
        try Task.checkCancellation()
        let slot = CancelSlot()
        return try await withTaskCancellationHandler {
            do {
                return try withConnection { connection in
                    guard slot.arm(connection.makeCanceller()) else { throw CancellationError() }
                    defer { slot.disarm() }
                    return try body(connection)
                }
            } catch is PostgresError where Task.isCancelled {
                // The server's "canceling statement due to user request": the command was stopped, not broken.
                throw CancellationError()
            }
        } onCancel: {
            slot.cancel()
        }
    }
}
