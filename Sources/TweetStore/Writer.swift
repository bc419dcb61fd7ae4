import Foundation
import TweetKit

/// Writes pages into the tables and the index. Every method runs inside the caller's transaction.
///
/// Upserts are by id, so writing the same page twice leaves the store as it was after the first time.
struct Writer {
    let connection: Connection
    private let insertNew: Statement
    private let selectExisting: Statement
    private let replaceTweet: Statement
    private let keys: ExploreKeysWriter

    init(connection: Connection) throws {
        self.connection = connection
        insertNew = try connection.prepare(Self.insertTweet + " ON CONFLICT(id) DO NOTHING")
        selectExisting = try connection.prepare(
            "SELECT \(TweetRecord.columns), t.original, t.twarc FROM tweets t WHERE t.id = ?")
        replaceTweet = try connection.prepare(Self.replaceTweet)
        keys = try ExploreKeysWriter(connection: connection)
    }

    /// Writes a batch: its users and media, then its tweets as search results or, for included ones, for lookups.
    ///
    /// The full-text index is written after all table rows, in ascending id order, because FTS5 flushes its pending
    /// data to a new segment whenever a rowid goes down and whenever another statement opens a savepoint (as
    /// `INSERT OR REPLACE` does). Interleaving index and table writes, or writing newest first as pages come, made one
    /// segment per tweet and imports several times slower.
    ///
    /// Returns how many of the batch's result tweets the store did not hold as results before (an import's "new").
    @discardableResult
    func write(_ batch: PreparedBatch) throws -> Int {
        if let dictionary = batch.dictionary { try OriginalsWriter.store(dictionary, connection) }
        // By index, and the fingerprint checked before anything is copied: most of a batch's users were written
        // unchanged before, and copying each entry (a `User` and its original) cost the writer thread 2% of its time.
        for position in batch.users.indices
        where connection.writtenUsers[batch.users[position].user.id.rawValue] != batch.users[position].fingerprint {
            let entry = batch.users[position]
            try write(
                entry.user, fingerprint: entry.fingerprint, original: entry.original, dictionary: batch.dictionary)
        }
        for (media, original) in batch.media {
            try write(media)
            if let original { try OriginalsWriter.store(.media, media.mediaKey, original, connection) }
        }
        for other in batch.others { try OriginalsWriter.store(other.kind, other.key, other.original, connection) }
        var index = IndexChanges()
        var twarcBlocks = OriginalsWriter.TwarcBlocks()
        var added = 0
        for tweet in batch.tweets where try stage(tweet, twarcBlocks: &twarcBlocks, into: &index) { added += 1 }
        try index.apply(connection)
        return added
    }

    /// Writes one page; see `write(_:)` for a prepared batch.
    func write(_ page: Page) throws {
        try write(PreparedBatch([page], codec: connection.codec))
    }

    private static let columns =
        "tweets(id, author_id, created_at, conversation_id, reply_to_user, "
        + "lang, flags, likes, reposts, replies, quotes, text, extra, original, twarc) "
        + "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
    private static let insertTweet = "INSERT INTO " + columns
    private static let replaceTweet = "INSERT OR REPLACE INTO " + columns

    /// Upserts one tweet's row and records how its index entry must change. A primary tweet is indexed for search; an
    /// included one is kept for lookups only and never demotes a tweet already stored as primary.
    ///
    /// The batch holds each id once, so what the index holds before the batch is what the stored row says. Returns
    /// true when the tweet became a result just now (it was not stored, or only as an included tweet).
    private func stage(
        _ prepared: PreparedTweet, twarcBlocks: inout OriginalsWriter.TwarcBlocks, into index: inout IndexChanges
    ) throws -> Bool {
        let twarcID = try prepared.twarc.map { try twarcBlocks.id(of: $0, connection) }
        // Most tweets are new: try the plain insert first and look at the stored row only when one is there.
        try insertNew.run(prepared, original: prepared.original, twarc: twarcID)
        if connection.changes == 1 {
            // A result has a document and an included tweet none; asking `document` copied its six strings.
            if prepared.primary { index.insert(prepared) }
            try keys.insert(prepared.rowid, prepared.keys)
            return prepared.primary
        }
        selectExisting.bind(prepared.rowid, at: 1)
        defer { selectExisting.reset() }
        guard try selectExisting.step() else { return false }
        let wasPrimary = !TweetFlags(rawValue: selectExisting.int64(6)).contains(.includedOnly)
        if wasPrimary, !prepared.primary { return false }
        let old = wasPrimary ? TweetDocument(try TweetRecord.tweet(from: selectExisting)) : nil
        // A copy without an original (an archive entry, a v1.1 status) keeps the one stored before.
        if prepared.original == nil, !selectExisting.isNull(13) {
            try replaceTweet.run(
                prepared, original: selectExisting.blob(13),
                twarc: selectExisting.isNull(14) ? nil : selectExisting.int64(14))
        } else {
            try replaceTweet.run(prepared, original: prepared.original, twarc: twarcID)
        }
        // An included copy replacing an included one has no keys, and had none.
        if wasPrimary || prepared.primary { try keys.replace(prepared.rowid, prepared.keys) }
        if old != prepared.document {
            if let old { index.delete(prepared.rowid, old) }
            if prepared.primary { index.insert(prepared) }
        }
        return !wasPrimary && prepared.primary
    }

    private static let insertUser =
        "INSERT OR REPLACE INTO users(id, username, name, profile_image_url, verified, "
        + "description, location, created_at, protected, url, metrics) VALUES (?,?,?,?,?,?,?,?,?,?,?)"

