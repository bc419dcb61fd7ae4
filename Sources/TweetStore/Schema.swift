/// The store's schema, versioned with `PRAGMA user_version`. Each migration moves the schema up by one version inside
/// one transaction; opening a store runs the ones it has not seen yet.
enum Schema {
    /// One step up: SQL, then (when the step must compute rows) Swift run on the same transaction.
    struct Migration: Sendable {
        var sql: String
        var rebuild: (@Sendable (Connection) throws -> Void)?
        /// Whether `rebuild` indexes every tweet again, so opening the store says it will take a while.
        var reindexes = true
    }

    /// Migrations in order; index 0 takes an empty file to version 1. The collections step is in
    /// Collections/Schema+Collections.swift, the originals step in Schema+Originals.swift, the explore keys step in
    /// Explore/Schema+ExploreKeys.swift.
    static let migrations: [Migration] = [
        Migration(sql: version1), Migration(sql: version2, rebuild: rebuildIndex), scriptIndexMigration,
        replyHandlesMigration, collectionsMigration, Migration(sql: originalsStep), exploreKeysMigration,
    ]

    /// The first schema: `from:`, `to:` and `conversation_id:` used B-tree indexes on `tweets`.
    private static let version1 = """
        CREATE TABLE tweets(
            id INTEGER PRIMARY KEY,
            author_id INTEGER,
            created_at INTEGER,
            conversation_id INTEGER,
            reply_to_user INTEGER,
            lang TEXT,
            flags INTEGER NOT NULL,
            likes INTEGER NOT NULL DEFAULT 0,
            reposts INTEGER NOT NULL DEFAULT 0,
            replies INTEGER NOT NULL DEFAULT 0,
            quotes INTEGER NOT NULL DEFAULT 0,
            text TEXT NOT NULL,
            extra BLOB
        );
        CREATE INDEX tweets_author ON tweets(author_id);
        CREATE INDEX tweets_conversation ON tweets(conversation_id) WHERE conversation_id IS NOT NULL;
        CREATE INDEX tweets_reply_to ON tweets(reply_to_user) WHERE reply_to_user IS NOT NULL;
        CREATE VIRTUAL TABLE tweets_fts USING fts5(
            body, tags, cashtags, mentions, urls,
            content = '',
            tokenize = "unicode61 remove_diacritics 2 tokenchars '_'"
        );
        CREATE TABLE users(
            id INTEGER PRIMARY KEY,
            username TEXT NOT NULL,
            name TEXT NOT NULL,
            profile_image_url TEXT,
            verified INTEGER NOT NULL DEFAULT 0,
            description TEXT,
            location TEXT,
            created_at INTEGER,
            protected INTEGER NOT NULL DEFAULT 0,
            url TEXT,
            metrics BLOB
        );
        CREATE INDEX users_username ON users(username COLLATE NOCASE);
        CREATE TABLE media(
            media_key TEXT PRIMARY KEY,
            type TEXT NOT NULL,
            url TEXT,
            preview_image_url TEXT,
            width INTEGER,
            height INTEGER,
            alt_text TEXT
        ) WITHOUT ROWID;
        CREATE TABLE cached_pages(
            key TEXT NOT NULL,
            cursor TEXT NOT NULL,
            fetched_at REAL NOT NULL,
            page BLOB NOT NULL,
            PRIMARY KEY(key, cursor)
        ) WITHOUT ROWID;
        CREATE TABLE search_history(
            query TEXT NOT NULL,
            source TEXT NOT NULL,
            last_run REAL NOT NULL,
            newest_id INTEGER,
            next_cursor TEXT,
            PRIMARY KEY(query, source)
        ) WITHOUT ROWID;
        CREATE INDEX search_history_recent ON search_history(last_run);
        CREATE TABLE imports(
            path TEXT PRIMARY KEY,
            size INTEGER NOT NULL,
            modified REAL NOT NULL,
            offset INTEGER NOT NULL,
            line INTEGER NOT NULL,
            tweets INTEGER NOT NULL,
            errors INTEGER NOT NULL,
            finished INTEGER NOT NULL
        ) WITHOUT ROWID;
        """

