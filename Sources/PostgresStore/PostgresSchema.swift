/// The PostgreSQL store's schema, versioned in `tweetsh_schema`. Migrations run under a session advisory lock, so of
/// several shells opening an old store at once exactly one migrates and the others wait, then find it done.
///
/// Kept compatible with the scaling steps in docs/scaling.md: the only unique key on `tweets` is its id (monthly range
/// partitions on the id's time bits and distribution by id both need that), and every search carries an id bound.
enum PostgresSchema {
    /// The advisory lock key migrations hold: "tweetsh" as bytes, so other users of the database rarely collide.
    static let lockKey: Int64 = 0x7477_6565_7473_68

    /// Migrations in order; index 0 takes an empty database to version 1, index 1 takes version 1 to 2 (originals out
    /// of `tweets`, PostgresSchema+Version2), index 2 adds the hydration ledger and reply handles (version 3,
    /// PostgresSchema+Hydration), index 3 the originals' zstd dictionaries (version 4, PostgresSchema+Dictionaries).
    /// A new version appends its script here.
    static let migrations: [String] = [version1, version2, hydration, dictionaries, lossless]

    /// The version this tweetsh writes.
    static var currentVersion: Int { migrations.count }

    private static let version1 = """
        CREATE TABLE tweets(
            id bigint PRIMARY KEY,
            author_id bigint,
            created_at bigint,
            conversation_id bigint,
            reply_to_user bigint,
            lang text,
            flags bigint NOT NULL,
            likes bigint NOT NULL DEFAULT 0,
            reposts bigint NOT NULL DEFAULT 0,
            replies bigint NOT NULL DEFAULT 0,
            quotes bigint NOT NULL DEFAULT 0,
            text text NOT NULL,
            extra bytea,
            original bytea,
            doc tsvector NOT NULL DEFAULT ''::tsvector
        );
        CREATE INDEX tweets_doc ON tweets USING gin(doc);
        CREATE TABLE users(
            id bigint PRIMARY KEY,
            username text NOT NULL,
            name text NOT NULL,
            profile_image_url text,
            verified boolean NOT NULL DEFAULT false,
            description text,
            location text,
            created_at bigint,
            protected boolean NOT NULL DEFAULT false,
            url text,
            followers bigint,
            following bigint,
            tweet_count bigint,
            listed bigint,
            original bytea
        );
        CREATE INDEX users_username ON users(lower(username));
        CREATE TABLE media(
            media_key text PRIMARY KEY,
            type text NOT NULL,
            url text,
            preview_image_url text,
            width integer,
            height integer,
            alt_text text,
            original bytea
        );
        CREATE TABLE cached_pages(
            key text NOT NULL,
            cursor text NOT NULL,
            fetched_at double precision NOT NULL,
            page bytea NOT NULL,
            PRIMARY KEY(key, cursor)
        );
        CREATE TABLE imports(
            path text PRIMARY KEY,
            size bigint NOT NULL,
            modified double precision NOT NULL,
            "offset" bigint NOT NULL,
            line bigint NOT NULL,
            tweets bigint NOT NULL,
            errors bigint NOT NULL,
            finished boolean NOT NULL
        );
        CREATE TABLE collections(
            name text PRIMARY KEY,
            created_at double precision NOT NULL
        );
        CREATE TABLE collection_tweets(
            collection text NOT NULL REFERENCES collections(name) ON DELETE CASCADE,
            tweet_id bigint NOT NULL,
            PRIMARY KEY(collection, tweet_id)
        );
        CREATE INDEX collection_tweets_tweet ON collection_tweets(tweet_id);
        """

    /// Brings the schema up to `currentVersion` under the advisory lock; returns whether this call migrated (false
    /// when another process did, or there was nothing to do). Throws `newerSchema` for a store from a newer tweetsh.
    @discardableResult
    static func migrate(_ connection: PGConnection) throws -> Bool {
        try connection.execute("SELECT pg_advisory_lock($1)", [.integer(lockKey)], doing: "waiting to migrate")
        defer {
            _ = try? connection.uninterrupted {
                try connection.execute("SELECT pg_advisory_unlock($1)", [.integer(lockKey)])
            }
        }
        return try connection.transaction {
            try connection.execute("CREATE TABLE IF NOT EXISTS tweetsh_schema(version integer NOT NULL)")
            let version = Int(try connection.scalar("SELECT max(version) FROM tweetsh_schema") ?? 0)
            if version > currentVersion { throw PostgresError(.newerSchema, address: connection.address) }
            guard version < currentVersion else { return false }
            for step in migrations[version...] { try connection.executeScript(step, doing: "creating the schema") }
            try connection.execute("DELETE FROM tweetsh_schema")
            try connection.execute("INSERT INTO tweetsh_schema(version) VALUES ($1)", [.integer(Int64(currentVersion))])
            return true
        }
    }

    /// The schema version a store holds, 0 for a database without one. Readers use this instead of migrating.
    static func version(_ connection: PGConnection) throws -> Int {
        let exists = try connection.scalar("SELECT count(*) FROM pg_tables WHERE tablename = 'tweetsh_schema'") ?? 0
        guard exists > 0 else { return 0 }
        return Int(try connection.scalar("SELECT max(version) FROM tweetsh_schema") ?? 0)
    }
}
