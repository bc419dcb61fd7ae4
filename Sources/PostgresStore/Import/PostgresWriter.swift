import Foundation
import TweetKit
import TweetStore

/// Writes pages in one batch: every kind of row is COPY'd into a temporary staging table (never WAL-logged, private to
/// the session), then moved into its table by one `INSERT … ON CONFLICT` (an upsert by id), so writing a batch
/// twice leaves the store as writing it once. Runs inside the caller's transaction.
///
/// Tweets an import's ledger has not seen skip the staging: they are COPY'd into `tweets` and `tweet_originals`
/// under a savepoint, and should one exist after all (a unique violation), the savepoint is rolled back and they are
/// upserted with the rest. A load into an empty store so writes each row once instead of three times (staging,
/// reading it back, the upsert's insert), and the server's CPU per 1M tweets fell by a third (docs/benchmarks.md).
///
/// The copy a tweet ends with follows the SQLite store's rule: a result beats a tweet stored only as a reference,
/// among equals the last one wins, and a copy without an original keeps the original stored before.
struct PostgresWriter {
    let connection: PGConnection
    let codec: OriginalsCodec
    /// The import's ledger, when the batches were built with one: it hears when unseen tweets had to be upserted.
    var ledger: PostgresImportLedger? = nil

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
        if !batch.objects.isEmpty { try upsertObjects(batch.objects) }
        if !batch.twarcBlocks.isEmpty { try storeTwarcBlocks(batch.twarcBlocks) }
        guard !batch.tweets.isEmpty || !batch.unseen.isEmpty else { return 0 }
        var staged = [batch.tweets]
        var collectionIDs: [Int64] = []
        if !batch.unseen.isEmpty {
            if let ledger, ledger.sendsUnseen, try sendDirectly(batch.unseen) {
                collectionIDs = batch.unseenPrimaryIDs
            } else {
                ledger?.fellBack()
                staged.append(batch.unseen)
            }
        }
        let known = try upsert(staged.filter { !$0.isEmpty })
        if let collection {
            try connection.execute(
                "INSERT INTO collections(name, created_at) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                [.text(collection), .text(String(Date().timeIntervalSince1970))], doing: "adding to a collection")
            try connection.execute(
                "INSERT INTO collection_tweets(collection, tweet_id) SELECT $1, id FROM tweets_staging "
                    + "WHERE (flags & 128) = 0 ON CONFLICT DO NOTHING", [.text(collection)],
                doing: "adding to a collection")
            if !collectionIDs.isEmpty {
                try connection.execute(
                    "INSERT INTO collection_tweets(collection, tweet_id) SELECT $1, unnest($2::bigint[]) "
                        + "ON CONFLICT DO NOTHING",
                    [.text(collection), .text("{" + collectionIDs.map(String.init).joined(separator: ",") + "}")],
                    doing: "adding to a collection")
            }
        }
        return batch.primaries - Int(known)
    }

    /// COPYs tweets the import has not seen straight into `tweets` and `tweet_originals`, under a savepoint: true
    /// when they went in, false when one of them existed after all (the savepoint is rolled back, and the caller
    /// upserts them instead). Any other failure is thrown.
    private func sendDirectly(_ streams: TweetStreams) throws -> Bool {
        try connection.execute("SAVEPOINT unseen_tweets", doing: "importing")
        do {
            try connection.copy(
                "COPY tweets(\(TweetRow.columns)) FROM STDIN (FORMAT binary)", data: streams.rows.finished,
                doing: "importing")
            if streams.originalCount > 0 {
                try connection.copy(
                    "COPY tweet_originals(\(TweetRow.originalColumns)) FROM STDIN (FORMAT binary)",
                    data: streams.originals.finished, doing: "importing")
            }
        } catch let error as PostgresError where error.sqlState == "23505" {
            // unique_violation: the store holds one of them.
            try connection.execute("ROLLBACK TO SAVEPOINT unseen_tweets", doing: "importing")
            return false
        }
        try connection.execute("RELEASE SAVEPOINT unseen_tweets", doing: "importing")
        return true
    }

