import CSQLite

/// A failure inside the store: SQLite's own code and message, or a problem with what was asked of it.
public struct StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// SQLite's result code (`SQLITE_BUSY`, `SQLITE_CORRUPT`, ...), or 0 for errors raised by the store itself.
    public var code: Int32
    /// What went wrong.
    public var message: String

    /// Creates an error.
    public init(code: Int32 = 0, message: String) {
        self.code = code
        self.message = message
    }

    init(code: Int32, connection: OpaquePointer?, sql: String? = nil) {
        let detail =
            connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        self.code = code
        self.message = sql.map { "\(detail) (in: \($0.prefix(120)))" } ?? detail
    }

    /// `store: <message>`.
    public var description: String { "store: \(message)" }

    /// True when SQLite stopped because the running operation was cancelled.
    var isInterrupt: Bool { code == SQLITE_INTERRUPT }
}
