import Foundation
import TweetKit
import TweetStore

/// Writes pages in one batch: every kind of row is COPY'd into a temporary staging table (never WAL-logged, private to
/// the session), then moved into its table by one `INSERT … ON CONFLICT` (an upsert by id), so writing a batch
/// twice leaves the store as writing it once. Runs inside the caller's transaction.
///
/// The copy a tweet ends with follows the SQLite store's rule: a result beats a tweet stored only as a reference,
/// among equals the last one wins, and a copy without an original keeps the original stored before.
struct PostgresWriter {
    let connection: PGConnection
    let codec: OriginalsCodec

    /// Builds the pages' rows and writes them; returns how many result tweets were new to the store.
    @discardableResult
    func write(_ pages: [Page], collection: String? = nil) throws -> Int {
        try write(PostgresBatchRows(pages, codec: codec), collection: collection)
    }

    /// Writes rows built beforehand (on any thread); returns how many result tweets were new to the store.
    @discardableResult
    func write(_ batch: PostgresBatchRows, collection: String? = nil) throws -> Int {
        try createStaging()
        if let dictionary = batch.dictionary {
            // In the batch's transaction: no blob is ever committed without the dictionary it needs.
            try connection.execute(
                "INSERT INTO zstd_dictionaries(id, created, body) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING",
                [
                    .integer(Int64(dictionary.id)), .text(String(Date().timeIntervalSince1970)),
                    .bytes(dictionary.bytes),
                ], doing: "importing")
        }
        if !batch.users.isEmpty { try upsertUsers(batch.users) }
        if !batch.media.isEmpty { try upsertMedia(batch.media) }
        guard !batch.tweets.isEmpty else { return 0 }
        try connection.copy("COPY tweets_staging(\(TweetRow.columns)) FROM STDIN (FORMAT binary)", data: batch.tweets)
        let known =
            try connection.scalar(
                "SELECT count(*) FROM tweets_staging s JOIN tweets t ON t.id = s.id "
                    + "WHERE (s.flags & 128) = 0 AND (t.flags & 128) = 0", doing: "importing") ?? 0
        // One statement upserts the rows and writes the originals of exactly the rows it wrote (a new tweet, or a
        // copy that beats the stored one; `RETURNING` leaves out the conflicts its `WHERE` skipped), and keeps the
        // stored original where the copy has none. Joining the staging rows with `tweets` to apply the rule again took
        // twice the tweets' own upsert (docs/store.md, "Import").
        let columns = TweetRow.storedColumns
        let updates = columns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0 != "id" }
            .map { "\($0) = EXCLUDED.\($0)" }
        try connection.execute(
            "WITH written AS (INSERT INTO tweets(\(columns)) SELECT \(columns) FROM tweets_staging "
                + "ON CONFLICT (id) DO UPDATE SET \(updates.joined(separator: ", ")) "
                + "WHERE (tweets.flags & 128) <> 0 OR (EXCLUDED.flags & 128) = 0 RETURNING id) "
                + "INSERT INTO tweet_originals(id, original) SELECT s.id, s.original FROM tweets_staging s "
                + "JOIN written w ON w.id = s.id WHERE s.original IS NOT NULL "
                + "ON CONFLICT (id) DO UPDATE SET original = EXCLUDED.original", doing: "importing")
        if let collection {
            try connection.execute(
                "INSERT INTO collections(name, created_at) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                [.text(collection), .text(String(Date().timeIntervalSince1970))], doing: "adding to a collection")
            try connection.execute(
                "INSERT INTO collection_tweets(collection, tweet_id) SELECT $1, id FROM tweets_staging "
                    + "WHERE (flags & 128) = 0 ON CONFLICT DO NOTHING", [.text(collection)],
                doing: "adding to a collection")
        }
        return batch.primaries - Int(known)
    }

    private func createStaging() throws {
        for table in ["tweets", "users", "media"] {
            // A tweet's original lives in `tweet_originals`, but arrives with its row.
            let more = table == "tweets" ? ", original bytea" : ""
            try connection.execute(
                "CREATE TEMPORARY TABLE IF NOT EXISTS \(table)_staging (LIKE \(table) INCLUDING DEFAULTS\(more)) "
                    + "ON COMMIT DELETE ROWS", doing: "preparing an import")
        }
    }

    private func upsertUsers(_ rows: [UInt8]) throws {
        let columns = PostgresBatchRows.userColumns
        try connection.copy("COPY users_staging(\(columns)) FROM STDIN", data: rows)
        let updates = columns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0 != "id" }
            .map {
                $0 == "original" ? "original = coalesce(EXCLUDED.original, users.original)" : "\($0) = EXCLUDED.\($0)"
            }
        try connection.execute(
            "INSERT INTO users(\(columns)) SELECT \(columns) FROM users_staging "
                + "ON CONFLICT (id) DO UPDATE SET \(updates.joined(separator: ", "))", doing: "importing users")
    }

    private func upsertMedia(_ rows: [UInt8]) throws {
        let columns = PostgresBatchRows.mediaColumns
        try connection.copy("COPY media_staging(\(columns)) FROM STDIN", data: rows)
        let updates = columns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0 != "media_key" }
            .map {
                $0 == "original" ? "original = coalesce(EXCLUDED.original, media.original)" : "\($0) = EXCLUDED.\($0)"
            }
        try connection.execute(
            "INSERT INTO media(\(columns)) SELECT \(columns) FROM media_staging "
                + "ON CONFLICT (media_key) DO UPDATE SET \(updates.joined(separator: ", "))", doing: "importing media")
    }
}
