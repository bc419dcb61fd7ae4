/// The store's schema, versioned with `PRAGMA user_version`. Each migration moves the schema up by one version inside
/// one transaction; opening a store runs the ones it has not seen yet.
enum Schema {
    /// Migrations in order; index 0 takes an empty file to version 1.
    static let migrations: [String] = [
        """
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
        """,
    ]

    static var currentVersion: Int { migrations.count }

    /// Brings the connection's file up to `currentVersion`, refusing files written by a newer tweetsh.
    static func migrate(_ connection: Connection) throws {
        let version = Int(try connection.scalar("PRAGMA user_version") ?? 0)
        if version > currentVersion {
            throw StoreError(message: "the store was written by a newer tweetsh (schema \(version), this one knows \(currentVersion))")
        }
        for target in version..<currentVersion {
            try connection.transaction {
                try connection.execute(migrations[target])
                try connection.execute("PRAGMA user_version = \(target + 1)")
            }
        }
    }
}
