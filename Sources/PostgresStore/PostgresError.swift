/// A failure of the PostgreSQL store, as a sentence a person can act on.
///
/// libpq's and the server's own text (which can quote SQL, table names or the connection string) stays in
/// `diagnostic` for tests and debugging; `description` never shows it.
public struct PostgresError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure it is; each kind has its own sentence.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// No server answers at the host and port (down, firewalled, or a name that does not resolve).
        case hostUnreachable
        /// The server refused the user name or password.
        case authenticationFailed
        /// The server runs, but the database named in the address does not exist.
        case databaseMissing
        /// The server accepts only encrypted connections (or the client asked for TLS the server lacks).
        case tlsRequired
        /// libpq cannot read the address itself (an unknown option, a value it does not take, a malformed URL);
        /// `detail` says which part, in tweetsh's words. Nothing was sent to any server.
        case invalidAddress
        /// The host's name does not resolve to an address.
        case unknownHost
        /// The role may read but not write (or the server is a read replica).
        case readOnly
        /// The connection was lost while a command ran; the next command connects again.
        case connectionLost
        /// The store was closed while the command ran or waited to run (the shell is ending); a later command
        /// connects again.
        case closed
        /// The database has no tweetsh schema yet (`tweetsh store init` creates it).
        case notInitialized
        /// The schema is older than this tweetsh's, and this user may not upgrade it (`detail`: its version).
        case olderSchema
        /// The schema is newer than this tweetsh knows.
        case newerSchema
        /// A problem with what was asked (a cursor of another search); the detail says which.
        case invalidRequest
        /// Anything else the server reported: a bug to report, described without SQL.
        case internalFailure
    }

    /// What kind of failure.
    public var kind: Kind
    /// The store's address with any password masked (`postgresql://user:***@host/db`).
    public var address: String
    /// Words from the store itself that complete the sentence; never the server's text.
    public var detail: String?
    /// The server's SQLSTATE when it sent one (`42501`), for tests.
    public var sqlState: String?
    /// libpq's or the server's own message, for debugging; never shown.
    var diagnostic: String?

    /// An error of `kind` about the store at `address` (already masked).
    public init(_ kind: Kind, address: String, detail: String? = nil, sqlState: String? = nil) {
        self.kind = kind
        self.address = address
        self.detail = detail
        self.sqlState = sqlState
    }

    /// The sentence the shell prints.
    public var description: String {
        let store = "the PostgreSQL store \(address)"
        switch kind {
        case .hostUnreachable:
            return "cannot reach \(store): no server answers there (is it running, and are host and port right?)"
        case .authenticationFailed:
            return "\(store) refused the login: check the user name and the password "
                + "(PGPASSWORD, ~/.pgpass or PGSERVICE)"
        case .databaseMissing:
            return "\(store) names a database the server does not have; create it, then run `tweetsh store init`"
        case .tlsRequired:
            return "\(store) needs an encrypted connection: add sslmode=require (and sslrootcert=…) to the address"
        case .invalidAddress:
            return
                "the PostgreSQL store address \(address) cannot be used as written: \(detail ?? "libpq cannot read it")"
        case .unknownHost:
            return "cannot reach \(store): its host name does not resolve (is it spelled right?)"
        case .readOnly:
            return "this store is read-only for you (\(address)): ask its owner for the importer role"
        case .connectionLost:
            return "lost the connection to \(store); the next command connects again"
        case .closed:
            return "\(store) was closed before the command finished"
        case .notInitialized:
            return "\(store) has no tweetsh schema yet; run `tweetsh store init` as its owner"
        case .olderSchema:
            return "\(store) holds an older tweetsh schema (version \(detail ?? "?"); this tweetsh uses "
                + "\(PostgresSchema.currentVersion)): open it once as its owner, or run `tweetsh store init`, to upgrade it"
        case .newerSchema:
            return "\(store) was made by a newer tweetsh; update tweetsh to use it"
        case .invalidRequest:
            return detail ?? "the request does not fit this store"
        case .internalFailure:
            return "\(store) failed\(detail.map { " while \($0)" } ?? ""); this is a bug, please report it"
        }
    }
}

