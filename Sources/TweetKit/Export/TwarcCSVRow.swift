/// twarc-csv's preparation of one flattened tweet before its fields become columns (its `_format_tweet`, with the
/// defaults `merge_retweets` and `process_entities` on).
enum TwarcCSVRow {
    /// The members a retweet's row takes from the retweeted original (when the page includes it), keeping its own
    /// id, author, dates and everything else.
    static let mergedFromRetweet = ["text", "entities", "attachments", "context_annotations", "public_metrics"]

    /// The tweet as twarc-csv writes it: references reduced to `{type: {id}}`, the usernames of the replied-to,
    /// retweeted and quoted authors lifted to top-level fields, a retweet's content taken from its original, and
    /// entities reduced to lists of `$cashtag`, `#hashtag`, `@username` and URLs.
    static func prepare(_ flattened: JSONObject) -> JSONObject {
        var tweet = flattened
        tweet.remove("pinned_tweet")
        tweet.remove("in_reply_to_user")
        if let listed = tweet["referenced_tweets"] {
            let references = listed.array?.compactMap(\.object) ?? []
            // twarc-csv reads the last reference of each type for usernames and merging.
            func last(_ type: String) -> JSONObject? { references.last { $0["type"]?.string == type } }
            if let username = last("replied_to")?["author"]?["username"] {
                tweet.set("in_reply_to_username", username)
            }
            let retweeted = last("retweeted")
            if let retweeted, let authorID = retweeted["author_id"] {
                tweet.set("retweeted_user_id", authorID)
                if let username = retweeted["author"]?["username"] { tweet.set("retweeted_username", username) }
            }
            if let quoted = last("quoted") {
                if let authorID = quoted["author_id"] { tweet.set("quoted_user_id", authorID) }
                if let username = quoted["author"]?["username"] { tweet.set("quoted_username", username) }
            }
            if let retweeted {
                for key in mergedFromRetweet {
                    let own = tweet.remove(key)
                    tweet.set(key, retweeted[key] ?? own ?? .null)
                }
            }
            // Only the ids stay; the first reference of a type names its column.
            var byType = JSONObject()
            for reference in references {
                guard let type = reference["type"]?.string, byType[type] == nil else { continue }
                byType.set(type, .object(JSONObject([("id", reference["id"] ?? .null)])))
            }
            tweet.set("referenced_tweets", .object(byType))
        }
        if let entities = tweet["entities"]?.object, !entities.members.isEmpty {
            tweet.set("entities", .object(reduceEntities(entities)))
        }
        if var author = tweet["author"]?.object, var entities = author["entities"]?.object, !entities.members.isEmpty {
            if var website = entities["url"]?.object {
                // The profile's website: its expanded URL replaces the t.co link in `url`.
                let urls = (website.remove("urls")?.array ?? []).compactMap { $0["expanded_url"] ?? $0["url"] }
                website.set("urls", .array(urls))
                entities.set("url", .object(website))
                if let last = urls.last { author.set("url", last) }
            }
            if let description = entities["description"]?.object {
                entities.set("description", .object(reduceEntities(description)))
            }
            author.set("entities", .object(entities))
            tweet.set("author", .object(author))
        }
        return tweet
    }

    /// Entity lists as twarc-csv writes them: `$tag`, `#tag`, `@username`, and for URLs the display form of a media
    /// link, else the expanded URL, else the t.co one. Other entity kinds (annotations) stay whole.
    static func reduceEntities(_ entities: JSONObject) -> JSONObject {
        var reduced = entities
        func reduce(_ key: String, _ transform: (JSONObject) -> JSONValue?) {
            guard let items = entities[key]?.array else { return }
            reduced.set(key, .array(items.compactMap { $0.object.flatMap(transform) }))
        }
        func prefixed(_ prefix: String, _ field: String) -> (JSONObject) -> JSONValue? {
            { item in item[field]?.string.map { .string(prefix + $0) } }
        }
        reduce("cashtags", prefixed("$", "tag"))
        reduce("hashtags", prefixed("#", "tag"))
        reduce("mentions", prefixed("@", "username"))
        reduce("urls") { url in
            if url["media_key"] != nil, let display = url["display_url"] { return display }
            return url["expanded_url"] ?? url["url"]
        }
        return reduced
    }
}
