import Foundation

/// Readers for the API v2 object shapes (Tweet, User, Media, Problem), shared by every decoder that meets them:
/// API responses, twarc2 lines raw and flattened.
enum V2Objects {
    static func tweet(_ value: JSONValue, path: @autoclosure () -> String) throws -> Tweet {
        guard case .object(let object) = value else { throw DecodingProblem("\(path()) is not a tweet object") }
        guard let id = object["id"]?.snowflake else {
            throw DecodingProblem(
                object["id"] == nil ? "\(path()) has no id" : "\(path()).id is not a numeric id string")
        }
        // Long posts keep their full text in note_tweet; `text` holds the first 280 characters.
        let text = object["note_tweet"]?["text"]?.string ?? object["text"]?.string
        guard let text else { throw DecodingProblem("\(path()) (tweet \(id)) has no text") }
        var tweet = Tweet(id: id, text: text)
        tweet.authorID = object["author_id"]?.snowflake
        if let created = object["created_at"]?.string { tweet.createdAt = TwitterDate.parse(created) }
        tweet.lang = object["lang"]?.string
        tweet.conversationID = object["conversation_id"]?.snowflake
        tweet.inReplyToUserID = object["in_reply_to_user_id"]?.snowflake
        if let references = object["referenced_tweets"]?.array {
            tweet.referencedTweets = references.compactMap { reference in
                guard let kind = reference["type"]?.string.flatMap(ReferencedTweet.Kind.init(rawValue:)),
                    let id = reference["id"]?.snowflake
                else { return nil }
                return ReferencedTweet(kind: kind, id: id)
            }
        }
        if let metrics = object["public_metrics"]?.object {
            tweet.metrics = TweetMetrics(
                retweets: metrics["retweet_count"]?.int ?? 0, replies: metrics["reply_count"]?.int ?? 0,
                likes: metrics["like_count"]?.int ?? 0, quotes: metrics["quote_count"]?.int ?? 0,
                impressions: metrics["impression_count"]?.int, bookmarks: metrics["bookmark_count"]?.int)
        }
        if let entities = object["note_tweet"]?["entities"] ?? object["entities"] {
            tweet.entities = self.entities(entities)
        }
        if let keys = object["attachments"]?["media_keys"]?.array {
            tweet.mediaKeys = keys.compactMap(\.string)
        }
        tweet.source = object["source"]?.string
        tweet.possiblySensitive = object["possibly_sensitive"]?.bool
        return tweet
    }

    static func entities(_ value: JSONValue) -> TweetEntities {
        var entities = TweetEntities()
        func span(_ item: JSONValue) -> (Int, Int)? {
            // A span that runs backwards would trap whoever slices the text with it; such entities are dropped.
            guard let start = item["start"]?.int, let end = item["end"]?.int, 0 <= start, start <= end else {
                return nil
            }
            return (start, end)
        }
        if let hashtags = value["hashtags"]?.array {
            entities.hashtags = hashtags.compactMap { item in
                guard let (start, end) = span(item), let tag = item["tag"]?.string else { return nil }
                return Hashtag(start: start, end: end, tag: tag)
            }
        }
        if let cashtags = value["cashtags"]?.array {
            entities.cashtags = cashtags.compactMap { item in
                guard let (start, end) = span(item), let tag = item["tag"]?.string else { return nil }
                return Hashtag(start: start, end: end, tag: tag)
            }
        }
        if let mentions = value["mentions"]?.array {
            entities.mentions = mentions.compactMap { item in
                guard let (start, end) = span(item), let username = item["username"]?.string else { return nil }
                return Mention(start: start, end: end, username: username, id: item["id"]?.snowflake)
            }
        }
        if let urls = value["urls"]?.array {
            entities.urls = urls.compactMap { item in
                guard let (start, end) = span(item), let url = item["url"]?.string else { return nil }
                return URLEntity(
                    start: start, end: end, url: url, expandedURL: item["expanded_url"]?.string,
                    displayURL: item["display_url"]?.string)
            }
        }
        return entities
    }