extension PostgresError {
    /// Classifies a failed connection attempt. libpq sends no SQLSTATE for these, so its English message decides;
    /// an unknown message counts as an unreachable host, which is what the user sees anyway.
    static func connecting(_ message: String, address: String) -> PostgresError {
        let text = message.lowercased()
        if let problem = addressProblem(message) {
            var error = PostgresError(.invalidAddress, address: address, detail: problem)
            error.diagnostic = message
            return error
        }
        let kind: Kind
        if text.contains("could not translate host name") {
            kind = .unknownHost
        } else if text.contains("password authentication failed") || text.contains("no password supplied")
            || text.contains("authentication failed") || text.contains("role \"") && text.contains("does not exist")
        {
            kind = .authenticationFailed
        } else if text.contains("database \"") && text.contains("does not exist") {
            kind = .databaseMissing
        } else if text.contains("ssl") || text.contains("encryption") {
            kind = .tlsRequired
        } else {
            kind = .hostUnreachable
        }
        var error = PostgresError(kind, address: address)
        error.diagnostic = message
        return error
    }

    /// What is wrong with the address, from libpq's message about it, or nil when the message is about something
    /// else. Only option names go into the sentence, and only names that look like one (a value could be a password).
    static func addressProblem(_ message: String) -> String? {
        /// The first double-quoted text after `marker`.
        func quoted(after marker: String) -> String? {
            guard let range = message.range(of: marker) else { return nil }
            let rest = message[range.upperBound...]
            guard let open = rest.firstIndex(of: "\"") else { return nil }
            let inner = rest[rest.index(after: open)...]
            guard let close = inner.firstIndex(of: "\"") else { return nil }
            return String(inner[..<close])
        }
        func name(_ text: String?) -> String? {
            guard let text, (1...40).contains(text.utf8.count),
                text.utf8.allSatisfy({ ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95 })
            else { return nil }
            return text
        }
        if message.contains("invalid connection option") || message.contains("invalid URI query parameter") {
            let option = name(
                quoted(after: "invalid connection option") ?? quoted(after: "invalid URI query parameter"))
            return "libpq has no connection option "
                + (option.map { "named \($0)" } ?? "by that name") + " (see libpq's parameter keywords)"
        }
        if message.contains("for connection option") {
            let option = name(quoted(after: "for connection option")) ?? "an option"
            return "the value of \(option) must be a whole number"
        }
        if message.contains("invalid port number") { return "the port must be a whole number" }
        if message.hasPrefix("invalid "), let valueRange = message.range(of: " value: ") {
            // `invalid sslmode value: "bogus"`: the option's name stands between the two.
            let option = name(String(message[message.index(message.startIndex, offsetBy: 8)..<valueRange.lowerBound]))
            return "\(option ?? "an option") has a value libpq does not take"
        }
        if message.contains("in connection info string") {
            return message.contains("unterminated quoted string")
                ? "a quoted value is not closed" : "each part must read keyword=value"
        }
        if message.contains("percent-encoded") || message.contains("invalid URI") || message.contains("URI") {
            return "the URL is malformed (a % must start two hex digits)"
        }
        return nil
    }

    /// Classifies a failed command by its SQLSTATE.
    static func command(sqlState: String?, message: String, address: String, doing: String) -> PostgresError {
        let kind: Kind
        switch sqlState {
        case "42501", "25006": kind = .readOnly  // insufficient_privilege, read_only_sql_transaction
        case "28000", "28P01": kind = .authenticationFailed
        case "3D000": kind = .databaseMissing
        case let state? where state.hasPrefix("08") || state.hasPrefix("57P"): kind = .connectionLost
        case nil: kind = .connectionLost  // no result at all: the server went away
        default: kind = .internalFailure
        }
        var error = PostgresError(kind, address: address, detail: kind == .internalFailure ? doing : nil)
        error.sqlState = sqlState
        error.diagnostic = message
        return error
    }
}