    /// Version 2 moves authors, reply targets and conversations into the full-text index (`refs`, see
    /// `TweetDocument.refs`). A contentless FTS5 table cannot gain a column, so the index is made again from the rows.
    private static let version2 = """
        DROP INDEX tweets_author;
        DROP INDEX tweets_conversation;
        DROP INDEX tweets_reply_to;
        DROP TABLE tweets_fts;
        CREATE VIRTUAL TABLE tweets_fts USING fts5(
            body, tags, cashtags, mentions, urls, refs,
            content = '',
            tokenize = "unicode61 remove_diacritics 2 tokenchars '_'"
        );
        """

    /// Indexes every stored result again, oldest first (FTS5 writes ascending rowids fastest).
    static func rebuildIndex(_ connection: Connection) throws {
        let insert = try connection.prepare(IndexChanges.insert)
        let rows = try connection.prepare(
            "SELECT \(TweetRecord.columns) FROM tweets t WHERE (t.flags & \(TweetFlags.includedOnly.rawValue)) = 0 ORDER BY t.id"
        )
        defer { rows.reset() }
        while try rows.step() {
            let tweet = try TweetRecord.tweet(from: rows)
            try insert.run(Int64(bitPattern: tweet.id.rawValue), TweetDocument(tweet))
        }
    }

    static var currentVersion: Int { migrations.count }

    /// Brings the connection's file up to `currentVersion`, refusing files written by a newer tweetsh.
    ///
    /// Safe when several processes open the same file at once: each step takes the write lock first
    /// (`BEGIN IMMEDIATE`, waiting as long as another process needs to finish its own step), then reads the version
    /// again, and does nothing when another process has already taken the file there.
    ///
    /// `willRebuild` hears how many tweets a step is about to index again, before it starts, so a caller can say why
    /// opening takes a while (about 11 s per million tweets on a 2-core machine). Only the process that runs the step
    /// hears it.
    static func migrate(_ connection: Connection, willRebuild: ((Int) -> Void)? = nil) throws {
        guard try version(of: connection) < currentVersion else { return }
        // Every remaining step runs in one write transaction: the process that takes the lock first upgrades the file
        // the whole way, and the others, reading the version again once they hold the lock, find nothing to do. Step
        // by step, two processes could each take a different indexing step of the same old file.
        try connection.beginImmediate()
        do {
            let start = try Self.version(of: connection)
            if start < currentVersion {
                // Announced once: an old file that takes several indexing steps hears about the upgrade in one line.
                // A new file (version 0) has no tweets to index again.
                if start > 0, let willRebuild,
                    migrations[start...].contains(where: { $0.rebuild != nil && $0.reindexes })
                {
                    let tweets = Int(
                        try connection.scalar(
                            "SELECT count(*) FROM tweets WHERE (flags & \(TweetFlags.includedOnly.rawValue)) = 0") ?? 0)
                    if tweets > 0 { willRebuild(tweets) }
                }
                for target in start..<currentVersion {
                    try connection.execute(migrations[target].sql)
                    try migrations[target].rebuild?(connection)
                    try connection.execute("PRAGMA user_version = \(target + 1)")
                }
                // A new file's index gets the import-friendly FTS5 settings; older stores keep theirs.
                if start == 0 { try connection.execute(newIndexSettings) }
            }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// The file's schema version; a newer one than this tweetsh knows is refused.
    private static func version(of connection: Connection) throws -> Int {
        let version = Int(try connection.scalar("PRAGMA user_version") ?? 0)
        if version > currentVersion {
            throw StoreError(
                .newerSchema, path: connection.path, detail: "schema \(version); this one knows \(currentVersion)")
        }
        return version
    }
}
