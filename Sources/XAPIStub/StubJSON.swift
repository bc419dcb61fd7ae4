import Foundation
import TweetKit

/// Serializes models into the contract's JSON shapes, keeping only the fields the request asked for, as the API does
/// (a request without `tweet.fields` gets `id`, `text` and `edit_history_tweet_ids` only).
enum StubJSON {
    static let defaultTweetFields: Set<String> = ["id", "text", "edit_history_tweet_ids"]
    static let defaultUserFields: Set<String> = ["id", "name", "username"]
    static let defaultMediaFields: Set<String> = ["media_key", "type"]

    static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'"
        return formatter.string(from: date)
    }

    static func tweet(_ tweet: Tweet, fields: Set<String>, original: OriginalJSON? = nil) -> [String: Any] {
        if let kept = filtered(original, fields: fields, defaults: defaultTweetFields) { return kept }
        var all: [String: Any] = [
            "id": tweet.id.description, "text": tweet.text, "edit_history_tweet_ids": [tweet.id.description],
        ]
        if let author = tweet.authorID { all["author_id"] = author.description }
        if let created = tweet.createdAt { all["created_at"] = timestamp(created) }
        if let lang = tweet.lang { all["lang"] = lang }
        if let conversation = tweet.conversationID { all["conversation_id"] = conversation.description }
        if let replyUser = tweet.inReplyToUserID { all["in_reply_to_user_id"] = replyUser.description }
        if !tweet.referencedTweets.isEmpty {
            all["referenced_tweets"] = tweet.referencedTweets.map {
                ["type": $0.kind.rawValue, "id": $0.id.description]
            }
        }
        if let metrics = tweet.metrics {
            var counts: [String: Any] = [
                "retweet_count": metrics.retweets, "reply_count": metrics.replies, "like_count": metrics.likes,
                "quote_count": metrics.quotes,
            ]
            if let impressions = metrics.impressions { counts["impression_count"] = impressions }
            if let bookmarks = metrics.bookmarks { counts["bookmark_count"] = bookmarks }
            all["public_metrics"] = counts
        }
        if !tweet.entities.isEmpty { all["entities"] = entities(tweet.entities) }
        if !tweet.mediaKeys.isEmpty { all["attachments"] = ["media_keys": tweet.mediaKeys] }
        if let source = tweet.source { all["source"] = source }
        if let sensitive = tweet.possiblySensitive { all["possibly_sensitive"] = sensitive }
        return all.filter { defaultTweetFields.contains($0.key) || fields.contains($0.key) }
    }

    private static func entities(_ entities: TweetEntities) -> [String: Any] {
        var result: [String: Any] = [:]
        if !entities.hashtags.isEmpty {
            result["hashtags"] = entities.hashtags.map { ["start": $0.start, "end": $0.end, "tag": $0.tag] }
        }
        if !entities.cashtags.isEmpty {
            result["cashtags"] = entities.cashtags.map { ["start": $0.start, "end": $0.end, "tag": $0.tag] }
        }
        if !entities.mentions.isEmpty {
            result["mentions"] = entities.mentions.map { mention -> [String: Any] in
                var item: [String: Any] = ["start": mention.start, "end": mention.end, "username": mention.username]
                if let id = mention.id { item["id"] = id.description }
                return item
            }
        }
        if !entities.urls.isEmpty {
            result["urls"] = entities.urls.map { url -> [String: Any] in
                var item: [String: Any] = ["start": url.start, "end": url.end, "url": url.url]
                if let expanded = url.expandedURL { item["expanded_url"] = expanded }
                if let display = url.displayURL { item["display_url"] = display }
                return item
            }
        }
        return result
    }

    static func user(_ user: User, fields: Set<String>, original: OriginalJSON? = nil) -> [String: Any] {
        if let kept = filtered(original, fields: fields, defaults: defaultUserFields) { return kept }
        var all: [String: Any] = [
            "id": user.id.description, "name": user.name, "username": user.username, "verified": user.verified,
            "protected": user.protected, "description": user.description ?? "", "url": user.url ?? "",
        ]
        if let image = user.profileImageURL { all["profile_image_url"] = image }
        if let location = user.location { all["location"] = location }
        if let created = user.createdAt { all["created_at"] = timestamp(created) }
        if let metrics = user.metrics {
            all["public_metrics"] = [
                "followers_count": metrics.followers, "following_count": metrics.following,
                "tweet_count": metrics.tweets, "listed_count": metrics.listed,
            ]
        }
        return all.filter { defaultUserFields.contains($0.key) || fields.contains($0.key) }
    }

    static func media(_ media: Media, fields: Set<String>, original: OriginalJSON? = nil) -> [String: Any] {
        if let kept = filtered(original, fields: fields, defaults: defaultMediaFields) { return kept }
        var all: [String: Any] = ["media_key": media.mediaKey, "type": media.kind.rawValue]
        if let url = media.url { all["url"] = url }
        if let preview = media.previewImageURL { all["preview_image_url"] = preview }
        if let width = media.width { all["width"] = width }
        if let height = media.height { all["height"] = height }
        if let alt = media.altText { all["alt_text"] = alt }
        return all.filter { defaultMediaFields.contains($0.key) || fields.contains($0.key) }
    }

    /// A partial-error item for an id that does not exist.
    static func notFound(value: String, resourceType: String, parameter: String, section: String? = nil) -> [String:
        Any]
    {
        let noun = resourceType == "user" && parameter == "username" ? "user with username" : "\(resourceType) with id"
        var item: [String: Any] = [
            "value": value, "detail": "Could not find \(noun): [\(value)].", "title": "Not Found Error",
            "resource_type": resourceType, "parameter": parameter, "resource_id": value,
            "type": "https://api.twitter.com/2/problems/resource-not-found",
        ]
        if let section { item["section"] = section }
        return item
    }

    static func encode(_ object: Any) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data("{}".utf8)
    }
}
