import Foundation
import TweetKit

/// Writes pages into the tables and the index. Every method runs inside the caller's transaction.
///
/// Upserts are by id, so writing the same page twice leaves the store as it was after the first time.
struct Writer {
    let connection: Connection
    /// Users already written in this writer's lifetime with the same fields; authors repeat on almost every page.
    private var writtenUsers: [UInt64: Int] = [:]

    init(connection: Connection) {
        self.connection = connection
    }

    /// Writes a page: its tweets as search results, its included tweets for lookups, and its users and media.
    /// Returns how many of the page's tweets were written.
    @discardableResult
    mutating func write(_ page: Page) throws -> Int {
        for user in page.users { try write(user) }
        for media in page.media { try write(media) }
        for tweet in page.includedTweets { try write(tweet, primary: false) }
        for tweet in page.tweets { try write(tweet, primary: true) }
        return page.tweets.count
    }

    private static let selectExisting = "SELECT flags, text, extra FROM tweets WHERE id = ?"
    private static let insertTweet = "INSERT OR REPLACE INTO tweets(id, author_id, created_at, conversation_id, reply_to_user, "
        + "lang, flags, likes, reposts, replies, quotes, text, extra) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)"
    private static let insertIndex = "INSERT INTO tweets_fts(rowid, body, tags, cashtags, mentions, urls) VALUES (?,?,?,?,?,?)"
    private static let deleteIndex = "INSERT INTO tweets_fts(tweets_fts, rowid, body, tags, cashtags, mentions, urls) "
        + "VALUES ('delete',?,?,?,?,?,?)"

    /// Upserts one tweet. A primary tweet is indexed for search; an included one is kept for lookups only and never
    /// demotes a tweet already stored as primary.
    func write(_ tweet: Tweet, primary: Bool) throws {
        let rowid = Int64(bitPattern: tweet.id.rawValue)
        let existing = try connection.withStatement(Self.selectExisting, [.integer(rowid)]) { row -> (TweetFlags, Tweet)? in
            guard try row.step() else { return nil }
            var old = Tweet(id: tweet.id, text: row.text(1))
            try TweetRecord.decodeExtra(row.blob(2), into: &old)
            return (TweetFlags(rawValue: row.int64(0)), old)
        }
        var oldDocument: TweetDocument?
        if let (flags, old) = existing {
            let wasPrimary = !flags.contains(.includedOnly)
            if wasPrimary, !primary { return }
            if wasPrimary { oldDocument = TweetDocument(old) }
        }
        let newDocument = primary ? TweetDocument(tweet) : nil
        let flags = TweetRecord.flags(for: tweet, includedOnly: !primary)
        try connection.withStatement(Self.insertTweet, TweetRecord.values(for: tweet, flags: flags)) { try $0.run() }
        guard oldDocument != newDocument else { return }
        if let oldDocument {
            try connection.withStatement(Self.deleteIndex, [.integer(rowid)] + oldDocument.values) { try $0.run() }
        }
        if let newDocument {
            try connection.withStatement(Self.insertIndex, [.integer(rowid)] + newDocument.values) { try $0.run() }
        }
    }

    private static let insertUser = "INSERT OR REPLACE INTO users(id, username, name, profile_image_url, verified, "
        + "description, location, created_at, protected, url, metrics) VALUES (?,?,?,?,?,?,?,?,?,?,?)"

    mutating func write(_ user: User) throws {
        let fingerprint = user.hashValue
        if writtenUsers[user.id.rawValue] == fingerprint { return }
        if writtenUsers.count > 200_000 { writtenUsers.removeAll(keepingCapacity: true) }
        writtenUsers[user.id.rawValue] = fingerprint
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
