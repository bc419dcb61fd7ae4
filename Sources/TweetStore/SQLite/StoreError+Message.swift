import CSQLite
import Foundation

extension StoreError {
    /// An error from SQLite's result `code`, classified by kind. SQLite's message and `sql` go to `diagnostic` only; the
    /// path comes from the connection (`sqlite3_db_filename`), and an operating system error adds its reason.
    init(code: Int32, connection: OpaquePointer?, sql: String? = nil) {
        let kind = Self.kind(ofSQLiteCode: code)
        var path: String?
        if let connection, let name = sqlite3_db_filename(connection, "main") {
            let text = String(cString: name)
            path = text.isEmpty ? nil : text
        }
        var detail: String?
        if let connection, [.cannotOpen, .ioFailure].contains(kind) {
            let number = sqlite3_system_errno(connection)
            if number != 0 { detail = String(cString: strerror(number)).lowercased() }
        }
        self.init(kind, path: path, detail: detail, code: code)
        let message =
            connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        diagnostic = sql.map { "\(message) (in: \($0.prefix(120)))" } ?? message
    }

    /// The kind for an SQLite result code (primary or extended).
    static func kind(ofSQLiteCode code: Int32) -> Kind {
        // SQLITE_IOERR_NOMEM is (SQLITE_IOERR | 12 << 8), a macro Swift does not import.
        if code == SQLITE_IOERR | 12 << 8 { return .outOfMemory }
        switch code & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED: return .locked
        case SQLITE_READONLY: return .readOnly
        case SQLITE_FULL: return .diskFull
        case SQLITE_CORRUPT: return .corrupt
        case SQLITE_NOTADB: return .notAStore
        case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_AUTH: return .cannotOpen
        case SQLITE_IOERR: return .ioFailure
        case SQLITE_NOMEM, SQLITE_TOOBIG: return .outOfMemory
        default: return .internalFailure
        }
    }

    /// True when SQLite stopped because the running operation was interrupted.
    var isInterrupt: Bool { code & 0xFF == SQLITE_INTERRUPT }

    /// The store's file as a sentence names it.
    private var store: String { path.map { "the store \($0)" } ?? "the store" }

    /// ` (detail)` when there is one.
    private var because: String { detail.map { " (\($0))" } ?? "" }

    /// One sentence per kind, naming the file and what can be done.
    var sentence: String {
        switch kind {
        case .locked:
            return "\(store) is locked: another tweetsh or program kept it busy for too long; try again when it is done"
        case .readOnly:
            return "\(store) is read-only\(because), so this change cannot be saved"
        case .diskFull:
            return "the disk holding \(store) is full\(because); free some space and try again"
        case .corrupt:
            return "\(store) is damaged\(because); it was left as it is. Restore it from a backup, or move it away "
                + "and tweetsh will start a new one"
        case .notAStore:
            let file = path ?? "the file"
            return "\(file) is not a tweetsh store\(because); it was left untouched. Choose another file with --store"
        case .newerSchema:
            return "\(store) was written by a newer tweetsh\(because); it was left untouched. Use that newer tweetsh"
        case .cannotOpen:
            return "cannot open \(store)\(because)"
        case .ioFailure:
            return "reading or writing \(store) failed\(because): the disk may be failing or gone"
        case .outOfMemory:
            return "\(store) ran out of memory or hit a size limit\(because)"
        case .closed:
            return "\(store) is closed: tweetsh is ending"
        case .backupFailed:
            return "cannot write the backup \(path ?? "")\(because)"
        case .invalidRequest:
            return detail ?? "the store could not do what was asked"
        case .internalFailure:
            return "\(store) could not do this (SQLite result \(code)); this is a bug in tweetsh, please report it "
                + "with the command you ran"
        }
    }
}
