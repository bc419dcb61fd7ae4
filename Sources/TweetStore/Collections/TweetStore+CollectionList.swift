import Foundation
import TweetKit

/// One collection of the store, for `collections`.
public struct CollectionInfo: Hashable, Sendable {
    /// Its name (`demo`, `api`, or what an import was called).
    public var name: String
    /// Searchable tweets in it.
    public var tweets: Int
    /// The oldest and newest of their creation times, when any has one.
    public var earliest: Date?
    /// See `earliest`.
    public var latest: Date?
    /// Whether searches and exports leave it out unless asked for (the demo corpus, once there is other data).
    public var hidden: Bool

    /// Creates a description.
    public init(name: String, tweets: Int, earliest: Date?, latest: Date?, hidden: Bool) {
        self.name = name
        self.tweets = tweets
        self.earliest = earliest
        self.latest = latest
        self.hidden = hidden
    }
}

/// What `drop` did.
public struct DropReport: Hashable, Sendable {
    /// Tweets deleted from the store: those of the collection that no other collection holds.
    public var deleted: Int
    /// Tweets of the collection kept because another collection holds them too.
    public var kept: Int
    /// Tweets of the collection that no other collection holds but a remaining tweet quotes, retweets or replies
    /// to: they stay as included-only tweets (out of searches), so that tweet's export still carries them.
    public var referenced: Int
    /// Tweets the deleted ones quoted, retweeted or replied to, kept only for them (never a collection's own), that
    /// went with them because no remaining tweet names them.
    public var includedTweets: Int
    /// Users (authors, mentioned and replied-to users) that went because no remaining tweet names them.
    public var users: Int
    /// Media that went because no remaining tweet names them.
    public var media: Int
    /// For a store in one file: how large the file is after the drop, and how much of it is now free pages. SQLite
    /// keeps a file's size and reuses its free pages for later writes, so a big drop frees no disk by itself; nil for
    /// a server's store, which manages its own space.
    public var file: FileSpace?

    /// A store file's size and the part of it that is free pages, in bytes.
    public struct FileSpace: Hashable, Sendable {
        /// The whole file.
        public var size: Int64
        /// Its free pages.
        public var free: Int64

        /// Creates the figures.
        public init(size: Int64, free: Int64) {
            self.size = size
            self.free = free
        }
    }

    /// Creates a report (for every store behind `CollectionStore`).
    public init(
        deleted: Int, kept: Int, referenced: Int = 0, includedTweets: Int = 0, users: Int = 0, media: Int = 0,
        file: FileSpace? = nil
    ) {
        self.file = file
        self.deleted = deleted
        self.kept = kept
        self.referenced = referenced
        self.includedTweets = includedTweets
        self.users = users
        self.media = media
    }
}

extension TweetStore {
    /// The name of the collection of the generated demo corpus.
    public static let demoCollection = CollectionMembership.demo
    /// The name of the collection of tweets cached from the X API.
    public static let apiCollection = CollectionMembership.api

    /// The collections' names, oldest first, without counting their tweets (completion reads them).
    public func collectionNames() async throws -> [String] {
        try await database.run { try $0.rows("SELECT name FROM collections ORDER BY id") { $0.text(0) } }
    }

    /// Every collection with its count and date range, oldest collection first; tweets stored before collections
    /// existed are listed as `(unfiled)` when there are any.
    public func collections() async throws -> [CollectionInfo] {
        try await database.run { connection in
            let hiddenID = try CollectionMembership.scope(connection, collection: nil).flatMap { scope -> Int64? in
                if case .integer(let id) = scope.1 { return id }
                return nil
            }
            var list = try connection.rows(
                """
                SELECT c.id, c.name, count(t.id), min(t.created_at), max(t.created_at) FROM collections c
                LEFT JOIN collection_members m ON m.collection = c.id
                LEFT JOIN tweets t ON t.id = m.tweet AND (t.flags & \(TweetFlags.includedOnly.rawValue)) = 0
                GROUP BY c.id ORDER BY c.id
                """
            ) { row in
                CollectionInfo(
                    name: row.text(1), tweets: row.int(2), earliest: Self.date(row, 3), latest: Self.date(row, 4),
                    hidden: row.int64(0) == hiddenID)
            }
            let unfiled = try connection.rows(
                """
                SELECT count(*), min(created_at), max(created_at) FROM tweets
                WHERE (flags & \(TweetFlags.includedOnly.rawValue)) = 0 AND id NOT IN (SELECT tweet FROM collection_members)
                """
            ) { row in
                CollectionInfo(
                    name: "(unfiled)", tweets: row.int(0), earliest: Self.date(row, 1), latest: Self.date(row, 2),
                    hidden: false)
            }
            list += unfiled.filter { $0.tweets > 0 }
            return list
        }
    }

