import Foundation
import TweetKit
import TweetStore

extension PostgresStore {
    /// The collections' names in `collections`' order, without counting their tweets (completion reads them).
    public func collectionNames() async throws -> [String] {
        try await withConnection { connection in
            try connection.rows(
                "SELECT name FROM collections ORDER BY created_at, name", doing: "listing collections"
            ) { $0.text(0) }
        }
    }

    /// Every collection with its count and date range, oldest collection first, as the SQLite store lists them.
    public func collections() async throws -> [CollectionInfo] {
        try await withConnection { connection in
            try connection.rows(
                """
                SELECT c.name, count(t.id), min(t.created_at), max(t.created_at) FROM collections c
                LEFT JOIN collection_tweets m ON m.collection = c.name
                LEFT JOIN tweets t ON t.id = m.tweet_id AND (t.flags & 128) = 0
                GROUP BY c.name, c.created_at ORDER BY c.created_at, c.name
                """, doing: "listing collections"
            ) { row in
                CollectionInfo(
                    name: row.text(0), tweets: Int(row.int64(1)),
                    earliest: row.optionalInt64(2).map { Date(timeIntervalSince1970: Double($0) / 1_000) },
                    latest: row.optionalInt64(3).map { Date(timeIntervalSince1970: Double($0) / 1_000) },
                    hidden: false)
            }
        }
    }

    /// Deletes a collection in one transaction, as the SQLite store does: its tweets that no other collection holds
    /// leave the store (or stay as included-only tweets when a remaining result quotes, retweets or replies to them),
    /// the rest stay with their other collections, and what only the deleted tweets named goes with them
    /// (`OrphanSweep`). Unfinished import records are forgotten, so a later import of the same file starts again
    /// instead of resuming past tweets that are gone; dropping `api` forgets the cached API pages.
    @discardableResult
    public func drop(collection name: String) async throws -> DropReport {
        try await withConnection { connection in
            try connection.transaction {
                let exists = try connection.scalar(
                    "SELECT count(*) FROM collections WHERE name = $1", [.text(name)], doing: "dropping a collection")
                guard exists == 1 else {
                    throw PostgresError(
                        .invalidRequest, address: connection.address,
                        detail: "no collection named '\(name)'; 'collections' lists them")
                }
                let total = Int(
                    try connection.scalar(
                        "SELECT count(*) FROM collection_tweets WHERE collection = $1", [.text(name)],
                        doing: "dropping a collection") ?? 0)
                let own = try connection.rows(
                    """
                    SELECT tweet_id FROM collection_tweets WHERE collection = $1
                    AND tweet_id NOT IN (SELECT tweet_id FROM collection_tweets WHERE collection <> $1) ORDER BY tweet_id
                    """, [.text(name)], doing: "dropping a collection"
                ) { TweetID(UInt64(bitPattern: $0.int64(0))) }
                try connection.execute(
                    "DELETE FROM collections WHERE name = $1", [.text(name)], doing: "dropping a collection")
                let swept = try PostgresOrphanSweep(connection: connection, codec: self.codec).drop(own)
                try connection.execute("DELETE FROM imports WHERE NOT finished", doing: "dropping a collection")
                // As in the SQLite store: the API's cached pages go with its collection.
                if name == TweetStore.apiCollection {
                    try connection.execute("DELETE FROM cached_pages", doing: "dropping a collection")
                }
                return DropReport(
                    deleted: swept.deleted, kept: total - own.count, referenced: swept.demoted,
                    includedTweets: swept.includedTweets, users: swept.users, media: swept.media)
            }
        }
    }
}