    /// Skips users written before with the same fields (the connection remembers them): authors repeat on almost
    /// every page. An original is compressed here, with the batch's dictionary, only for a user that is written.
    func write(
        _ user: User, fingerprint: Int, original: OriginalJSON? = nil, dictionary: OriginalsCodec.Dictionary? = nil
    ) throws {
        if connection.writtenUsers[user.id.rawValue] == fingerprint { return }
        if connection.writtenUsers.count > 500_000 { connection.writtenUsers.removeAll(keepingCapacity: true) }
        connection.writtenUsers[user.id.rawValue] = fingerprint
        if let original {
            let blob = connection.codec.compress(original.bytes, dictionary: dictionary)
            try OriginalsWriter.store(.user, String(user.id.rawValue), blob, connection)
        }
        var metrics: SQLValue = .null
        if let counts = user.metrics {
            var writer = ByteWriter()
            for value in [counts.followers, counts.following, counts.tweets, counts.listed] { writer.int(value) }
            metrics = .blob(writer.bytes)
        }
        try connection.withStatement(
            Self.insertUser,
            [
                .integer(Int64(bitPattern: user.id.rawValue)), .text(user.username), .text(user.name),
                user.profileImageURL.map(SQLValue.text) ?? .null, .integer(user.verified ? 1 : 0),
                user.description.map(SQLValue.text) ?? .null, user.location.map(SQLValue.text) ?? .null,
                user.createdAt.map { .integer(TweetRecord.milliseconds($0)) } ?? .null,
                .integer(user.protected ? 1 : 0), user.url.map(SQLValue.text) ?? .null, metrics,
            ]
        ) { try $0.run() }
    }

    private static let insertMedia =
        "INSERT OR REPLACE INTO media(media_key, type, url, preview_image_url, width, height, "
        + "alt_text) VALUES (?,?,?,?,?,?,?)"

    func write(_ media: Media) throws {
        try connection.withStatement(
            Self.insertMedia,
            [
                .text(media.mediaKey), .text(media.kind.rawValue), media.url.map(SQLValue.text) ?? .null,
                media.previewImageURL.map(SQLValue.text) ?? .null, media.width.map { .integer(Int64($0)) } ?? .null,
                media.height.map { .integer(Int64($0)) } ?? .null, media.altText.map(SQLValue.text) ?? .null,
            ]
        ) { try $0.run() }
    }
}

/// How the full-text index must change for one batch, gathered while the rows are written in ascending id order.
///
/// Because the index is contentless, removing an entry needs the exact values it was built from, which the writer
/// rebuilds from the stored row.
struct IndexChanges {
    private var deletes: [(rowid: Int64, document: TweetDocument)] = []
    /// The prepared tweets themselves, not copies of their documents: copying six strings per tweet (a retain each,
    /// and a release when the list goes) cost the writer thread 4% of its time.
    private var inserts: [PreparedTweet] = []

    /// Records an entry to remove; calls come in ascending rowid order.
    mutating func delete(_ rowid: Int64, _ document: TweetDocument) { deletes.append((rowid, document)) }

    /// Records the entry of a prepared tweet with a document; calls come in ascending rowid order.
    mutating func insert(_ tweet: PreparedTweet) { inserts.append(tweet) }

    static let insert =
        "INSERT INTO tweets_fts(rowid, body, tags, cashtags, mentions, urls, refs) VALUES (?,?,?,?,?,?,?)"
    private static let delete =
        "INSERT INTO tweets_fts(tweets_fts, rowid, body, tags, cashtags, mentions, urls, refs) "
        + "VALUES ('delete',?,?,?,?,?,?,?)"

    /// Deletes, then inserts, each in ascending rowid order.
    func apply(_ connection: Connection) throws {
        if !deletes.isEmpty {
            let delete = try connection.prepare(Self.delete)
            for (rowid, document) in deletes { try delete.run(rowid, document) }
        }
        guard !inserts.isEmpty else { return }
        let insert = try connection.prepare(Self.insert)
        for tweet in inserts where tweet.primary { try insert.runIndexEntry(of: tweet) }
    }
}

extension Statement {
    /// Runs a statement over `Writer`'s tweet columns for one prepared row.
    func run(_ tweet: PreparedTweet, original: [UInt8]?, twarc: Int64?) throws {
        defer { reset() }
        tweet.bind(to: self, original: original, twarc: twarc)
        while try step() {}
    }

    /// Runs the index insert for a result's document, read in place: binding a copy of the document retained and
    /// released its six strings, 1% of the writer thread.
    func runIndexEntry(of tweet: PreparedTweet) throws {
        defer { reset() }
        bind(tweet.rowid, at: 1)
        bind(tweet.document?.body ?? "", at: 2)
        bind(tweet.document?.tags ?? "", at: 3)
        bind(tweet.document?.cashtags ?? "", at: 4)
        bind(tweet.document?.mentions ?? "", at: 5)
        bind(tweet.document?.urls ?? "", at: 6)
        bind(tweet.document?.refs ?? "", at: 7)
        while try step() {}
    }

    /// Runs an index statement whose parameters are a rowid and then the document's columns.
    func run(_ rowid: Int64, _ document: TweetDocument) throws {
        defer { reset() }
        bind(rowid, at: 1)
        bind(document.body, at: 2)
        bind(document.tags, at: 3)
        bind(document.cashtags, at: 4)
        bind(document.mentions, at: 5)
        bind(document.urls, at: 6)
        bind(document.refs, at: 7)
        while try step() {}
    }
}
