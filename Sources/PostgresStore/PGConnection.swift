import CLibPQ
import Foundation

/// One libpq connection, owned by this object: `PQfinish` runs when it goes away, and every `PGresult` is cleared
/// before the call that produced it returns, so no result outlives its statement.
///
/// Not thread-safe: `PostgresStore` hands it to one caller at a time. Every value travels as a parameter
/// (`PQexecParams`), never inside the SQL text.
package final class PGConnection {
    /// The address with any password masked, for messages.
    package let address: String
    private let connection: OpaquePointer

    /// How long a connection attempt waits for the server when the address, `PGCONNECT_TIMEOUT` and the service file
    /// say nothing (libpq's `connect_timeout`, in seconds). libpq's own default is to wait forever: a host that drops
    /// packets held the shell for the system's TCP timeout (about two minutes), and a port that accepts but never
    /// answers, for good.
    package static let defaultConnectTimeout = 10

    /// What tweetsh asks of libpq unless the address (or the environment, or a service file) says otherwise: the
    /// connect timeout above, and TCP keepalives after 30 s of silence, every 10 s, given up after 3 unanswered.
    /// Without them a server that vanished from the network (a VPN or a laptop's Wi-Fi gone) left a command waiting
    /// for the system's default of two hours before "lost the connection"; with them it is about a minute. A long
    /// query is unaffected: the server's system answers the probes while the query runs.
    static let connectionDefaults: [(keyword: String, value: String)] = [
        ("connect_timeout", String(defaultConnectTimeout)),
        ("keepalives_idle", "30"), ("keepalives_interval", "10"), ("keepalives_count", "3"),
    ]

    /// Connects with a libpq connection string or `postgresql://` URL; an empty string uses the `PG*` variables.
    /// Passwords come from the URL, `PGPASSWORD`, `~/.pgpass` or `PGSERVICE`, as libpq finds them.
    package init(conninfo: String) throws {
        address = ConnectionAddress.masked(conninfo)
        guard let connection = Self.connect(conninfo) else {
            throw PostgresError(.internalFailure, address: address, detail: "allocating a connection")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(connection))
            PQfinish(connection)
            throw PostgresError.connecting(message, address: address)
        }
        self.connection = connection
        // Notices (a table that already exists, say) would go to stderr; the store says what it did itself.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
    }

    deinit { PQfinish(connection) }

    /// `PQconnectdbParams` with `connectionDefaults` before the address: libpq processes its keywords in order and
    /// keeps the last value, so anything the address sets still wins. `PGCONNECT_TIMEOUT` leaves the timeout to
    /// libpq; a service (whose file may set any of them, and which libpq reads only for what is not set already)
    /// leaves all of them.
    private static func connect(_ conninfo: String) -> OpaquePointer? {
        let environment = ProcessInfo.processInfo.environment
        guard environment["PGSERVICE"] == nil, !conninfo.contains("service=") else { return PQconnectdb(conninfo) }
        let defaults = connectionDefaults.filter {
            $0.keyword != "connect_timeout" || environment["PGCONNECT_TIMEOUT"] == nil
        }
        // expand_dbname = 1: the address is a connection string or URL, not a database's name (an empty one is
        // skipped, which leaves the `PG*` variables).
        let strings = (defaults.map(\.keyword) + ["dbname"] + defaults.map(\.value) + [conninfo]).map { strdup($0) }
        defer { for string in strings { free(string) } }
        let half = defaults.count + 1
        let keywords = strings[..<half].map { UnsafePointer($0) } + [nil]
        let values = strings[half...].map { UnsafePointer($0) } + [nil]
        return PQconnectdbParams(keywords, values, 1)
    }

    /// The value libpq uses for a connection option (`PQconninfo`), or nil when it has none.
    package func option(_ keyword: String) -> String? {
        guard let options = PQconninfo(connection) else { return nil }
        defer { PQconninfoFree(options) }
        var index = 0
        while let name = options[index].keyword {
            if String(cString: name) == keyword { return options[index].val.map { String(cString: $0) } }
            index += 1
        }
        return nil
    }

    /// Asked before each statement while a command runs: throws once the command was stopped (Ctrl-C, `close()`), so
    /// a cancel that reached the server between two statements, where it does nothing, still stops the command at its
    /// next one (the next `FETCH` of an export, the next batch's `BEGIN`). `ConnectionQueue` sets it around each
    /// command; what a stopped command still owes the server runs through `uninterrupted`.
    package var stopCheck: (() throws -> Void)?

    /// Runs `body` without `stopCheck`: the statements a stopped command still sends (a rollback, an advisory
    /// unlock, the end of a load into an empty store). A `PQcancel` still reaches them.
    @discardableResult
    package func uninterrupted<T>(_ body: () throws -> T) rethrows -> T {
        let check = stopCheck
        stopCheck = nil
        defer { stopCheck = check }
        return try body()
    }

    /// The server process serving this connection (for `pg_terminate_backend` in tests and for logs).
    package var serverProcessID: Int32 { PQbackendPID(connection) }

    /// A handle that asks the server to cancel this connection's running statement, from any thread (`PQgetCancel`).
    package func makeCanceller() -> PGCanceller? {
        PQgetCancel(connection).map(PGCanceller.init)
    }

    /// Whether the connection still works as far as libpq knows (it learns of a lost server on the next command).
    package var isUsable: Bool { PQstatus(connection) == CONNECTION_OK }

    /// Runs a statement that returns no rows; returns the number of rows it changed.
    @discardableResult
    package func execute(_ sql: String, _ parameters: [PGValue] = [], doing: String = "running a command") throws
        -> Int
    {
        try withResult(sql, parameters, doing: doing) { result in Int(String(cString: PQcmdTuples(result))) ?? 0 }
    }

    /// Runs several statements without parameters (a migration's DDL), which `PQexecParams` does not allow.
    package func executeScript(_ sql: String, doing: String) throws {
        try stopCheck?()
        guard let result = PQexec(connection, sql) else { throw error(nil, doing: doing) }
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else { throw error(result, doing: doing) }
    }

    /// The SCRAM verifier of `password` for `user`, computed here by libpq, so a `CREATE ROLE … PASSWORD` carries
    /// the verifier and never the password itself (not to the server, its logs, or `pg_stat_activity`).
    package func encryptedPassword(_ password: String, user: String) throws -> String {
        guard let encrypted = PQencryptPasswordConn(connection, password, user, nil) else {
            throw error(nil, doing: "encrypting a password")
        }
        defer { PQfreemem(encrypted) }
        return String(cString: encrypted)
    }

    /// Runs a query and maps each row; the rows are read before the result is cleared.
    package func rows<T>(
        _ sql: String, _ parameters: [PGValue] = [], doing: String = "reading", _ map: (PGRow) throws -> T
    ) throws -> [T] {
        try withResult(sql, parameters, doing: doing) { result in
            let count = PQntuples(result)
            var mapped: [T] = []
            mapped.reserveCapacity(Int(count))
            for index in 0..<count { mapped.append(try map(PGRow(result: result, index: index))) }
            return mapped
        }
    }

    /// The first column of the first row as an integer, nil when there is no row or it is NULL.
    package func scalar(_ sql: String, _ parameters: [PGValue] = [], doing: String = "reading") throws -> Int64? {
        try rows(sql, parameters, doing: doing) { $0.optionalInt64(0) }.first ?? nil
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    package func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        do {
            let value = try body()
            try execute("COMMIT", doing: "committing")
            return value
        } catch {
            if isUsable { _ = try? uninterrupted { try execute("ROLLBACK") } }
            throw error
        }
    }

    /// Streams `data` (COPY's text format) into the table `COPY … FROM STDIN` names.
    package func copy(_ sql: String, data: [UInt8], doing: String = "copying rows") throws {
        try withResult(sql, [], doing: doing, expecting: PGRES_COPY_IN) { _ in }
        let sent = data.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    PQputCopyData(connection, $0, Int32(buffer.count))
                }
            } ?? 1
        }
        let ended = PQputCopyEnd(connection, nil)
        // The COPY's own outcome comes as the next result; a failed send shows up there too.
        var failure: PostgresError?
        while let result = PQgetResult(connection) {
            if failure == nil, PQresultStatus(result) != PGRES_COMMAND_OK { failure = error(result, doing: doing) }
            PQclear(result)
        }
        if let failure { throw failure }
        if sent != 1 || ended != 1 { throw error(nil, doing: doing) }
    }

    private func withResult<T>(
        _ sql: String, _ parameters: [PGValue], doing: String, expecting: ExecStatusType? = nil,
        _ body: (OpaquePointer) throws -> T
    ) throws -> T {
        try stopCheck?()
        let result = Self.bound(parameters) { values, lengths, formats in
            PQexecParams(connection, sql, Int32(parameters.count), nil, values, lengths, formats, 0)
        }
        guard let result else { throw error(nil, doing: doing) }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        let ok = expecting.map { status == $0 } ?? (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK)
        guard ok else { throw error(result, doing: doing) }
        return try body(result)
    }

    /// Calls `body` with C arrays of the parameters' bytes, lengths and formats (text, or binary for `bytea`), valid
    /// for the duration of the call.
    private static func bound<T>(
        _ parameters: [PGValue],
        _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> T
    ) -> T {
        var storage: [[UInt8]?] = []
        var formats: [Int32] = []
        for parameter in parameters {
            switch parameter {
            case .null: storage.append(nil)
            case .text(let text): storage.append(Array(text.utf8) + [0])
            case .integer(let value): storage.append(Array(String(value).utf8) + [0])
            case .bytes(let bytes): storage.append(bytes)
            }
            if case .bytes = parameter { formats.append(1) } else { formats.append(0) }
        }
        let lengths = storage.map { Int32($0?.count ?? 0) }
        let pointers = storage.map { bytes -> UnsafeMutablePointer<CChar>? in
            guard let bytes else { return nil }
            let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: max(bytes.count, 1))
            bytes.withUnsafeBytes { raw in
                if let base = raw.baseAddress {
                    UnsafeMutableRawPointer(pointer).copyMemory(from: base, byteCount: raw.count)
                }
            }
            return pointer
        }
        defer { for pointer in pointers { pointer?.deallocate() } }
        let constant = pointers.map { UnsafePointer($0) }
        return constant.withUnsafeBufferPointer { values in
            lengths.withUnsafeBufferPointer { lengths in
                formats.withUnsafeBufferPointer { formats in
                    body(values.baseAddress, lengths.baseAddress, formats.baseAddress)
                }
            }
        }
    }

    private func error(_ result: OpaquePointer?, doing: String) -> PostgresError {
        var state: String?
        if let result, let field = PQresultErrorField(result, Int32(UInt8(ascii: "C"))) {
            state = String(cString: field)
        }
        let message = String(cString: PQerrorMessage(connection))
        return PostgresError.command(sqlState: state, message: message, address: address, doing: doing)
    }
}
