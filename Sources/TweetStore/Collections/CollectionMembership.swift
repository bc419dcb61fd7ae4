import Foundation
import TweetKit

/// Which collections hold which tweets; every function runs inside the caller's transaction.
enum CollectionMembership {
    /// The generated demo corpus's collection.
    static let demo = "demo"
    /// Tweets cached from X API searches.
    static let api = "api"

    /// The id of the collection named `name`, made when there is none.
    static func collectionID(_ connection: Connection, name: String) throws -> Int64 {
        if let id = try connection.scalar("SELECT id FROM collections WHERE name = ?", [.text(name)]) { return id }
        try connection.withStatement(
            "INSERT INTO collections(name, created_at) VALUES (?, ?)",
            [.text(name), .real(Date().timeIntervalSince1970)]
        ) { try $0.run() }
        return try connection.scalar("SELECT last_insert_rowid()") ?? 0
    }

    /// The id of an existing collection, or nil.
    static func existingID(_ connection: Connection, name: String) throws -> Int64? {
        try connection.scalar("SELECT id FROM collections WHERE name = ?", [.text(name)])
    }

    /// Adds tweets (ascending ids are fastest) to a collection; `storedOnly` skips ids with no stored row.
    ///
    /// The ids go to SQLite as one JSON array, so a batch is one statement that `json_each` walks, not one statement
    /// per tweet: an import adds every tweet it reads, and the per-row statements cost it more than the B-tree writes.
    static func add(_ connection: Connection, collection: Int64, storedOnly: Bool = false, tweets: [Int64]) throws {
        guard !tweets.isEmpty else { return }
        var list = "["
        list.reserveCapacity(tweets.count * 21 + 2)
        for (position, tweet) in tweets.enumerated() {
            if position > 0 { list += "," }
            list += String(tweet)
        }
        list += "]"
        try connection.withStatement(
            storedOnly
                ? "INSERT OR IGNORE INTO collection_members(collection, tweet) "
                    + "SELECT ?1, t.id FROM json_each(?2) j JOIN tweets t ON t.id = j.value"
                : "INSERT OR IGNORE INTO collection_members(collection, tweet) SELECT ?1, value FROM json_each(?2)",
            [.integer(collection), .text(list)]
        ) { try $0.run() }
    }

    /// Adds a prepared batch's result tweets (not included ones) to the collection named `name`.
    static func add(_ connection: Connection, _ batch: PreparedBatch, to name: String) throws {
        let ids = batch.tweets.lazy.filter(\.primary).map(\.rowid)
        guard !ids.isEmpty else { return }
        try add(connection, collection: try collectionID(connection, name: name), tweets: Array(ids))
    }

    /// The SQL condition (on `t.id`) that keeps a search inside one collection, or out of the demo corpus, and its
    /// binding; nil when nothing is to be left out.
    ///
    /// With no collection asked for, the demo corpus is left out once the store holds anything else: a tweet of
    /// another collection, or one of no collection (stored before collections existed).
    static func scope(_ connection: Connection, collection name: String?) throws -> (String, SQLValue)? {
        if let name {
            guard let id = try existingID(connection, name: name) else {
                throw StoreError(message: "no collection named '\(name)'; 'collections' lists them")
            }
            return (
                "EXISTS (SELECT 1 FROM collection_members m WHERE m.collection = ? AND m.tweet = t.id)",
                .integer(id)
            )
        }
        guard let demo = try existingID(connection, name: Self.demo), try holdsOtherData(connection, demo: demo) else {
            return nil
        }
        return (
            "NOT EXISTS (SELECT 1 FROM collection_members m WHERE m.collection = ? AND m.tweet = t.id)", .integer(demo)
        )
    }

    /// Whether the store holds a searchable tweet besides the demo corpus.
    ///
    /// Two range seeks on the membership key answer for every store with collections; only a store holding nothing
    /// but the demo corpus and tweets from before collections reaches the scan, which stops at the first such tweet.
    static func holdsOtherData(_ connection: Connection, demo: Int64) throws -> Bool {
        try connection.scalar(
            """
            SELECT EXISTS (SELECT 1 FROM collection_members WHERE collection < ?1)
                OR EXISTS (SELECT 1 FROM collection_members WHERE collection > ?1)
                OR EXISTS (SELECT 1 FROM tweets t WHERE (t.flags & \(TweetFlags.includedOnly.rawValue)) = 0
                    AND NOT EXISTS (SELECT 1 FROM collection_members m WHERE m.collection = ?1 AND m.tweet = t.id))
            """, [.integer(demo)]) == 1
    }
}