    /// Upserts tweets through the staging tables, all of them in one statement (the staging tables empty only at
    /// commit); returns how many of the result tweets the store held as results before.
    private func upsert(_ parts: [TweetStreams]) throws -> Int64 {
        guard !parts.isEmpty else { return 0 }
        for streams in parts {
            try connection.copy(
                "COPY tweets_staging(\(TweetRow.columns)) FROM STDIN (FORMAT binary)", data: streams.rows.finished)
            if streams.originalCount > 0 {
                try connection.copy(
                    "COPY originals_staging(\(TweetRow.originalColumns)) FROM STDIN (FORMAT binary)",
                    data: streams.originals.finished)
            }
        }
        let known =
            try connection.scalar(
                "SELECT count(*) FROM tweets_staging s JOIN tweets t ON t.id = s.id "
                    + "WHERE (s.flags & 128) = 0 AND (t.flags & 128) = 0", doing: "importing") ?? 0
        // One statement upserts the rows and writes the originals of exactly the rows it wrote (a new tweet, or a
        // copy that beats the stored one; `RETURNING` leaves out the conflicts its `WHERE` skipped), and keeps the
        // stored original where the copy has none. Joining the staging rows with `tweets` to apply the rule again took
        // twice the tweets' own upsert (docs/store.md, "Import").
        let columns = TweetRow.columns
        let updates = columns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0 != "id" }
            .map { "\($0) = EXCLUDED.\($0)" }
        try connection.execute(
            "WITH written AS (INSERT INTO tweets(\(columns)) SELECT \(columns) FROM tweets_staging "
                + "ON CONFLICT (id) DO UPDATE SET \(updates.joined(separator: ", ")) "
                + "WHERE (tweets.flags & 128) <> 0 OR (EXCLUDED.flags & 128) = 0 RETURNING id) "
                + "INSERT INTO tweet_originals(id, original, twarc) SELECT o.id, o.original, o.twarc "
                + "FROM originals_staging o JOIN written w ON w.id = o.id "
                + "ON CONFLICT (id) DO UPDATE SET original = EXCLUDED.original, twarc = EXCLUDED.twarc",
            doing: "importing")
        return known
    }

    /// Creates the session's staging tables where they do not exist yet, in one round trip: a batch used to send
    /// six statements for this. They stay per batch rather than once per connection, because a batch that rolls back
    /// in the transaction that created them takes them away with it.
    private func createStaging() throws {
        let likeWithDefaults = ["tweets", "users", "media"].map {
            "CREATE TEMPORARY TABLE IF NOT EXISTS \($0)_staging (LIKE \($0) INCLUDING DEFAULTS) ON COMMIT DELETE ROWS;"
        }
        let like = [
            ("originals_staging", "tweet_originals"), ("objects_staging", "object_originals"),
            ("twarc_staging", "twarc_blocks"),
        ].map { "CREATE TEMPORARY TABLE IF NOT EXISTS \($0.0) (LIKE \($0.1)) ON COMMIT DELETE ROWS;" }
        try connection.executeScript((likeWithDefaults + like).joined(separator: "\n"), doing: "preparing an import")
    }

    /// Upserts places' and polls' originals; the newer copy wins, as in the SQLite store.
    private func upsertObjects(_ rows: [UInt8]) throws {
        try connection.copy("COPY objects_staging(kind, key, original) FROM STDIN", data: rows)
        try connection.execute(
            "INSERT INTO object_originals(kind, key, original) SELECT kind, key, original FROM objects_staging "
                + "ON CONFLICT (kind, key) DO UPDATE SET original = EXCLUDED.original", doing: "importing")
    }

    /// Stores the batch's `__twarc` blocks that are new, then checks that every block already stored under one of
    /// the batch's keys is the same block: a different one (two blocks whose `TwarcBlockKey`s collide) stops the
    /// batch, which rolls back, rather than attach a wrong block to the batch's tweets.
    private func storeTwarcBlocks(_ rows: [UInt8]) throws {
        try connection.copy("COPY twarc_staging(id, body) FROM STDIN", data: rows)
        try connection.execute(
            "INSERT INTO twarc_blocks(id, body) SELECT id, body FROM twarc_staging ON CONFLICT (id) DO NOTHING",
            doing: "importing")
        let different =
            try connection.scalar(
                "SELECT count(*) FROM twarc_staging s JOIN twarc_blocks b ON b.id = s.id WHERE b.body <> s.body",
                doing: "importing") ?? 0
        guard different == 0 else {
            throw PostgresError(
                .internalFailure, address: connection.address,
                detail: "storing __twarc blocks (two different ones have the same key, so this batch was not stored)")
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
