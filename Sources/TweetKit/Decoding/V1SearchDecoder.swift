import Foundation

/// Reads v1.1 JSON: `search/tweets.json` responses, single v1.1 statuses (twarc 1 collections), and the tweets of an
/// X account archive, which are v1.1-shaped with every number quoted.
public enum V1SearchDecoder {
    /// Decodes a `search/tweets.json` body (`{"statuses":[...],"search_metadata":{...}}`).
    public static func decodeSearch(from data: Data) throws -> Page {
        let root: JSONValue
        do {
            root = try JSONParser.parse(data)
        } catch {
            throw DecodingProblem(error, context: "v1.1 response is not valid JSON")
        }
        return try decodeSearch(from: root)
    }

    /// Decodes an already parsed `search/tweets.json` body.
    public static func decodeSearch(from root: JSONValue) throws -> Page {
        guard let statuses = root["statuses"]?.array else {
            throw DecodingProblem("v1.1 search response has no 'statuses' array")
        }
        var builder = PageBuilder()
        for (index, status) in statuses.enumerated() {
            builder.addMain(try V1SearchDecoder.status(status, path: "statuses[\(index)]", into: &builder))
        }
        var page = builder.page
        if let metadata = root["search_metadata"]?.object {
            page.newestID = metadata["max_id_str"]?.snowflake ?? page.tweets.map(\.id).max()
            page.resultCount = page.tweets.count
            // v1.1 pages by a query string `?max_id=…&q=…`; keep it whole as the cursor.
            page.nextToken = metadata["next_results"]?.string
        }
        return page
    }

    /// Decodes one v1.1 status (or archive tweet) into a tweet, adding its user, retweeted and quoted originals and
    /// media to `builder`. `owner` supplies the author when the object has no `user` (archives).
    static func status(
        _ value: JSONValue, path: @autoclosure () -> String, owner: User? = nil, into builder: inout PageBuilder
    ) throws -> Tweet {
        guard case .object(let object) = value else { throw DecodingProblem("\(path()) is not a tweet object") }
        guard let id = object["id_str"]?.snowflake ?? object["id"]?.snowflake else {
            throw DecodingProblem("\(path()) has no id_str")
        }
        // Compatibility-mode streaming statuses keep the untruncated text and entities in extended_tweet.
        let extended = object["extended_tweet"]?.object
        guard let text = extended?["full_text"]?.string ?? object["full_text"]?.string ?? object["text"]?.string else {
            throw DecodingProblem("\(path()) (tweet \(id)) has neither full_text nor text")
        }
        var tweet = Tweet(id: id, text: text)
        if let userValue = object["user"], case .object = userValue {
            let user = try V1SearchDecoder.user(userValue, path: "\(path()).user")
            tweet.authorID = user.id
            builder.addUser(user)
        } else if let owner {
            tweet.authorID = owner.id
        }
        if let created = object["created_at"]?.string { tweet.createdAt = TwitterDate.parse(created) }
        tweet.lang = object["lang"]?.string
        tweet.inReplyToUserID = object["in_reply_to_user_id_str"]?.snowflake ?? object["in_reply_to_user_id"]?.snowflake
        if let repliedTo = object["in_reply_to_status_id_str"]?.snowflake ?? object["in_reply_to_status_id"]?.snowflake
        {
            tweet.referencedTweets.append(ReferencedTweet(kind: .repliedTo, id: repliedTo))
        } else {
            // v1.1 has no conversation id; a tweet that replies to nothing starts its own conversation.
            tweet.conversationID = id
        }
        if let original = object["retweeted_status"], case .object = original {
            let retweeted = try status(original, path: "\(path()).retweeted_status", into: &builder)
            tweet.referencedTweets.append(ReferencedTweet(kind: .retweeted, id: retweeted.id))
            builder.addIncluded(retweeted)
        }
        if let quoted = object["quoted_status"], case .object = quoted {
            let quotedTweet = try status(quoted, path: "\(path()).quoted_status", into: &builder)
            tweet.referencedTweets.append(ReferencedTweet(kind: .quoted, id: quotedTweet.id))
            builder.addIncluded(quotedTweet)
        } else if let quotedID = object["quoted_status_id_str"]?.snowflake {
            tweet.referencedTweets.append(ReferencedTweet(kind: .quoted, id: quotedID))
        }
        let metrics = TweetMetrics(
            retweets: object["retweet_count"]?.int ?? 0, replies: object["reply_count"]?.int ?? 0,
            likes: object["favorite_count"]?.int ?? 0, quotes: object["quote_count"]?.int ?? 0)
        if object["retweet_count"] != nil || object["favorite_count"] != nil { tweet.metrics = metrics }
        let entitiesValue = extended?["entities"] ?? object["entities"]
        if let entitiesValue { tweet.entities = entities(entitiesValue) }
        let mediaValue =
            extended?["extended_entities"]?["media"] ?? object["extended_entities"]?["media"]
            ?? entitiesValue?["media"]
        for item in mediaValue?.array ?? [] {
            guard let media = media(item) else { continue }
            if !tweet.mediaKeys.contains(media.mediaKey) { tweet.mediaKeys.append(media.mediaKey) }
            builder.addMedia(media)
        }
        tweet.source = object["source"]?.string.map(stripTags)
        tweet.possiblySensitive = object["possibly_sensitive"]?.bool
        return tweet
    }

