/// Schema step "originals": the store keeps every object as it came, compressed (see `OriginalsCodec`).
///
/// - `tweets.original` holds the tweet's JSON and `tweets.twarc` the `__twarc` block of the page it came in (a row
///   of `twarc_blocks`, which keeps each distinct block once).
/// - `originals` holds users (kind 1), media (2), places (3) and polls (4) by their id or key.
/// - `zstd_dictionaries` holds the dictionaries blobs were compressed with, by zstd's dictionary id.
///
/// Existing rows are left as they are: a tweet with a NULL `original` was stored before this step (or came from a
/// source that has no API JSON, such as an archive), and exports write it from its columns as before.
/// `store_facts.tweets_before_originals` records how many tweets the store held when the step ran.
extension Schema {
    /// The SQL of the step; it only adds, so it runs in moments whatever the store's size.
    static let originalsStep = """
        ALTER TABLE tweets ADD COLUMN original BLOB;
        ALTER TABLE tweets ADD COLUMN twarc INTEGER;
        CREATE TABLE originals(
            kind INTEGER NOT NULL,
            key TEXT NOT NULL,
            body BLOB NOT NULL,
            PRIMARY KEY(kind, key)
        ) WITHOUT ROWID;
        CREATE TABLE twarc_blocks(id INTEGER PRIMARY KEY, body TEXT NOT NULL UNIQUE);
        CREATE TABLE zstd_dictionaries(id INTEGER PRIMARY KEY, created REAL NOT NULL, body BLOB NOT NULL);
        CREATE TABLE IF NOT EXISTS store_facts(key TEXT PRIMARY KEY, value) WITHOUT ROWID;
        INSERT OR REPLACE INTO store_facts(key, value)
            SELECT 'tweets_before_originals', count(*) FROM tweets;
        """

    /// Kinds of rows in `originals`.
    enum OriginalKind: Int64 {
        case user = 1
        case media = 2
        case place = 3
        case poll = 4
    }
}
