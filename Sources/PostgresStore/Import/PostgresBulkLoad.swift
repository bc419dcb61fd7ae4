/// How an import into an empty store builds its text index: once, after the load, instead of row by row.
///
/// Maintaining the GIN index on `tweets.doc` while rows arrive costs the server more than the rows themselves; building
/// it from the finished table is several times cheaper. So an import that finds the store empty drops the index,
/// loads, then creates it again (`finish`). Searches keep working meanwhile, without the index.
///
/// A session advisory lock marks a bulk load in progress. It goes with the importer's connection, so an importer that
/// dies leaves no lock behind, only the missing index: the next import that can take the lock and finds the index
/// missing in a store that holds tweets creates it before it writes. Only the table's owner may drop or create the
/// index; an importer role without that right simply imports with the index in place.
enum PostgresBulkLoad {
    /// The advisory lock a bulk load holds: the migrations' key plus one.
    static let lockKey = PostgresSchema.lockKey + 1

    /// Prepares an import: returns true when this connection now holds the bulk lock and the index is to be built by
    /// `finish` after the load; repairs an index a killed bulk load left missing.
    static func begin(_ connection: PGConnection) throws -> Bool {
        guard try connection.scalar("SELECT pg_try_advisory_lock($1)::int", [.integer(lockKey)]) == 1 else {
            // Another import is bulk loading; its `finish` builds the index.
            return false
        }
        do {
            let hasIndex = try connection.scalar("SELECT (to_regclass('tweets_doc') IS NOT NULL)::int") == 1
            let empty = try connection.scalar("SELECT (NOT EXISTS (SELECT 1 FROM tweets))::int") == 1
            let owns =
                try connection.scalar(
                    "SELECT pg_has_role(relowner, 'USAGE')::int FROM pg_class WHERE oid = 'tweets'::regclass") == 1
            switch (empty, hasIndex, owns) {
            case (true, true, true):
                try connection.execute("DROP INDEX IF EXISTS tweets_doc", doing: "preparing an import")
                try setAutovacuum(connection, enabled: false)
                return true
            case (true, false, true):
                try setAutovacuum(connection, enabled: false)
                return true
            case (false, false, true):
                try createIndex(connection)
                try setAutovacuum(connection, enabled: true)
            case (false, true, true):
                // Killed between the index build and `finish` turning autovacuum back on.
                if try autovacuumLeftOff(connection) { try setAutovacuum(connection, enabled: true) }
            default:
                break
            }
        } catch {
            _ = try? unlock(connection)
            throw error
        }
        try unlock(connection)
        return false
    }

    /// Builds the index after a bulk load, turns autovacuum back on, refreshes the planner's statistics, and releases
    /// the lock.
    static func finish(_ connection: PGConnection) throws {
        defer { _ = try? unlock(connection) }
        try createIndex(connection)
        try setAutovacuum(connection, enabled: true)
        try connection.execute("ANALYZE tweets", doing: "indexing the import")
    }

    /// Autovacuum off for the tables a bulk load fills, and back to the server's setting afterwards.
    ///
    /// While `tweets` grows from empty, autovacuum analyzes it at every tenth more rows, each time sampling up to
    /// 300,000 documents at `doc`'s statistics target of 1,000 (schema 2), and vacuums `tweet_originals` for its
    /// inserts; the load's `ANALYZE` at the end is the one that counts. A killed load leaves autovacuum off with the
    /// index missing, and the repair in `begin` turns both back.
    private static func autovacuumLeftOff(_ connection: PGConnection) throws -> Bool {
        try connection.scalar(
            "SELECT (coalesce(reloptions, '{}') @> ARRAY['autovacuum_enabled=false'])::int FROM pg_class "
                + "WHERE oid = 'tweets'::regclass") == 1
    }

    private static func setAutovacuum(_ connection: PGConnection, enabled: Bool) throws {
        for table in ["tweets", "tweet_originals"] {
            let change = enabled ? "RESET (autovacuum_enabled)" : "SET (autovacuum_enabled = false)"
            try connection.execute("ALTER TABLE \(table) \(change)", doing: "preparing an import")
        }
    }

    private static func createIndex(_ connection: PGConnection) throws {
        // More sort memory than the default 64 MB lets the build work in fewer passes; it is this session's only.
        try connection.execute("SET maintenance_work_mem = '512MB'", doing: "indexing the import")
        try connection.execute(
            "CREATE INDEX IF NOT EXISTS tweets_doc ON tweets USING gin(doc)", doing: "indexing the import")
        try connection.execute("RESET maintenance_work_mem", doing: "indexing the import")
    }

    private static func unlock(_ connection: PGConnection) throws {
        try connection.uninterrupted { try connection.execute("SELECT pg_advisory_unlock($1)", [.integer(lockKey)]) }
    }
}