    static func user(_ value: JSONValue, path: @autoclosure () -> String) throws -> User {
        guard case .object(let object) = value else { throw DecodingProblem("\(path()) is not a user object") }
        guard let id = object["id"]?.snowflake else {
            throw DecodingProblem(
                object["id"] == nil ? "\(path()) has no id" : "\(path()).id is not a numeric id string")
        }
        guard let username = object["username"]?.string else {
            throw DecodingProblem("\(path()) (user \(id)) has no username")
        }
        var user = User(id: id, username: username, name: object["name"]?.string ?? username)
        user.profileImageURL = secureURL(object["profile_image_url"]?.string)
        user.verified = object["verified"]?.bool ?? false
        user.description = object["description"]?.string
        user.location = object["location"]?.string
        if let created = object["created_at"]?.string { user.createdAt = TwitterDate.parse(created) }
        user.protected = object["protected"]?.bool ?? false
        user.url = nonEmpty(object["url"]?.string)
        if let metrics = object["public_metrics"]?.object {
            user.metrics = UserMetrics(
                followers: metrics["followers_count"]?.int ?? 0, following: metrics["following_count"]?.int ?? 0,
                tweets: metrics["tweet_count"]?.int ?? 0, listed: metrics["listed_count"]?.int ?? 0)
        }
        return user
    }

    /// Media of an unknown type is dropped rather than failing the page: new kinds appear over time.
    static func media(_ value: JSONValue) -> Media? {
        guard let key = value["media_key"]?.string,
            let kind = value["type"]?.string.flatMap(Media.Kind.init(rawValue:))
        else { return nil }
        return Media(
            mediaKey: key, kind: kind, url: secureURL(value["url"]?.string),
            previewImageURL: secureURL(value["preview_image_url"]?.string), width: value["width"]?.int,
            height: value["height"]?.int, altText: value["alt_text"]?.string)
    }

    static func readIncludes(_ includes: JSONValue, into page: inout Page) throws {
        guard case .object(let object) = includes else { throw DecodingProblem("'includes' is not an object") }
        if let users = object["users"]?.array {
            page.users.reserveCapacity(users.count)
            for (index, user) in users.enumerated() {
                page.users.append(try self.user(user, path: "includes.users[\(index)]"))
            }
        }
        if let tweets = object["tweets"]?.array {
            for (index, tweet) in tweets.enumerated() {
                page.includedTweets.append(try self.tweet(tweet, path: "includes.tweets[\(index)]"))
            }
        }
        if let media = object["media"]?.array {
            page.media = media.compactMap(self.media)
        }
    }

    /// Why a body without `data` is an error response rather than an empty or error-only page: a problem document
    /// (`{"title":…,"detail":…}`, every 4xx/5xx of API v2) or v1.1's `{"errors":[{"code":88,"message":…}]}`, which
    /// the contract says a 429 may also send. Nil for a genuine page.
    static func errorDocumentProblem(_ object: JSONObject) -> DecodingProblem? {
        if let title = object["title"]?.string {
            let detail = object["detail"]?.string.map { ": \($0)" } ?? ""
            return DecodingProblem("response is an API error, not data: \(title)\(detail)")
        }
        if let items = object["errors"]?.array, let first = items.first, isLegacyErrorList(items) {
            let message = first["message"]?.string ?? "unknown error"
            let code = first["code"]?.int.map { " (code \($0))" } ?? ""
            return DecodingProblem("response is an API error, not data: \(message)\(code)")
        }
        return nil
    }

    /// v1.1-style error items carry `message` (and `code`) but none of a partial error's fields.
    static func isLegacyErrorList(_ items: [JSONValue]) -> Bool {
        !items.isEmpty
            && items.allSatisfy { item in
                item["message"] != nil && item["title"] == nil && item["detail"] == nil && item["value"] == nil
                    && item["resource_id"] == nil && item["type"] == nil
            }
    }

    static func partialErrors(_ value: JSONValue?) -> [PartialError] {
        guard let items = value?.array else { return [] }
        return items.compactMap { item in
            guard case .object(let object) = item else { return nil }
            return PartialError(
                value: object["value"]?.string ?? object["value"]?.int.map(String.init),
                detail: object["detail"]?.string,
                title: object["title"]?.string, resourceType: object["resource_type"]?.string,
                parameter: object["parameter"]?.string, resourceID: object["resource_id"]?.string,
                type: object["type"]?.string, section: object["section"]?.string)
        }
    }

    /// Profile images still arrive as `http://` from old data; the shell and exports only ever show `https`.
    static func secureURL(_ url: String?) -> String? {
        guard let url = nonEmpty(url) else { return nil }
        if url.hasPrefix("http://") { return "https://" + url.dropFirst("http://".count) }
        return url
    }

    static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}
