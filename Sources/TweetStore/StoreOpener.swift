import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Opens a store's file safely, whatever else is happening to it.
///
/// - Any number of processes may open the same new or old file at once: the schema is created or migrated under
///   `BEGIN IMMEDIATE`, and the version is read again once the lock is held (`Schema.migrate`).
/// - A file or folder that cannot be written opens read-only, for searching; a store that would need writing to be
///   usable (a new one, or one to upgrade) is refused with the reason.
/// - A file that is not an SQLite database, or one without tweetsh's schema, is refused before anything is written
///   to it, not even the switch to WAL, so it is never overwritten.
struct StoreOpener {
    /// The connection, configured and current, and why it is read-only when it is.
    struct Opened {
        var connection: Connection
        var readOnlyReason: String?
    }

    /// The tables every tweetsh store has had since version 1; a file claiming a version without them is foreign.
    private static let requiredTables = ["tweets", "tweets_fts", "users", "search_history"]

    var willUpgrade: ((Int) -> Void)?

    /// Opens `location`.
    func open(_ location: StoreLocation) throws -> Opened {
        guard case .file = location else {
            return try openWritable(Connection(path: ":memory:"), isFile: false)
        }
        let path = location.sqlitePath
        if path.hasPrefix("file:") {
            // An SQLite URI, such as `file:/data/tweets.sqlite?mode=ro`: SQLite decides what it allows.
            let connection = try Connection(path: path, uri: true)
            if connection.isReadOnly { return try openReadOnly(connection, reason: "it was opened read-only") }
            return try openWritable(connection, isFile: true)
        }
        let folder = Self.folder(of: path)
        let files = FileManager.default
        if !files.fileExists(atPath: folder) {
            do {
                try files.createDirectory(
                    atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw StoreError(.cannotOpen, path: path, detail: "its folder \(folder) cannot be created")
            }
        }
        var isFolder: ObjCBool = false
        let exists = files.fileExists(atPath: path, isDirectory: &isFolder)
        if isFolder.boolValue { throw StoreError(.cannotOpen, path: path, detail: "it is a folder") }
        let folderIsWritable = access(folder, W_OK) == 0
        guard exists else {
            guard folderIsWritable else {
                throw StoreError(
                    .readOnly, path: path, detail: "its folder \(folder) is not writable, so no store can be created")
            }
            return try openWritable(Connection(path: path), isFile: true)
        }
        if access(path, R_OK) != 0 {
            throw StoreError(.cannotOpen, path: path, detail: String(cString: strerror(errno)).lowercased())
        }
        // A writable file in a read-only folder is still read-only for a store in WAL mode, which must be able to
        // create its `-wal` and `-shm` files beside it.
        if !folderIsWritable { return try openReadOnly(path: path, reason: "its folder \(folder) is not writable") }
        if access(path, W_OK) != 0 { return try openReadOnly(path: path, reason: "the file is not writable") }
        let connection = try Connection(path: path)
        if connection.isReadOnly { return try openReadOnly(connection, reason: "the file is not writable") }
        return try openWritable(connection, isFile: true)
    }

    private func openWritable(_ connection: Connection, isFile: Bool) throws -> Opened {
        let version = try Self.check(connection)
        // A file without tables yet takes the page size new stores are made with; SQLite ignores it afterwards.
        if version == 0 { try connection.execute("PRAGMA page_size = \(Schema.newStorePageSize)") }
        if isFile { try Self.enableWAL(connection) }
        try Self.configure(connection)
        try Schema.migrate(connection, willRebuild: willUpgrade)
        connection.checkpointsOnClose = isFile
        return Opened(connection: connection, readOnlyReason: nil)
    }

    /// Opens `path` read-only. SQLite reads a WAL-mode file read-only only when its `-shm` file exists or can be
    /// created; in a read-only folder without one, the file is opened as immutable (no locks, no log): nobody can
    /// write there, so nothing can change under the reader.
    private func openReadOnly(path: String, reason: String) throws -> Opened {
        let base = "file:" + Self.uriEscaped(path)
        do {
            return try openReadOnly(Connection(path: base + "?mode=ro", readOnly: true, uri: true), reason: reason)
        } catch let error as StoreError where [.cannotOpen, .readOnly].contains(error.kind) {
            return try openReadOnly(Connection(path: base + "?immutable=1", readOnly: true, uri: true), reason: reason)
        }
    }

    private func openReadOnly(_ connection: Connection, reason: String) throws -> Opened {
        let version = try Self.check(connection)
        if version == 0 {
            throw StoreError(.readOnly, path: connection.path, detail: "\(reason); it holds no store yet")
        }
        if version < Schema.currentVersion {
            throw StoreError(
                .readOnly, path: connection.path,
                detail: "\(reason); it was written by an older tweetsh and must be opened once with write access "
                    + "to be upgraded")
        }
        try Self.configure(connection)
        return Opened(connection: connection, readOnlyReason: reason)
    }

    /// Reads the file's schema version and refuses what is not a tweetsh store: not SQLite, SQLite with other
    /// tables, or a newer schema. Reads only.
    static func check(_ connection: Connection) throws -> Int {
        let version: Int
        let tables: [String]
        do {
            // One read transaction, so both come from the same snapshot: another process creating the schema
            // commits its tables and its version together.
            try connection.execute("BEGIN")
            defer { try? connection.execute("COMMIT") }
            version = Int(try connection.scalar("PRAGMA user_version") ?? 0)
            tables = try connection.rows("SELECT name FROM sqlite_schema WHERE type = 'table'") { $0.text(0) }
        } catch var error as StoreError where error.kind == .notAStore {
            error.detail = "it is not an SQLite database"
            throw error
        }
        if version > Schema.currentVersion {
            throw StoreError(
                .newerSchema, path: connection.path,
                detail: "schema \(version); this one knows \(Schema.currentVersion)")
        }
        if version == 0, !tables.isEmpty {
            throw StoreError(
                .notAStore, path: connection.path, detail: "it is an SQLite database holding other tables")
        }
        if version > 0, !requiredTables.allSatisfy(tables.contains) {
            throw StoreError(
                .notAStore, path: connection.path, detail: "it is an SQLite database without tweetsh's tables")
        }
        return version
    }

    /// Switches the file to WAL. That needs a moment with no other connection reading a file still in rollback mode
    /// (a new store being created by another process), so a busy answer is tried again for a while.
    static func enableWAL(_ connection: Connection) throws {
        let deadline = Date().addingTimeInterval(30)
        while true {
            do {
                if try connection.rows("PRAGMA journal_mode = WAL", [], { $0.text(0) }) == ["wal"] { return }
            } catch let error as StoreError where error.kind == .locked {
                // Retried below.
            }
            if Date() > deadline { throw StoreError(.locked, path: connection.path, detail: "switching it to WAL") }
            usleep(5_000)
        }
    }

    /// WAL with synchronous=NORMAL: a crash can lose the last commits but never corrupts the file.
    private static func configure(_ connection: Connection) throws {
        try connection.execute(
            "PRAGMA synchronous = NORMAL; PRAGMA cache_size = -65536; PRAGMA temp_store = MEMORY; "
                + "PRAGMA mmap_size = 268435456; PRAGMA wal_autocheckpoint = 8192")
    }

    static func folder(of path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }

    /// `path` as the path of a `file:` URI: the characters a URI gives meaning to are escaped.
    static func uriEscaped(_ path: String) -> String {
        var result = ""
        for character in path {
            switch character {
            case "%": result += "%25"
            case "?": result += "%3F"
            case "#": result += "%23"
            default: result.append(character)
            }
        }
        return result
    }
}
