import Foundation
import TweetStore

extension PostgresStore {
    /// Runs `body` on the connection as `withConnection` does, and cancels its statement on the server when the
    /// calling task is cancelled (Ctrl-C in the shell): the server stops the query (SQLSTATE 57014), the
    /// connection stays usable for the next command, and this throws `CancellationError`, as the SQLite store does
    /// with `sqlite3_interrupt`. The cancel is sent from the cancelling thread, never the store's queue (which the
    /// running statement holds). A long `body` checks `slot` between its statements (`CancelSlot.check`).
    func withCancellableConnection<T: Sendable>(
        _ body: @escaping (PGConnection, CancelSlot) throws -> T
    ) async throws -> T {
        try await connections.run(cancellable: true, body)
    }

    /// `withCancellableConnection` for a body with a single statement, or none worth checking between.
    func withCancellableConnection<T: Sendable>(_ body: @escaping (PGConnection) throws -> T) async throws -> T {
        try await connections.run(cancellable: true) { connection, _ in try body(connection) }
    }
}
