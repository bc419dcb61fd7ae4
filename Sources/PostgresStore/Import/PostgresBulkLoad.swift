/// How an import into an empty store keeps its text index and statistics: autovacuum off during the load, the GIN
/// index's pending list merged and the table analyzed once at the end.
///
/// The GIN index on `tweets.doc` stays and takes the rows as they come: with `fastupdate` (PostgreSQL's default) each
/// batch's entries go to the index's pending list, which the inserting session merges into the index whenever it
/// outgrows `gin_pending_list_limit`. That work runs during the load, beside the client decoding the next batches.
/// An earlier version dropped the index and built it once after the load; the build then ran alone on one core for
/// a third of the import, and the whole import was 1.3 times slower (docs/benchmarks.md, "The text index kept during
/// the load").
///
/// A session advisory lock marks a load in progress. It goes with the importer's connection, so an importer that dies
/// leaves no lock behind, only autovacuum off (or, from a tweetsh that dropped the index, no index): the next import
/// that can take the lock repairs both before it writes. Only the table's owner may change its settings; an importer
/// role without that right simply imports.
enum PostgresBulkLoad {
    /// The advisory lock a bulk load holds: the migrations' key plus one.
    static let lockKey = PostgresSchema.lockKey + 1

    /// Prepares an import: returns true when this connection now holds the bulk lock and `finish` is to end the load;
    /// repairs what a killed load left (autovacuum off, or a missing index).
    static func begin(_ connection: PGConnection) throws -> Bool {
        guard try connection.scalar("SELECT pg_try_advisory_lock($1)::int", [.integer(lockKey)]) == 1 else {
            // Another import is loading into the empty store; its `finish` ends the load.
            return false
        }
        do {
            let hasIndex = try connection.scalar("SELECT (to_regclass('tweets_doc') IS NOT NULL)::int") == 1
            let empty = try connection.scalar("SELECT (NOT EXISTS (SELECT 1 FROM tweets))::int") == 1
            let owns =
                try connection.scalar(
                    "SELECT pg_has_role(relowner, 'USAGE')::int FROM pg_class WHERE oid = 'tweets'::regclass") == 1
            switch (empty, hasIndex, owns) {
            case (true, _, true):
                if !hasIndex { try createIndex(connection) }
                try setAutovacuum(connection, enabled: false)
                return true
            case (false, false, true):
                try createIndex(connection)
                try setAutovacuum(connection, enabled: true)
            case (false, true, true):
                // Killed before `finish` turned autovacuum back on.
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

    /// Ends a load: merges what is left in the index's pending list (so searches need not scan it), turns autovacuum
    /// back on, refreshes the planner's statistics (every column of `tweets`, and its statistics object on `flags & 128`),
    /// and releases the lock.
    static func finish(_ connection: PGConnection) throws {
        defer { _ = try? unlock(connection) }
        // `begin` made sure the index is there.
        _ = try connection.scalar("SELECT gin_clean_pending_list('tweets_doc')", doing: "indexing the import")
        try setAutovacuum(connection, enabled: true)
        // The document first, with its own sample, then the other columns with theirs. `doc`'s statistics target of
        // 1,000 (schema 2) makes one `ANALYZE tweets` sample 300,000 rows for every column, and sorting that many
        // texts took longer than the documents' statistics: 3.0 s at 1M tweets, against 1.1 + 0.24 s.
        try connection.execute("ANALYZE tweets (doc)", doing: "indexing the import")
        let others = TweetRow.columns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0 != "doc" }
        try connection.execute("ANALYZE tweets (\(others.joined(separator: ", ")))", doing: "indexing the import")
    }

    /// Autovacuum off for the tables a bulk load fills, and back to the server's setting afterwards.
    ///
    /// While `tweets` grows from empty, autovacuum analyzes it at every tenth more rows, each time sampling up to
    /// 300,000 documents at `doc`'s statistics target of 1,000 (schema 2), and vacuums `tweet_originals` for its
    /// inserts; the load's `ANALYZE` at the end is the one that counts. A killed load leaves autovacuum off, and the
    /// repair in `begin` turns it back on.
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

    /// Creates the index when it is missing: on an empty table, before a load, that takes no time; a store left
    /// without one by an earlier tweetsh's killed load builds it from its rows.
    private static func createIndex(_ connection: PGConnection) throws {
        // More sort memory than the default 64 MB lets a build work in fewer passes; it is this session's only.
        try connection.execute("SET maintenance_work_mem = '512MB'", doing: "indexing the import")
        try connection.execute(
            "CREATE INDEX IF NOT EXISTS tweets_doc ON tweets USING gin(doc)", doing: "indexing the import")
        try connection.execute("RESET maintenance_work_mem", doing: "indexing the import")
    }

    private static func unlock(_ connection: PGConnection) throws {
        try connection.uninterrupted { try connection.execute("SELECT pg_advisory_unlock($1)", [.integer(lockKey)]) }
    }
}
