import CSQLite

/// A value bound to a statement parameter.
enum SQLValue: Sendable, Hashable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
    case null
}

/// SQLite copies bound strings and blobs at once, so Swift's temporary buffers may go away after the call.
/// (`SQLITE_TRANSIENT` is a C macro Swift cannot import.)
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One prepared statement. Owned by a `Connection`, which finalizes it before closing.
final class Statement {
    /// A `let`, not a var that `finalize` clears: every bind and column read touches it, and a mutable class property
    /// costs a dynamic exclusivity check on each access.
    let handle: OpaquePointer
    let sql: String
    private var isFinalized = false

    init(handle: OpaquePointer, sql: String) {
        self.handle = handle
        self.sql = sql
    }

    deinit { finalize() }

    /// Releases SQLite's statement; the object must not be used afterwards (the connection only does this on close).
    func finalize() {
        if !isFinalized { sqlite3_finalize(handle) }
        isFinalized = true
    }

    /// Clears the previous run's state and bindings so a cached statement starts clean.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func bind(_ values: [SQLValue]) {
        for (offset, value) in values.enumerated() { bind(value, at: Int32(offset + 1)) }
    }

    func bind(_ value: SQLValue, at index: Int32) {
        switch value {
        case .integer(let v): sqlite3_bind_int64(handle, index, v)
        case .real(let v): sqlite3_bind_double(handle, index, v)
        case .text(let v): bindText(v, at: index)
        case .blob(let bytes):
            bytes.withUnsafeBytes { raw in
                _ = sqlite3_bind_blob(
                    handle, index, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(raw.count), transient)
            }
        case .null: sqlite3_bind_null(handle, index)
        }
    }

    func bind(_ value: Int64?, at index: Int32) {
        if let value { sqlite3_bind_int64(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    func bind(_ value: String?, at index: Int32) {
        if let value { bindText(value, at: index) } else { sqlite3_bind_null(handle, index) }
    }

    private func bindText(_ value: String, at index: Int32) {
        var value = value
        value.withUTF8 { utf8 in
            // An empty buffer may have no address, which SQLite would read as NULL rather than "".
            let base = utf8.baseAddress.map { UnsafeRawPointer($0) } ?? UnsafeRawPointer(("" as StaticString).utf8Start)
            _ = sqlite3_bind_text(handle, index, base.assumingMemoryBound(to: CChar.self), Int32(utf8.count), transient)
        }
    }

    /// Advances; true when a row is available. Errors carry the connection's message.
    func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw StoreError(code: code, connection: sqlite3_db_handle(handle), sql: sql)
        }
    }

    /// Runs a statement that returns no rows.
    func run(_ values: [SQLValue] = []) throws {
        defer { reset() }
        bind(values)
        while try step() {}
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

    func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }

    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }

    func blob(_ column: Int32) -> [UInt8] {
        guard let bytes = sqlite3_column_blob(handle, column) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, column))
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }
}
