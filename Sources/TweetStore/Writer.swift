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

    init(connection: Connection) throws {
        self.connection = connection
        insertNew = try connection.prepare(Self.insertTweet + " ON CONFLICT(id) DO NOTHING")
        selectExisting = try connection.prepare("SELECT flags, text, extra FROM tweets WHERE id = ?")
        replaceTweet = try connection.prepare(Self.replaceTweet)
    }

    /// Writes pages: their tweets as search results, their included tweets for lookups, their users and media.
    ///
    /// The full-text index is written last, in ascending id order, because FTS5 flushes its pending data to a new
    /// segment whenever a rowid goes down and whenever another statement opens a savepoint (as `INSERT OR REPLACE`
    /// does). Interleaving index and table writes, or writing newest first as pages come, made one segment per tweet
    /// and imports several times slower.
    func write(_ batch: PreparedBatch) throws {
        for user in batch.users { try write(user) }
        for media in batch.media { try write(media) }
        var index = IndexChanges()
        for tweet in batch.included { try stage(tweet, into: &index) }
        for tweet in batch.tweets { try stage(tweet, into: &index) }
        try index.apply(connection)
    }

    /// Writes pages; see `write(_:)` for a prepared batch.
    func write(_ pages: [Page]) throws {
        try write(PreparedBatch(pages))
    }

    /// Writes one page; see `write(_:)` for a prepared batch.
    func write(_ page: Page) throws {
        try write(PreparedBatch([page]))
    }

    private static let columns = "tweets(id, author_id, created_at, conversation_id, reply_to_user, "
        + "lang, flags, likes, reposts, replies, quotes, text, extra) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)"
    private static let insertTweet = "INSERT INTO " + columns
    private static let replaceTweet = "INSERT OR REPLACE INTO " + columns

    /// Upserts one tweet's row and records how its index entry must change. A primary tweet is indexed for search; an
    /// included one is kept for lookups only and never demotes a tweet already stored as primary.
    private func stage(_ prepared: PreparedTweet, into index: inout IndexChanges) throws {
        let rowid = prepared.rowid
        // Most tweets are new: try the plain insert first and look at the stored row only when one is there.
        try insertNew.run(prepared.values)
        if connection.changes == 1 {
            index.recordCommitted(rowid, nil)
            index.stage(rowid, prepared.document)
            return
        }
        selectExisting.bind([.integer(rowid)])
        defer { selectExisting.reset() }
        guard try selectExisting.step() else { return }
        var old = Tweet(id: TweetID(UInt64(bitPattern: rowid)), text: selectExisting.text(1))
        try TweetRecord.decodeExtra(selectExisting.blob(2), into: &old)
        let wasPrimary = !TweetFlags(rawValue: selectExisting.int64(0)).contains(.includedOnly)
        if wasPrimary, !prepared.primary { return }
        index.recordCommitted(rowid, wasPrimary ? TweetDocument(old) : nil)
        try replaceTweet.run(prepared.values)
        index.stage(rowid, prepared.document)
    }

    private static let insertUser = "INSERT OR REPLACE INTO users(id, username, name, profile_image_url, verified, "
        + "description, location, created_at, protected, url, metrics) VALUES (?,?,?,?,?,?,?,?,?,?,?)"

    /// Skips users written before with the same fields (the connection remembers them): authors repeat on almost
    /// every page.
    func write(_ user: User) throws {
        let fingerprint = user.hashValue
        if connection.writtenUsers[user.id.rawValue] == fingerprint { return }
        if connection.writtenUsers.count > 500_000 { connection.writtenUsers.removeAll(keepingCapacity: true) }
        connection.writtenUsers[user.id.rawValue] = fingerprint
        var metrics: SQLValue = .null
        if let counts = user.metrics {
            var writer = ByteWriter()
            for value in [counts.followers, counts.following, counts.tweets, counts.listed] { writer.int(value) }
            metrics = .blob(writer.bytes)
        }
        try connection.withStatement(Self.insertUser, [
            .integer(Int64(bitPattern: user.id.rawValue)), .text(user.username), .text(user.name),
            user.profileImageURL.map(SQLValue.text) ?? .null, .integer(user.verified ? 1 : 0),
            user.description.map(SQLValue.text) ?? .null, user.location.map(SQLValue.text) ?? .null,
            user.createdAt.map { .integer(TweetRecord.milliseconds($0)) } ?? .null,
            .integer(user.protected ? 1 : 0), user.url.map(SQLValue.text) ?? .null, metrics,
        ]) { try $0.run() }
    }

    private static let insertMedia = "INSERT OR REPLACE INTO media(media_key, type, url, preview_image_url, width, height, "
        + "alt_text) VALUES (?,?,?,?,?,?,?)"

    func write(_ media: Media) throws {
        try connection.withStatement(Self.insertMedia, [
            .text(media.mediaKey), .text(media.kind.rawValue), media.url.map(SQLValue.text) ?? .null,
            media.previewImageURL.map(SQLValue.text) ?? .null, media.width.map { .integer(Int64($0)) } ?? .null,
            media.height.map { .integer(Int64($0)) } ?? .null, media.altText.map(SQLValue.text) ?? .null,
        ]) { try $0.run() }
    }
}

