import Foundation

/// The two roles `tweetsh store init` creates beside the schema.
public struct PostgresRoles: Hashable, Sendable {
    /// The role that imports: it reads and writes every table.
    public var importer: String
    /// The role that only searches: it reads the tweets, users, media and collections.
    public var reader: String

    /// Roles with these names.
    public init(importer: String = "tweetsh_importer", reader: String = "tweetsh_reader") {
        self.importer = importer
        self.reader = reader
    }
}

extension PostgresStore {
    /// Creates the schema (or brings it up to date) and the importer and reader roles with their passwords, as
    /// `tweetsh store init` does; run it as the database's owner. Roles that exist keep their passwords unless new
    /// ones are given. Returns whether the schema was created or upgraded by this call.
    ///
    /// Role names are quoted by the server (`format('%I')`), and a password travels only as the SCRAM verifier
    /// libpq computes on this machine.
    @discardableResult
    public static func initialize(
        address: String, roles: PostgresRoles = PostgresRoles(), importerPassword: String?, readerPassword: String?
    ) throws -> Bool {
        let connection = try PGConnection(conninfo: address)
        let migrated = try PostgresSchema.migrate(connection)
        for (role, password) in [(roles.importer, importerPassword), (roles.reader, readerPassword)] {
            let exists =
                try connection.scalar(
                    "SELECT count(*) FROM pg_roles WHERE rolname = $1", [.text(role)], doing: "creating roles") ?? 0
            if exists == 0 {
                try runFormatted(connection, "CREATE ROLE %I LOGIN", [role])
            }
            if let password {
                let verifier = try connection.encryptedPassword(password, user: role)
                try runFormatted(connection, "ALTER ROLE %I PASSWORD %L", [role, verifier])
            }
        }
        let database = try connection.rows("SELECT current_database()") { $0.text(0) }.first ?? ""
        let tables = [
            "tweets", "tweet_originals", "users", "media", "collections", "collection_tweets", "tweetsh_schema",
            "imports", "hydrated_ids", "reply_handles", "zstd_dictionaries", "object_originals", "twarc_blocks",
        ]
        for role in [roles.importer, roles.reader] {
            try runFormatted(connection, "GRANT CONNECT ON DATABASE %I TO %I", [database, role])
            try runFormatted(connection, "GRANT USAGE ON SCHEMA public TO %I", [role])
            for table in tables + ["cached_pages"] {
                try runFormatted(connection, "GRANT SELECT ON %I TO %I", [table, role])
            }
        }
        try runFormatted(connection, "GRANT TEMPORARY ON DATABASE %I TO %I", [database, roles.importer])
        for table in tables + ["cached_pages"] where table != "tweetsh_schema" {
            try runFormatted(connection, "GRANT INSERT, UPDATE, DELETE ON %I TO %I", [table, roles.importer])
        }
        return migrated
    }

    /// Has the server build a statement with `format()` (identifiers `%I` and literals `%L` quoted by PostgreSQL
    /// itself), then runs it: DDL takes no bound parameters.
    private static func runFormatted(_ connection: PGConnection, _ template: String, _ values: [String]) throws {
        let placeholders = values.indices.map { "$\($0 + 1)::text" }.joined(separator: ", ")
        let statement =
            try connection.rows(
                "SELECT format($\(values.count + 1)::text, \(placeholders))",
                values.map(PGValue.text) + [.text(template)], doing: "creating roles"
            ) { $0.text(0) }.first ?? ""
        try connection.execute(statement, doing: "creating roles")
    }
}
