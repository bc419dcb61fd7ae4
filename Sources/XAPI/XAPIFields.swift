import Foundation

/// The field sets and expansions requested with every tweet call: what TweetKit's models hold, nothing more, so pages
/// stay small. Without them the API returns only `id`, `text` and `edit_history_tweet_ids`.
public enum XAPIFields {
    /// `tweet.fields`.
    public static let tweet = [
        "author_id", "conversation_id", "created_at", "entities", "in_reply_to_user_id", "lang", "public_metrics",
        "referenced_tweets", "attachments", "possibly_sensitive", "source",
    ]
    /// `expansions`: authors, referenced tweets and their authors, replied-to and mentioned users, media.
    public static let expansions = [
        "author_id", "referenced_tweets.id", "referenced_tweets.id.author_id", "in_reply_to_user_id",
        "attachments.media_keys", "entities.mentions.username",
    ]
    /// `user.fields`.
    public static let user = [
        "name", "username", "profile_image_url", "verified", "description", "public_metrics", "created_at", "location",
        "protected", "url",
    ]
    /// `media.fields`.
    public static let media = ["type", "url", "preview_image_url", "alt_text", "width", "height"]

    /// The four lists as query items (commas are percent-encoded when the URL is built).
    static var tweetQueryItems: [URLQueryItem] {
        [
            URLQueryItem(name: "tweet.fields", value: tweet.joined(separator: ",")),
            URLQueryItem(name: "expansions", value: expansions.joined(separator: ",")),
            URLQueryItem(name: "user.fields", value: user.joined(separator: ",")),
            URLQueryItem(name: "media.fields", value: media.joined(separator: ",")),
        ]
    }

    /// `user.fields` alone, for user lookups.
    static var userQueryItems: [URLQueryItem] {
        [URLQueryItem(name: "user.fields", value: user.joined(separator: ","))]
    }

    /// RFC 3339 in the only form the API accepts: UTC, whole seconds (`2021-11-15T18:00:00Z`).
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)))
    }
}
