import Dispatch

/// Serializes every use of one `Connection` on a private queue and bridges it to async callers with cancellation.
///
/// `@unchecked Sendable` because the connection is only ever touched on `queue`.
final class Database: @unchecked Sendable {
    private let queue: DispatchQueue
    private let connection: Connection
    /// Only read and written on `queue`.
    private var isClosed = false

    init(connection: Connection, label: String) {
        self.connection = connection
        let path = connection.path
        storePath = path.isEmpty ? nil : path
        self.queue = DispatchQueue(label: label, qos: .userInitiated)
    }

    /// Stops the statement running now (its transaction rolls back), waits for it, then closes the connection; work
    /// queued afterwards fails with `StoreError.Kind.closed`. Safe from any thread but the queue's own, and more than
    /// once.
    func close() {
        connection.shutdown.cancel()
        queue.sync {
            guard !isClosed else { return }
            isClosed = true
            connection.close()
        }
    }

    /// Runs `body` on the connection's queue. Cancelling the calling task stops SQLite at its next progress check and
    /// throws `CancellationError`; a write in progress rolls back with its transaction.
    func run<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T {
        let token = CancelToken()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
                queue.async {
                    continuation.resume(with: Result { try self.perform(token: token, body) })
                }
            }
        } onCancel: {
            token.cancel()
        }
    }

    /// Queues `body` at once, behind everything queued before, and returns without waiting. It is not cancelled with
    /// the calling task: an import's batches must commit whole, in order, with their progress records.
    func enqueue<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) -> PendingWrite<T> {
        let pending = PendingWrite<T>()
        let token = CancelToken()
        queue.async {
            pending.complete(Result { try self.perform(token: token, body) })
        }
        return pending
    }

    /// The file, for messages; nil in memory. Read once: the connection cannot say after it closes.
    private let storePath: String?

    private func perform<T>(token: CancelToken, _ body: (Connection) throws -> T) throws -> T {
        if token.isCancelled { throw CancellationError() }
        if isClosed || connection.shutdown.isCancelled { throw StoreError(.closed, path: storePath) }
        connection.currentToken = token
        defer { connection.currentToken = nil }
        do {
            return try body(connection)
        } catch var error as StoreError {
            if error.isInterrupt && token.isCancelled { throw CancellationError() }
            if error.isInterrupt && connection.shutdown.isCancelled { throw StoreError(.closed, path: storePath) }
            // Errors raised by the store's own code (a damaged record, a bad cursor) learn which file they concern.
            if error.path == nil { error.path = storePath }
            throw error
        }
    }
}
