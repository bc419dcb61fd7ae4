import Foundation
import TweetKit

/// Reads tweets, users and media back into models and completes pages with what their tweets refer to.
struct Reader {
    let connection: Connection
    /// Users read by earlier pages of the same export; nil everywhere else.
    var userCache: UserOriginalsCache? = nil

    static let selectTweet = "SELECT \(TweetRecord.columns) FROM tweets t WHERE t.id = ?"
    static let selectTweetAndOriginal =
        "SELECT \(TweetRecord.columns), t.original, t.twarc FROM tweets t WHERE t.id = ?"
    static let selectUser =
        "SELECT id, username, name, profile_image_url, verified, description, location, created_at, "
        + "protected, url, metrics FROM users WHERE id = ?"
    static let selectUserIDs =
        "SELECT id FROM users WHERE username = ?1 COLLATE NOCASE UNION SELECT id FROM reply_handles WHERE username = ?1"
    static let selectMedia =
        "SELECT media_key, type, url, preview_image_url, width, height, alt_text FROM media WHERE media_key = ?"

    func tweet(_ id: TweetID) throws -> Tweet? {
        try connection.withStatement(Self.selectTweet, [.integer(Int64(bitPattern: id.rawValue))]) { row in
            try row.step() ? try TweetRecord.tweet(from: row) : nil
        }
    }

    func user(_ id: UserID) throws -> User? {
        try connection.withStatement(Self.selectUser, [.integer(Int64(bitPattern: id.rawValue))]) { row in
            guard try row.step() else { return nil }
            var user = User(id: id, username: row.text(1), name: row.text(2))
            user.profileImageURL = row.optionalText(3)
            user.verified = row.int(4) != 0
            user.description = row.optionalText(5)
            user.location = row.optionalText(6)
            user.createdAt = row.optionalInt64(7).map { Date(timeIntervalSince1970: Double($0) / 1000) }
            user.protected = row.int(8) != 0
            user.url = row.optionalText(9)
            if !row.isNull(10) {
                var reader = ByteReader(row.blob(10))
                user.metrics = UserMetrics(
                    followers: try reader.int(), following: try reader.int(), tweets: try reader.int(),
                    listed: try reader.int())
            }
            return user
        }
    }

    /// Ids of users with this handle (case-insensitively), or the number itself when it is a plain id.
    func userIDs(matching handle: String) throws -> [Int64] {
        var ids = try connection.rows(Self.selectUserIDs, [.text(handle)]) { $0.int64(0) }
        if let numeric = UserID(handle) { ids.append(Int64(bitPattern: numeric.rawValue)) }
        return ids
    }

    func media(_ key: String) throws -> Media? {
        try connection.withStatement(Self.selectMedia, [.text(key)]) { row in
            guard try row.step() else { return nil }
            return Media(
                mediaKey: row.text(0), kind: Media.Kind(rawValue: row.text(1)) ?? .photo, url: row.optionalText(2),
                previewImageURL: row.optionalText(3), width: row.optionalInt64(4).map { Int($0) },
                height: row.optionalInt64(5).map { Int($0) }, altText: row.optionalText(6))
        }
    }

    /// A page holding `tweets` plus the users, referenced tweets and media they need, as the API's `includes` would.
    func page(with tweets: [Tweet]) throws -> Page {
        try page(with: tweets, readingOriginals: false).page
    }

    /// The page, and with `readingOriginals` the included tweets' stored originals (parallel to
    /// `page.includedTweets`), read with their rows rather than by a second lookup each.
    func page(with tweets: [Tweet], readingOriginals: Bool) throws -> (page: Page, included: [StoredOriginal?]) {
        var page = Page(tweets: tweets)
        var includedOriginals: [StoredOriginal?] = []
        var seenTweets = Set(tweets.map(\.id))
        for tweet in tweets {
            for reference in tweet.referencedTweets where seenTweets.insert(reference.id).inserted {
                if readingOriginals {
                    let row = try connection.withStatement(
                        Self.selectTweetAndOriginal, [.integer(Int64(bitPattern: reference.id.rawValue))]
                    ) { row -> (Tweet, StoredOriginal?)? in
                        guard try row.step() else { return nil }
                        let original = StoredOriginal(row, column: 13)
                        // As for the page's own tweets: with an original, the model only says what to include.
                        let model =
                            original == nil ? try TweetRecord.tweet(from: row) : try TweetRecord.relations(from: row)
                        return (model, original)
                    }
                    if let (included, original) = row {
                        page.includedTweets.append(included)
                        includedOriginals.append(original)
                    }
                } else if let included = try self.tweet(reference.id) {
                    page.includedTweets.append(included)
                }
            }
        }
        var seenUsers = Set<UserID>()
        var seenMedia = Set<String>()
        // Each list on its own, by reference: `tweets + page.includedTweets` copied every tweet (a retain per field),
        // and an array of related ids per tweet was an allocation each; together they were a fifth of an export's
        // reading on the store's queue.
        func relate(_ id: UserID?) throws {
            guard let id, seenUsers.insert(id).inserted else { return }
            if let cached = userCache?.models[id] {
                page.users.append(cached)
            } else if let user = try user(id) {
                page.users.append(user)
                userCache?.remember(user)
            }
        }
        func relate(_ tweet: borrowing Tweet) throws {
            try relate(tweet.authorID)
            try relate(tweet.inReplyToUserID)
            for mention in tweet.entities.mentions { try relate(mention.id) }
            for key in tweet.mediaKeys where seenMedia.insert(key).inserted {
                if let media = try media(key) { page.media.append(media) }
            }
        }
        for index in tweets.indices { try relate(tweets[index]) }
        let included = page.includedTweets
        for index in included.indices { try relate(included[index]) }
        var newest: TweetID?
        var oldest: TweetID?
        for index in tweets.indices {
            let id = tweets[index].id
            if newest.map({ id > $0 }) ?? true { newest = id }
            if oldest.map({ id < $0 }) ?? true { oldest = id }
        }
        page.newestID = newest
        page.oldestID = oldest
        return (page, includedOriginals)
    }
}