/// How the full-text index must change for one batch: per rowid, what it holds now and what it should hold.
///
/// Because the index is contentless, removing an entry needs the exact values it was built from; a tweet written twice
/// in one batch is therefore diffed against what was committed before the batch, never against its first copy.
struct IndexChanges {
    private var committed: [Int64: TweetDocument?] = [:]
    private var wanted: [Int64: TweetDocument?] = [:]

    /// Records what the index holds for `rowid`, the first time the batch touches it.
    mutating func recordCommitted(_ rowid: Int64, _ document: TweetDocument?) {
        if committed.index(forKey: rowid) == nil { committed.updateValue(document, forKey: rowid) }
    }

    mutating func stage(_ rowid: Int64, _ document: TweetDocument?) {
        wanted.updateValue(document, forKey: rowid)
    }

    private static let insert = "INSERT INTO tweets_fts(rowid, body, tags, cashtags, mentions, urls) VALUES (?,?,?,?,?,?)"
    private static let delete = "INSERT INTO tweets_fts(tweets_fts, rowid, body, tags, cashtags, mentions, urls) "
        + "VALUES ('delete',?,?,?,?,?,?)"

    /// Deletes, then inserts, each in ascending rowid order.
    func apply(_ connection: Connection) throws {
        var deletes: [(Int64, TweetDocument)] = []
        var inserts: [(Int64, TweetDocument)] = []
        for (rowid, document) in wanted {
            let before = committed[rowid] ?? nil
            if before == document { continue }
            if let before { deletes.append((rowid, before)) }
            if let document { inserts.append((rowid, document)) }
        }
        if !deletes.isEmpty {
            let delete = try connection.prepare(Self.delete)
            for (rowid, document) in deletes.sorted(by: { $0.0 < $1.0 }) { try delete.run([.integer(rowid)] + document.values) }
        }
        let insert = try connection.prepare(Self.insert)
        for (rowid, document) in inserts.sorted(by: { $0.0 < $1.0 }) { try insert.run([.integer(rowid)] + document.values) }
    }
}

/// A tweet turned into what the writer binds, computed before the write so the serial writer thread does only SQLite
/// work (row values, flags, the compact `extra` bytes and the index document are built by the decoding tasks).
struct PreparedTweet: Sendable {
    let rowid: Int64
    let primary: Bool
    let values: [SQLValue]
    /// What the index should hold; nil for included tweets, which are not indexed.
    let document: TweetDocument?

    init(_ tweet: Tweet, primary: Bool) {
        rowid = Int64(bitPattern: tweet.id.rawValue)
        self.primary = primary
        values = TweetRecord.values(for: tweet, flags: TweetRecord.flags(for: tweet, includedOnly: !primary))
        document = primary ? TweetDocument(tweet) : nil
    }
}

/// Pages ready for `Writer`: users, media, then included and primary tweets in arrival order.
struct PreparedBatch: Sendable {
    var users: [User] = []
    var media: [Media] = []
    var included: [PreparedTweet] = []
    var tweets: [PreparedTweet] = []

    init(_ pages: [Page]) {
        for page in pages {
            users += page.users
            media += page.media
            included += page.includedTweets.map { PreparedTweet($0, primary: false) }
            tweets += page.tweets.map { PreparedTweet($0, primary: true) }
        }
    }

    /// Appends another batch after this one.
    mutating func append(_ other: PreparedBatch) {
        users += other.users
        media += other.media
        included += other.included
        tweets += other.tweets
    }
}
