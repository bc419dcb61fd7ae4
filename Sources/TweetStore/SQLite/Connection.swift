import CSQLite
import Foundation
import Synchronization

/// A cancellation flag shared between the task that asked for an operation and SQLite's progress handler.
final class CancelToken: Sendable {
    private let flag = Atomic<Bool>(false)
    var isCancelled: Bool { flag.load(ordering: .relaxed) }
    func cancel() { flag.store(true, ordering: .relaxed) }
}

/// Owns one SQLite connection and its prepared statements.
///
/// Not thread-safe by itself: `Database` confines it to one serial queue. The progress handler consults the token of the
/// operation running now, so cancelling one task can never interrupt a different task's statement.
final class Connection {
    /// A `let` for the same reason as `Statement.handle`: no exclusivity check on every use.
    let db: OpaquePointer
    private var isClosed = false
    private var statements: [String: Statement] = [:]
    /// The cancellation token of the operation in progress, set by `Database`.
    var currentToken: CancelToken?
    /// Fingerprints of users already written through this connection, so repeated authors cost a lookup, not a write.
    /// Cleared when a write fails, since the rolled-back rows may be among them.
    var writtenUsers: [UInt64: Int] = [:]
    /// The codec of the store's originals (shared with the tasks that prepare batches).
    let codec = OriginalsCodec()
    /// Dictionaries known to be committed, and ones written by the open transaction.
    var storedDictionaries = Set<UInt32>()
    var pendingDictionaries = Set<UInt32>()
    /// Bounds the statement cache; search SQL varies with the query's shape.
    private let statementLimit = 96

    /// Set when the store closes: the running statement stops at its next progress check, whatever its token.
    let shutdown = CancelToken()
    /// Whether `close` first folds the write-ahead log into the database file (a writable file store).
    var checkpointsOnClose = false

    /// Library-wide settings, made once before the first connection opens (SQLite accepts them only before it
    /// initialises). Memory statistics off: their global mutex, taken on every allocation, cost an import's writer
    /// thread about 2% of its time, and nothing reads them.
    private static let configureLibrary: Void = { _ = csqlite_disable_memory_statistics() }()

    /// Opens `path` (a file name, `:memory:`, or a `file:` URI when `uri` is set) for reading and writing, creating
    /// it when missing, or for reading only. Fails with the path and the operating system's reason.
    init(path: String, readOnly: Bool = false, uri: Bool = false) throws {
        Self.configureLibrary
        var handle: OpaquePointer?
        var flags = SQLITE_OPEN_NOMUTEX | (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        if uri { flags |= SQLITE_OPEN_URI }
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            var error = StoreError(code: code, connection: handle)
            if error.path == nil, !uri { error.path = path }
            sqlite3_close_v2(handle)
            throw error
        }
        db = handle
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, 5_000)
        sqlite3_progress_handler(
            handle, 2_000,
            { context in
                guard let context else { return 0 }
                let connection = Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue()
                return connection.currentToken?.isCancelled == true || connection.shutdown.isCancelled ? 1 : 0
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit { close() }

    /// The database file's path as SQLite resolved it; empty for an in-memory database.
    var path: String { sqlite3_db_filename(db, "main").map { String(cString: $0) } ?? "" }

    /// True when the connection cannot write (opened read-only, or SQLite found the file read-only).
    var isReadOnly: Bool { sqlite3_db_readonly(db, "main") == 1 }

    /// How long a statement waits for another connection's lock before failing with `locked`.
    func setBusyTimeout(milliseconds: Int32) { sqlite3_busy_timeout(db, milliseconds) }

    /// Finalizes every statement, folds the write-ahead log into the file when `checkpointsOnClose` (waiting at most a
    /// second for other connections: when one is busy, it is not the last, and it checkpoints when it closes), then
    /// closes. Unfinalized statements would keep `sqlite3_close_v2` from closing, and so from checkpointing.
    func close() {
        for statement in statements.values { statement.finalize() }
        statements.removeAll()
        guard !isClosed else { return }
        isClosed = true
        sqlite3_progress_handler(db, 0, nil, nil)
        if checkpointsOnClose {
            sqlite3_busy_timeout(db, 1_000)
            sqlite3_wal_checkpoint_v2(db, nil, SQLITE_CHECKPOINT_TRUNCATE, nil, nil)
        }
        sqlite3_close_v2(db)
    }

    /// Runs SQL text that may hold several statements and returns no rows.
    func execute(_ sql: String) throws {
        let code = sqlite3_exec(db, sql, nil, nil, nil)
        if code != SQLITE_OK { throw StoreError(code: code, connection: db, sql: sql) }
    }

    /// A cached prepared statement for `sql`.
    func prepare(_ sql: String) throws -> Statement {
        if let cached = statements[sql] { return cached }
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        guard code == SQLITE_OK, let handle else {
            throw StoreError(code: code, connection: db, sql: sql)
        }
        if statements.count >= statementLimit {
            // Dropped, not finalized: a statement still held by a caller (a Writer) finalizes when released.
            statements.removeAll()
        }

        let statement = Statement(handle: handle, sql: sql)
        statements[sql] = statement
        return statement
    }

    /// Runs `body` with the statement for `sql`, bound to `values`, and resets it afterwards whatever happens.
    func withStatement<T>(_ sql: String, _ values: [SQLValue] = [], _ body: (Statement) throws -> T) throws -> T {
        let statement = try prepare(sql)
        defer { statement.reset() }
        statement.bind(values)
        return try body(statement)
    }

    /// Runs `sql` and collects one value per row.
    func rows<T>(_ sql: String, _ values: [SQLValue] = [], _ read: (Statement) throws -> T) throws -> [T] {
        try withStatement(sql, values) { statement in
            var result: [T] = []
            while try statement.step() { result.append(try read(statement)) }
            return result
        }
    }

    /// The first column of the first row as an integer, if there is a row.
    func scalar(_ sql: String, _ values: [SQLValue] = []) throws -> Int64? {
        try withStatement(sql, values) { statement in
            try statement.step() && !statement.isNull(0) ? statement.int64(0) : nil
        }
    }

    /// Starts a write transaction, waiting for the write lock as long as `patience` allows: longer than the busy
    /// timeout, because another process may be upgrading the store, which takes seconds per million tweets.
    func beginImmediate(patience: TimeInterval = 600) throws {
        let deadline = Date().addingTimeInterval(patience)
        while true {
            do {
                try execute("BEGIN IMMEDIATE")
                return
            } catch let error as StoreError where error.kind == .locked && Date() < deadline {
                // Each attempt has already waited the busy timeout.
            }
        }
    }

    /// Runs `body` in a write transaction: all of it is committed, or none of it.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            storedDictionaries.formUnion(pendingDictionaries)
            pendingDictionaries.removeAll()
            return result
        } catch {
            try? execute("ROLLBACK")
            writtenUsers.removeAll()
            pendingDictionaries.removeAll()
            throw error
        }
    }

    /// Runs `body`'s statements in one read transaction (inside a running transaction, in that one).
    ///
    /// Outside a transaction every statement takes and drops SQLite's file and WAL read locks, a few `fcntl` calls
    /// each; a page of results reads its rows, then its users, media and included tweets one lookup at a time, and
    /// those locks cost an export a tenth of its time. One transaction also reads the whole page from one snapshot.
    func readTransaction<T>(_ body: () throws -> T) throws -> T {
        guard sqlite3_get_autocommit(db) != 0 else { return try body() }
        try execute("BEGIN")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    var changes: Int { Int(sqlite3_changes(db)) }
}