    private static func date(_ row: Statement, _ column: Int32) -> Date? {
        row.isNull(column) ? nil : Date(timeIntervalSince1970: Double(row.int64(column)) / 1_000)
    }

    /// Whether the shell should give this store the demo corpus: it holds no tweet, and its demo corpus was never
    /// dropped.
    public func wantsDemoCorpus() async throws -> Bool {
        try await database.run { connection in
            try connection.scalar(
                """
                SELECT NOT EXISTS (SELECT 1 FROM tweets LIMIT 1)
                    AND NOT EXISTS (SELECT 1 FROM store_settings WHERE key = 'demo_dropped')
                """) == 1
        }
    }

    /// Whether searches and exports leave the demo corpus out (it exists, and the store holds other data).
    public func hidesDemoCorpus() async throws -> Bool {
        try await database.run { try CollectionMembership.scope($0, collection: nil) != nil }
    }

    /// Deletes a collection: its tweets that no other collection holds leave the store and its index, the rest stay
    /// with their other collections, and what only the deleted tweets named goes with them (`OrphanSweep`): the
    /// tweets they quoted or retweeted, users, media, places, polls and `__twarc` blocks. One that a remaining tweet
    /// quotes, retweets or replies to stays as an included-only tweet. Its hydration answers go too.
    ///
    /// Unfinished import records are forgotten too, so an import run again afterwards reads its file from the start
    /// instead of resuming past tweets that are gone, and dropping `api` forgets the cached API pages.
    public func drop(collection name: String) async throws -> DropReport {
        try await database.run { connection in
            var report = try connection.transaction { () throws -> DropReport in
                guard let id = try CollectionMembership.existingID(connection, name: name) else {
                    throw StoreError(message: "no collection named '\(name)'; 'collections' lists them")
                }
                let total = Int(
                    try connection.scalar(
                        "SELECT count(*) FROM collection_members WHERE collection = ?", [.integer(id)]) ?? 0)
                let alone = try connection.rows(
                    """
                    SELECT tweet FROM collection_members WHERE collection = ?1
                    AND tweet NOT IN (SELECT tweet FROM collection_members WHERE collection != ?1) ORDER BY tweet
                    """, [.integer(id)]
                ) { $0.int64(0) }
                try connection.withStatement("DELETE FROM collection_members WHERE collection = ?", [.integer(id)]) {
                    try $0.run()
                }
                let swept = try Self.dropTweets(alone, connection)
                if try connection.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'hydrated_ids'") == 1 {
                    try connection.withStatement(
                        "DELETE FROM hydrated_ids WHERE collection = ? COLLATE NOCASE", [.text(name)]
                    ) { try $0.run() }
                }
                try connection.withStatement("DELETE FROM collections WHERE id = ?", [.integer(id)]) { try $0.run() }
                try connection.execute("DELETE FROM imports WHERE finished = 0")
                // The API's collection takes its cached pages with it: they list its tweets, and a search repeated
                // afterwards must go to the API again rather than replay pages whose tweets are gone.
                if name.lowercased() == CollectionMembership.api { try connection.execute("DELETE FROM cached_pages") }
                if name.lowercased() == CollectionMembership.demo {
                    try connection.execute(
                        "INSERT OR REPLACE INTO store_settings(key, value) VALUES ('demo_dropped', '1')")
                }
                return DropReport(
                    deleted: swept.deleted, kept: total - alone.count, referenced: swept.demoted,
                    includedTweets: swept.includedTweets, users: swept.users, media: swept.media)
            }
            let pageSize = try connection.scalar("PRAGMA page_size") ?? 0
            report.file = DropReport.FileSpace(
                size: (try connection.scalar("PRAGMA page_count") ?? 0) * pageSize,
                free: (try connection.scalar("PRAGMA freelist_count") ?? 0) * pageSize)
            return report
        }
    }
}
