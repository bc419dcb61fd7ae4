/// A failure inside the store, as a sentence a person can act on: what happened, to which file, and what to do.
///
/// SQLite's own message and the SQL that failed are kept in `diagnostic` for tests and debugging and never appear in
/// `message` or `description`: they mean nothing to a user and would print the store's internals.
public struct StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure it is; every kind has its own sentence (`StoreError+Message.swift`).
    public enum Kind: String, CaseIterable, Hashable, Sendable {
        /// Another connection held the write lock longer than the store waits.
        case locked
        /// The file, its folder or the way it was opened does not allow writing.
        case readOnly
        /// The disk (or a size limit) has no room for the change.
        case diskFull
        /// SQLite found damaged pages, or a stored record does not decode.
        case corrupt
        /// The file is not an SQLite database, or is one without tweetsh's schema.
        case notAStore
        /// The file's schema is newer than this tweetsh knows.
        case newerSchema
        /// The file or its folder cannot be opened or created.
        case cannotOpen
        /// The operating system reported an I/O error.
        case ioFailure
        /// Memory, or one of SQLite's size limits, ran out.
        case outOfMemory
        /// The store was closed (the shell is ending) before the operation ran.
        case closed
        /// A backup could not be written.
        case backupFailed
        /// A problem with what was asked (a cursor of another search, a malformed username); the message says which.
        case invalidRequest
        /// Anything else SQLite reported: a bug to report, described without SQL.
        case internalFailure
    }

    /// What kind of failure.
    public var kind: Kind
    /// The file concerned (the store, or a backup's target); nil for an in-memory store or when not yet known.
    public var path: String?
    /// Words from the store itself that complete the sentence: a reason (`its folder /x is not writable`), or the whole
    /// message of an `invalidRequest`. Never SQLite's text.
    public var detail: String?
    /// SQLite's result code (`SQLITE_BUSY`, `SQLITE_CORRUPT`, ...), or 0 for errors raised by the store itself.
    public var code: Int32
    /// SQLite's message and the start of the failed SQL, for debugging; not shown to users.
    var diagnostic: String?

    /// An error of `kind` about `path`, with the store's own `detail`.
    public init(_ kind: Kind, path: String? = nil, detail: String? = nil, code: Int32 = 0) {
        self.kind = kind
        self.path = path
        self.detail = detail
        self.code = code
    }

    /// A problem with what was asked of the store, described by `message` (which must not hold SQLite's text).
    public init(code: Int32 = 0, message: String) {
        self.init(.invalidRequest, detail: message, code: code)
    }

    /// The sentence shown to the user.
    public var message: String { sentence }

    /// `store: <message>`.
    public var description: String { "store: \(message)" }
}
