import Foundation

/// The field sets and expansions requested with every tweet call: every field and expansion an app-only bearer token
/// may ask for, as twarc2 asks, so what is stored and exported is all the API knows about a tweet. Without them the
/// API returns only `id`, `text` and `edit_history_tweet_ids`.
///
/// Left out are the fields that need a user context (`non_public_metrics`, `organic_metrics`, `promoted_metrics`,
/// the media equivalents, a user's `connection_status`): with an app-only token the API refuses a request naming them.
public enum XAPIFields {
    /// `tweet.fields`. `note_tweet` carries the full text of long posts, whose `text` is cut at 280 characters.
    public static let tweet = [
        "attachments", "author_id", "context_annotations", "conversation_id", "created_at", "edit_controls",
        "edit_history_tweet_ids", "entities", "geo", "id", "in_reply_to_user_id", "lang", "note_tweet",
        "possibly_sensitive", "public_metrics", "referenced_tweets", "reply_settings", "source", "text", "withheld",
    ]
    /// `expansions`: authors, referenced tweets and their authors, replied-to and mentioned users, media, polls,
    /// places and the earlier versions of edited tweets.
    public static let expansions = [
        "author_id", "attachments.media_keys", "attachments.poll_ids", "edit_history_tweet_ids",
        "entities.mentions.username", "geo.place_id", "in_reply_to_user_id", "referenced_tweets.id",
        "referenced_tweets.id.author_id",
    ]
    /// `user.fields`.
    public static let user = [
        "created_at", "description", "entities", "id", "location", "name", "pinned_tweet_id", "profile_image_url",
        "protected", "public_metrics", "url", "username", "verified", "verified_type", "withheld",
    ]
    /// `media.fields`.
    public static let media = [
        "alt_text", "duration_ms", "height", "media_key", "preview_image_url", "public_metrics", "type", "url",
        "variants", "width",
    ]
    /// `place.fields`.
    public static let place = [
        "contained_within", "country", "country_code", "full_name", "geo", "id", "name", "place_type",
    ]
    /// `poll.fields`.
    public static let poll = ["duration_minutes", "end_datetime", "id", "options", "voting_status"]

    /// The six lists as query items (commas are percent-encoded when the URL is built).
    static var tweetQueryItems: [URLQueryItem] {
        [
            URLQueryItem(name: "tweet.fields", value: tweet.joined(separator: ",")),
            URLQueryItem(name: "expansions", value: expansions.joined(separator: ",")),
            URLQueryItem(name: "user.fields", value: user.joined(separator: ",")),
            URLQueryItem(name: "media.fields", value: media.joined(separator: ",")),
            URLQueryItem(name: "place.fields", value: place.joined(separator: ",")),
            URLQueryItem(name: "poll.fields", value: poll.joined(separator: ",")),
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
