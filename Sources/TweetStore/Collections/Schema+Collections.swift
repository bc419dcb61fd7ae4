import TweetKit

extension Schema {
    /// Version 5, collections: every import is a named collection, API pages belong to `api`, the demo corpus to `demo`.
    ///
    /// Membership is its own table keyed by (collection, tweet), so writing it costs one append per tweet of a batch
    /// (ids ascend within a batch) and no index keyed by tweet id alone, which imports would pay for at random places.
    /// Tweets stored before this step belong to no collection ("unfiled") and stay in every search, except the demo
    /// corpus, whose ids are known, so the step files those in `demo`. `store_settings` remembers that the demo corpus
    /// was dropped, so an emptied store is not given it again.
    static let collectionsMigration = Migration(sql: collectionsSQL, rebuild: fileDemoCorpus, reindexes: false)

    private static let collectionsSQL = """
        CREATE TABLE collections(
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE,
            created_at REAL NOT NULL
        );
        CREATE TABLE collection_members(
            collection INTEGER NOT NULL,
            tweet INTEGER NOT NULL,
            PRIMARY KEY(collection, tweet)
        ) WITHOUT ROWID;
        CREATE TABLE store_settings(key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
        """

    /// Files the first-run demo corpus of an existing store in `demo`.
    private static func fileDemoCorpus(_ connection: Connection) throws {
        let ids = DemoCorpus.firstRun.flatMap { $0.tweets.map { Int64(bitPattern: $0.id.rawValue) } }.sorted()
        guard let first = ids.first, let last = ids.last,
            try connection.scalar(
                "SELECT count(*) FROM tweets WHERE id BETWEEN ? AND ?", [.integer(first), .integer(last)])
                ?? 0 > 0
        else { return }
        let collection = try CollectionMembership.collectionID(connection, name: CollectionMembership.demo)
        try CollectionMembership.add(connection, collection: collection, storedOnly: true, tweets: ids)
    }
}
