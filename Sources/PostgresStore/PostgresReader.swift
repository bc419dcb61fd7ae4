import Foundation
import TweetKit

/// Reads tweets, users and media back into models, and assembles a page with what its tweets refer to, as the
/// SQLite store's `Reader` does. Each kind is fetched with one `= ANY($1)` query per page, not one per row.
struct PostgresReader {
    let connection: PGConnection

    /// The stored tweets with these ids, by id.
    func tweets(_ ids: [TweetID]) throws -> [TweetID: Tweet] {
        guard !ids.isEmpty else { return [:] }
        let rows = try connection.rows(
            "SELECT \(TweetRow.selected) FROM tweets t WHERE t.id = ANY($1::bigint[])", [.text(Self.array(ids))],
            doing: "reading tweets", TweetRow.tweet(from:))
        return Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The stored users with these ids, by id.
    func users(_ ids: [UserID]) throws -> [UserID: User] {
        guard !ids.isEmpty else { return [:] }
        let rows = try connection.rows(
            "SELECT id, username, name, profile_image_url, verified, description, location, created_at, protected, "
                + "url, followers, following, tweet_count, listed FROM users WHERE id = ANY($1::bigint[])",
            [.text("{" + ids.map { String(Int64(bitPattern: $0.rawValue)) }.joined(separator: ",") + "}")],
            doing: "reading users"
        ) { row -> User in
            var user = User(
                id: UserID(UInt64(bitPattern: row.int64(0))), username: row.text(1), name: row.text(2),
                profileImageURL: row.optionalText(3), verified: row.text(4) == "t", description: row.optionalText(5),
                location: row.optionalText(6),
                createdAt: row.optionalInt64(7).map { Date(timeIntervalSince1970: Double($0) / 1000) },
                protected: row.text(8) == "t", url: row.optionalText(9))
            if !row.isNull(10) {
                user.metrics = UserMetrics(
                    followers: Int(row.int64(10)), following: Int(row.int64(11)), tweets: Int(row.int64(12)),
                    listed: Int(row.int64(13)))
            }
            return user
        }
        return Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The stored media with these keys, by key.
    func media(_ keys: [String]) throws -> [String: Media] {
        guard !keys.isEmpty else { return [:] }
        let rows = try connection.rows(
            "SELECT media_key, type, url, preview_image_url, width, height, alt_text FROM media "
                + "WHERE media_key = ANY($1::text[])", [.text(Self.textArray(keys))], doing: "reading media"
        ) { row in
            Media(
                mediaKey: row.text(0), kind: Media.Kind(rawValue: row.text(1)) ?? .photo, url: row.optionalText(2),
                previewImageURL: row.optionalText(3), width: row.optionalInt64(4).map { Int($0) },
                height: row.optionalInt64(5).map { Int($0) }, altText: row.optionalText(6))
        }
        return Dictionary(rows.map { ($0.mediaKey, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The user ids a `from:`/`to:` handle names: users with that username (any case), or the number itself.
    func userIDs(matching handle: String) throws -> [Int64] {
        var ids = try connection.rows(
            "SELECT id FROM users WHERE lower(username) = lower($1::text) "
                + "UNION SELECT id FROM reply_handles WHERE lower(username) = lower($1::text)", [.text(handle)],
            doing: "finding a user"
        ) { $0.int64(0) }
        if let numeric = UserID(handle) { ids.append(Int64(bitPattern: numeric.rawValue)) }
        return ids
    }

    /// A page holding `tweets` plus the users, referenced tweets and media they need, as the API's `includes` would.
    func page(with tweets: [Tweet]) throws -> Page {
        var page = Page(tweets: tweets)
        var seenTweets = Set(tweets.map(\.id))
        var referenced: [TweetID] = []
        for tweet in tweets {
            for reference in tweet.referencedTweets where seenTweets.insert(reference.id).inserted {
                referenced.append(reference.id)
            }
        }
        let included = try self.tweets(referenced)
        page.includedTweets = referenced.compactMap { included[$0] }
        var userIDs: [UserID] = []
        var seenUsers = Set<UserID>()
        var keys: [String] = []
        var seenMedia = Set<String>()
        for tweet in tweets + page.includedTweets {
            let related = [tweet.authorID, tweet.inReplyToUserID] + tweet.entities.mentions.map(\.id)
            for case let id? in related where seenUsers.insert(id).inserted { userIDs.append(id) }
            for key in tweet.mediaKeys where seenMedia.insert(key).inserted { keys.append(key) }
        }
        let users = try self.users(userIDs)
        page.users = userIDs.compactMap { users[$0] }
        let media = try self.media(keys)
        page.media = keys.compactMap { media[$0] }
        page.newestID = tweets.map(\.id).max()
        page.oldestID = tweets.map(\.id).min()
        return page
    }

    /// An array literal of ids, sent as one text parameter.
    static func array(_ ids: [TweetID]) -> String {
        "{" + ids.map { String(Int64(bitPattern: $0.rawValue)) }.joined(separator: ",") + "}"
    }

    /// A text array literal, each element quoted and escaped, sent as one text parameter.
    static func textArray(_ values: [String]) -> String {
        let quoted = values.map { value in
            "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                + "\""
        }
        return "{" + quoted.joined(separator: ",") + "}"
    }
}
