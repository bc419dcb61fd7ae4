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

    /// Writes `pages` and adds their result tweets to `collection`; returns how many result tweets are new.
    @discardableResult
    func write(_ pages: [Page], collection: String? = nil) throws -> Int {
        try createStaging()
        var tweets: [TweetRow] = []
        var position: [TweetID: Int] = [:]
        func keep(_ row: TweetRow) {
            if let index = position[row.tweet.id] {
                if row.primary || !tweets[index].primary { tweets[index] = row }
            } else {
                position[row.tweet.id] = tweets.count
                tweets.append(row)
            }
        }
        var users: [UserID: (User, [UInt8]?)] = [:]
        var media: [String: (Media, [UInt8]?)] = [:]
        for page in pages {
            let originals = page.originals
            for tweet in page.includedTweets {
                keep(TweetRow(tweet: tweet, primary: false, original: compressed(originals.tweets[tweet.id])))
            }
            for tweet in page.tweets {
                keep(TweetRow(tweet: tweet, primary: true, original: compressed(originals.tweets[tweet.id])))
            }
            for user in page.users { users[user.id] = (user, compressed(originals.users[user.id])) }
            for item in page.media { media[item.mediaKey] = (item, compressed(originals.media[item.mediaKey])) }
        }
        try copyUsers(users.values.sorted { $0.0.id < $1.0.id })
        try copyMedia(media.values.sorted { $0.0.mediaKey < $1.0.mediaKey })
        guard !tweets.isEmpty else { return 0 }
        var rows = CopyRows()
        for row in tweets.sorted(by: { $0.tweet.id < $1.tweet.id }) { row.append(to: &rows) }
        try connection.copy("COPY tweets_staging(\(TweetRow.columns)) FROM STDIN", data: rows.bytes)
        let known =
            try connection.scalar(
                "SELECT count(*) FROM tweets_staging s JOIN tweets t ON t.id = s.id "
                    + "WHERE (s.flags & 128) = 0 AND (t.flags & 128) = 0", doing: "importing") ?? 0
        let updates = TweetRow.columns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0 != "id" }
            .map {
                $0 == "original" ? "original = coalesce(EXCLUDED.original, tweets.original)" : "\($0) = EXCLUDED.\($0)"
            }
        try connection.execute(
            "INSERT INTO tweets(\(TweetRow.columns)) SELECT \(TweetRow.columns) FROM tweets_staging "
                + "ON CONFLICT (id) DO UPDATE SET \(updates.joined(separator: ", ")) "
                + "WHERE (tweets.flags & 128) <> 0 OR (EXCLUDED.flags & 128) = 0", doing: "importing")
        if let collection {
            try connection.execute(
                "INSERT INTO collections(name, created_at) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                [.text(collection), .text(String(Date().timeIntervalSince1970))], doing: "adding to a collection")
            try connection.execute(
                "INSERT INTO collection_tweets(collection, tweet_id) SELECT $1, id FROM tweets_staging "
                    + "WHERE (flags & 128) = 0 ON CONFLICT DO NOTHING", [.text(collection)],
                doing: "adding to a collection")
        }
        let primaries = tweets.filter(\.primary).count
        return primaries - Int(known)
    }

    /// Temporary staging tables shaped like their targets; emptied at every commit.
    private func createStaging() throws {
        for table in ["tweets", "users", "media"] {
            try connection.execute(
                "CREATE TEMPORARY TABLE IF NOT EXISTS \(table)_staging (LIKE \(table) INCLUDING DEFAULTS) "
                    + "ON COMMIT DELETE ROWS", doing: "preparing an import")
        }
    }

    private func copyUsers(_ users: [(User, [UInt8]?)]) throws {
        guard !users.isEmpty else { return }
        let columns =
            "id, username, name, profile_image_url, verified, description, location, created_at, protected, url, "
            + "followers, following, tweet_count, listed, original"
        var rows = CopyRows()
        for (user, original) in users {
            rows.integer(Int64(bitPattern: user.id.rawValue))
            rows.text(user.username)
            rows.text(user.name)
            rows.text(user.profileImageURL)
            rows.text(user.verified ? "t" : "f")
            rows.text(user.description)
            rows.text(user.location)
            rows.integer(user.createdAt.map(TweetRecord.milliseconds))
            rows.text(user.protected ? "t" : "f")
            rows.text(user.url)
            rows.integer(user.metrics.map { Int64($0.followers) })
            rows.integer(user.metrics.map { Int64($0.following) })
            rows.integer(user.metrics.map { Int64($0.tweets) })
            rows.integer(user.metrics.map { Int64($0.listed) })
            rows.blob(original)
            rows.endRow()
        }
        try connection.copy("COPY users_staging(\(columns)) FROM STDIN", data: rows.bytes)
        let updates = columns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0 != "id" }
            .map {
                $0 == "original" ? "original = coalesce(EXCLUDED.original, users.original)" : "\($0) = EXCLUDED.\($0)"
            }
        try connection.execute(
            "INSERT INTO users(\(columns)) SELECT \(columns) FROM users_staging "
                + "ON CONFLICT (id) DO UPDATE SET \(updates.joined(separator: ", "))", doing: "importing users")
    }

    private func copyMedia(_ media: [(Media, [UInt8]?)]) throws {
        guard !media.isEmpty else { return }
        let columns = "media_key, type, url, preview_image_url, width, height, alt_text, original"
        var rows = CopyRows()
        for (item, original) in media {
            rows.text(item.mediaKey)
            rows.text(item.kind.rawValue)
            rows.text(item.url)
            rows.text(item.previewImageURL)
            rows.integer(item.width.map { Int64($0) })
            rows.integer(item.height.map { Int64($0) })
            rows.text(item.altText)
            rows.blob(original)
            rows.endRow()
        }
        try connection.copy("COPY media_staging(\(columns)) FROM STDIN", data: rows.bytes)
        let updates = columns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0 != "media_key" }
            .map {
                $0 == "original" ? "original = coalesce(EXCLUDED.original, media.original)" : "\($0) = EXCLUDED.\($0)"
            }
        try connection.execute(
            "INSERT INTO media(\(columns)) SELECT \(columns) FROM media_staging "
                + "ON CONFLICT (media_key) DO UPDATE SET \(updates.joined(separator: ", "))", doing: "importing media")
    }

    private func compressed(_ original: OriginalJSON?) -> [UInt8]? {
        original.map { codec.compress($0.bytes) }
    }
}