    static func user(_ value: JSONValue, path: @autoclosure () -> String) throws -> User {
        guard let id = value["id_str"]?.snowflake ?? value["id"]?.snowflake else {
            throw DecodingProblem("\(path()) has no id_str")
        }
        guard let username = value["screen_name"]?.string else {
            throw DecodingProblem("\(path()) (user \(id)) has no screen_name")
        }
        var user = User(id: id, username: username, name: value["name"]?.string ?? username)
        user.profileImageURL = V2Objects.secureURL(
            value["profile_image_url_https"]?.string ?? value["profile_image_url"]?.string)
        user.verified = value["verified"]?.bool ?? false
        user.description = V2Objects.nonEmpty(value["description"]?.string)
        user.location = V2Objects.nonEmpty(value["location"]?.string)
        if let created = value["created_at"]?.string { user.createdAt = TwitterDate.parse(created) }
        user.protected = value["protected"]?.bool ?? false
        user.url =
            V2Objects.nonEmpty(value["entities"]?["url"]?["urls"]?.array?.first?["expanded_url"]?.string)
            ?? V2Objects.nonEmpty(value["url"]?.string)
        if value["followers_count"] != nil {
            user.metrics = UserMetrics(
                followers: value["followers_count"]?.int ?? 0, following: value["friends_count"]?.int ?? 0,
                tweets: value["statuses_count"]?.int ?? 0, listed: value["listed_count"]?.int ?? 0)
        }
        return user
    }

    /// v1.1 entities carry `indices: [start, end]` (quoted strings in archives) instead of start/end members.
    static func entities(_ value: JSONValue) -> TweetEntities {
        func span(_ item: JSONValue) -> (Int, Int)? {
            guard let indices = item["indices"]?.array, indices.count == 2, let start = indices[0].int,
                let end = indices[1].int, 0 <= start, start <= end
            else { return nil }
            return (start, end)
        }
        var entities = TweetEntities()
        entities.hashtags = (value["hashtags"]?.array ?? []).compactMap { item in
            guard let (start, end) = span(item), let tag = item["text"]?.string else { return nil }
            return Hashtag(start: start, end: end, tag: tag)
        }
        entities.cashtags = (value["symbols"]?.array ?? []).compactMap { item in
            guard let (start, end) = span(item), let tag = item["text"]?.string else { return nil }
            return Hashtag(start: start, end: end, tag: tag)
        }
        entities.mentions = (value["user_mentions"]?.array ?? []).compactMap { item in
            guard let (start, end) = span(item), let username = item["screen_name"]?.string else { return nil }
            return Mention(
                start: start, end: end, username: username, id: item["id_str"]?.snowflake ?? item["id"]?.snowflake)
        }
        entities.urls = (value["urls"]?.array ?? []).compactMap { item in
            guard let (start, end) = span(item), let url = item["url"]?.string else { return nil }
            return URLEntity(
                start: start, end: end, url: url, expandedURL: item["expanded_url"]?.string,
                displayURL: item["display_url"]?.string)
        }
        return entities
    }

    /// v1.1 media has numeric ids; API v2 keys are `<kind prefix>_<id>` (3 photo, 7 video, 16 GIF), so the same
    /// photo gets the same key whichever format it came from.
    static func media(_ value: JSONValue) -> Media? {
        guard let id = value["id_str"]?.string ?? value["id"]?.int.map(String.init) else { return nil }
        let kind: Media.Kind
        let prefix: String
        switch value["type"]?.string {
        case "photo": (kind, prefix) = (.photo, "3")
        case "video": (kind, prefix) = (.video, "7")
        case "animated_gif": (kind, prefix) = (.animatedGIF, "16")
        default: return nil
        }
        let imageURL = V2Objects.secureURL(value["media_url_https"]?.string ?? value["media_url"]?.string)
        let large = value["sizes"]?["large"]
        return Media(
            mediaKey: "\(prefix)_\(id)", kind: kind, url: kind == .photo ? imageURL : nil,
            previewImageURL: kind == .photo ? nil : imageURL, width: large?["w"]?.int, height: large?["h"]?.int,
            altText: V2Objects.nonEmpty(value["ext_alt_text"]?.string))
    }

    /// `source` in v1.1 is an HTML anchor; keep its text, the client's name, as v2 does.
    static func stripTags(_ html: String) -> String {
        guard html.contains("<") else { return html }
        var result = ""
        var inTag = false
        for character in html {
            if character == "<" {
                inTag = true
            } else if character == ">" {
                inTag = false
            } else if !inTag {
                result.append(character)
            }
        }
        return result
    }
}

/// Collects the tweets, users, included tweets and media of a page, keeping each user, included tweet and medium
/// once, as the API's `includes` do.
struct PageBuilder {
    var page = Page()
    private var userIDs: Set<UserID> = []
    private var includedIDs: Set<TweetID> = []
    private var mediaKeys: Set<String> = []

    mutating func addMain(_ tweet: Tweet) { page.tweets.append(tweet) }

    mutating func addUser(_ user: User) {
        if userIDs.insert(user.id).inserted { page.users.append(user) }
    }

    mutating func addIncluded(_ tweet: Tweet) {
        if includedIDs.insert(tweet.id).inserted { page.includedTweets.append(tweet) }
    }

    mutating func addMedia(_ media: Media) {
        if mediaKeys.insert(media.mediaKey).inserted { page.media.append(media) }
    }
}
