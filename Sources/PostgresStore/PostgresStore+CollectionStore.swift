import Foundation
import TweetKit
import TweetStore

/// The shell's side of the PostgreSQL store: what `CollectionStore` asks for. Searches, lookups, threads,
/// collections, imports of every shape, exports with originals, `top`, `stats`, hydration and the page cache run on
/// the server (in the files beside this one); search history is the user's own (an SQLite file in XDG state).
extension PostgresStore: CollectionStore {
    /// The address with its password masked.
    public var displayLocation: String { address }
    /// `PostgreSQL store`.
    public var kindName: String { "PostgreSQL store" }
    /// True: search history is kept on the user's machine, so a reader has one too.
    public var keepsHistoryWhenReadOnly: Bool { true }

    /// Where a user's search history for the store at `address` is kept: `$XDG_STATE_HOME/tweetsh/postgres/`
    /// (or `~/.local/state/tweetsh/postgres/`), one file per server and database, named by a hash of the address
    /// without its password, so the file name says nothing secret; nil when neither variable gives a home.
    public static func historyLocation(for address: String, environment: [String: String]) -> StoreLocation? {
        let folder: String
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            folder = state + "/tweetsh/postgres"
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            folder = home + "/.local/state/tweetsh/postgres"
        } else {
            return nil
        }
        // FNV-1a: stable across runs and platforms, unlike `Hasher`.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in ConnectionAddress.masked(address).utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return .file(folder + "/history-" + String(hash, radix: 16) + ".sqlite")
    }

    // MARK: Seeding (imports are in Import/PostgresStore+Shapes.swift)

    /// False: a shared store never holds the demo corpus.
    public func hidesDemoCorpus() async throws -> Bool { false }

    /// Never seeds: a shared store starts empty and gets its data from `import`.
    public func seedIfEmpty(collection: String?, _ make: @escaping @Sendable () -> [Page]) async throws -> Bool {
        false
    }

    // MARK: Originals (`exportAll` is in PostgresStore+Export.swift)

    /// The page with the stored originals of its tweets, users and media filled in.
    public func withOriginals(_ page: Page) async throws -> Page {
        let codec = self.codec
        return try await withConnection { connection in
            var filled = page
            filled.originals.merge(try PostgresOriginals(connection: connection, codec: codec).originals(for: page))
            return filled
        }
    }

    // MARK: Threads

    /// The thread of a tweet, oldest first: its conversation, plus the tweets it replies to as far as the store
    /// holds them. The root is the conversation id when known, else the oldest tweet reached.
    public func thread(of id: TweetID, limit: Int) async throws -> (root: TweetID, page: Page) {
        let limit = max(1, limit)
        guard var top = try await lookup(ids: [id]).tweets.first else {
            return (id, Page(tweets: []))
        }
        var found: [TweetID: Tweet] = [top.id: top]
        if let conversation = top.conversationID {
            for tweet in try await self.conversation(id: conversation, cursor: nil, limit: limit).tweets {
                found[tweet.id] = tweet
            }
        }
        while let parentID = top.repliedToID, found.count < limit,
            let parent = try await lookup(ids: [parentID]).tweets.first
        {
            found[parent.id] = parent
            top = parent
        }
        let root = found[id]?.conversationID ?? top.conversationID ?? top.id
        let tweets = found.values.sorted { $0.id < $1.id }
        let page = try await withConnection { try PostgresReader(connection: $0).page(with: tweets) }
        return (root, page)
    }

    // MARK: Backup and stream writes

    /// Not available: `pg_dump` copies a PostgreSQL database.
    public func backup(to path: String) async throws -> BackupReport {
        throw StoreError(message: "backup copies an SQLite store; for a PostgreSQL store use pg_dump")
    }

    /// Keeps the pages as they are: the store builds its COPY rows when it writes them.
    public func prepare(_ pages: [Page]) -> PreparedPages { .unprepared(pages) }

    /// Writes the pages into `collection`; the ids of `alsoInto` also join its collection, in the same transaction.
    public func insert(
        _ prepared: PreparedPages, collection: String, alsoInto: (collection: String, ids: [TweetID])?
    ) async throws {
        let codec = self.codec
        try await withConnection { connection in
            try connection.transaction {
                _ = try PostgresWriter(connection: connection, codec: codec).write(
                    prepared.pages, collection: collection)
                guard let alsoInto, !alsoInto.ids.isEmpty else { return }
                try connection.execute(
                    "INSERT INTO collections(name, created_at) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                    [.text(alsoInto.collection), .text(String(Date().timeIntervalSince1970))],
                    doing: "storing tweets")
                try connection.execute(
                    "INSERT INTO collection_tweets(collection, tweet_id) SELECT $1, unnest($2::bigint[]) "
                        + "ON CONFLICT DO NOTHING",
                    [.text(alsoInto.collection), .text(PostgresReader.array(alsoInto.ids))], doing: "storing tweets")
            }
        }
    }

    // MARK: Search history, on the user's machine

    /// Records a search in this user's own history file.
    public func recordSearch(_ entry: SearchHistoryEntry) async throws {
        try await history.recordSearch(entry)
    }

    /// This user's recent searches, most recent first.
    public func searchHistory(limit: Int) async throws -> [SearchHistoryEntry] {
        try await history.searchHistory(limit: limit)
    }

    /// This user's record of `query` on `source`.
    public func lastSearch(query: String, source: String) async throws -> SearchHistoryEntry? {
        try await history.lastSearch(query: query, source: source)
    }
}
