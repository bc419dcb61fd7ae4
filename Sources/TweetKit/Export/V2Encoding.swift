import Foundation

/// Writes the API v2 object shapes, so exports read back with any v2 reader (ours, twarc2, twarc-csv).
extension JSONWriter {
    /// Writes a tweet's members (without braces), so the flattened form can append `author` and friends.
    /// `media` are the attached objects, written beside `attachments.media_keys` as `twarc2 flatten` does.
    mutating func tweetMembers(_ tweet: Tweet, media: [Media] = []) {
        key("id")
        id(tweet.id)
        raw(",")
        key("text")
        string(tweet.text)
        raw(",")
        key("edit_history_tweet_ids")
        raw("[")
        id(tweet.id)
        raw("]")
        if let author = tweet.authorID {
            raw(",")
            key("author_id")
            id(author)
        }
        if let created = tweet.createdAt {
            raw(",")
            key("created_at")
            date(created)
        }
        if let lang = tweet.lang {
            raw(",")
            key("lang")
            string(lang)
        }
        if let conversation = tweet.conversationID {
            raw(",")
            key("conversation_id")
            id(conversation)
        }
        if let replyUser = tweet.inReplyToUserID {
            raw(",")
            key("in_reply_to_user_id")
            id(replyUser)
        }
        if let source = tweet.source {
            raw(",")
            key("source")
            string(source)
        }
        if let sensitive = tweet.possiblySensitive {
            raw(",")
            key("possibly_sensitive")
            bool(sensitive)
        }
        if let metrics = tweet.metrics {
            raw(",")
            key("public_metrics")
            raw("{")
            key("retweet_count")
            int(metrics.retweets)
            raw(",")
            key("reply_count")
            int(metrics.replies)
            raw(",")
            key("like_count")
            int(metrics.likes)
            raw(",")
            key("quote_count")
            int(metrics.quotes)
            if let impressions = metrics.impressions {
                raw(",")
                key("impression_count")
                int(impressions)
            }
            if let bookmarks = metrics.bookmarks {
                raw(",")
                key("bookmark_count")
                int(bookmarks)
            }
            raw("}")
        }
        if !tweet.entities.isEmpty {
            raw(",")
            key("entities")
            entities(tweet.entities)
        }
        if !tweet.mediaKeys.isEmpty {
            raw(",")
            key("attachments")
            raw("{")
            key("media_keys")
            stringArray(tweet.mediaKeys)
            if !media.isEmpty {
                raw(",")
                key("media")
                raw("[")
                for (index, item) in media.enumerated() {
                    if index > 0 { raw(",") }
                    self.media(item)
                }
                raw("]")
            }
            raw("}")
        }
    }

    mutating func referencedTweets(_ references: [ReferencedTweet]) {
        raw("[")
        for (index, reference) in references.enumerated() {
            if index > 0 { raw(",") }
            raw("{")
            key("type")
            string(reference.kind.rawValue)
            raw(",")
            key("id")
            id(reference.id)
            raw("}")
        }
        raw("]")
    }

    mutating func tweet(_ tweet: Tweet) {
        raw("{")
        tweetMembers(tweet)
        if !tweet.referencedTweets.isEmpty {
            raw(",")
            key("referenced_tweets")
            referencedTweets(tweet.referencedTweets)
        }
        raw("}")
    }

    mutating func stringArray(_ values: [String]) {
        raw("[")
        for (index, value) in values.enumerated() {
            if index > 0 { raw(",") }
            string(value)
        }
        raw("]")
    }

    mutating func entities(_ entities: TweetEntities) {
        raw("{")
        var first = true
        func separate(_ writer: inout JSONWriter) {
            if !first { writer.raw(",") }
            first = false
        }
        func tags(_ writer: inout JSONWriter, _ tags: [Hashtag]) {
            writer.raw("[")
            for (index, tag) in tags.enumerated() {
                if index > 0 { writer.raw(",") }
                writer.raw("{")
                writer.key("start")
                writer.int(tag.start)
                writer.raw(",")
                writer.key("end")
                writer.int(tag.end)
                writer.raw(",")
                writer.key("tag")
                writer.string(tag.tag)
                writer.raw("}")
            }
            writer.raw("]")
        }
        if !entities.hashtags.isEmpty {
            separate(&self)
            key("hashtags")
            tags(&self, entities.hashtags)
        }
        if !entities.cashtags.isEmpty {
            separate(&self)
            key("cashtags")
            tags(&self, entities.cashtags)
        }
        if !entities.mentions.isEmpty {
            separate(&self)
            key("mentions")
            raw("[")
            for (index, mention) in entities.mentions.enumerated() {
                if index > 0 { raw(",") }
                raw("{")
                key("start")
                int(mention.start)
                raw(",")
                key("end")
                int(mention.end)
                raw(",")
                key("username")
                string(mention.username)
                if let id = mention.id {
                    raw(",")
                    key("id")
                    self.id(id)
                }
                raw("}")
            }
            raw("]")
        }
        if !entities.urls.isEmpty {
            separate(&self)
            key("urls")
            raw("[")
            for (index, url) in entities.urls.enumerated() {
                if index > 0 { raw(",") }
                raw("{")
                key("start")
                int(url.start)
                raw(",")
                key("end")
                int(url.end)
                raw(",")
                key("url")
                string(url.url)
                if let expanded = url.expandedURL {
                    raw(",")
                    key("expanded_url")
                    string(expanded)
                }
                if let display = url.displayURL {
                    raw(",")
                    key("display_url")
                    string(display)
                }
                raw("}")
            }
            raw("]")
        }
        raw("}")
    }

    mutating func user(_ user: User) {
        raw("{")
        key("id")
        id(user.id)
        raw(",")
        key("username")
        string(user.username)
        raw(",")
        key("name")
        string(user.name)
        if let image = user.profileImageURL {
            raw(",")
            key("profile_image_url")
            string(image)
        }
        raw(",")
        key("verified")
        bool(user.verified)
        if let description = user.description {
            raw(",")
            key("description")
            string(description)
        }
        if let location = user.location {
            raw(",")
            key("location")
            string(location)
        }
        if let created = user.createdAt {
            raw(",")
            key("created_at")
            date(created)
        }
        raw(",")
        key("protected")
        bool(user.protected)
        // The API sends "" for an unset website; keep that shape.
        raw(",")
        key("url")
        string(user.url ?? "")
        if let metrics = user.metrics {
            raw(",")
            key("public_metrics")
            raw("{")
            key("followers_count")
            int(metrics.followers)
            raw(",")
            key("following_count")
            int(metrics.following)
            raw(",")
            key("tweet_count")
            int(metrics.tweets)
            raw(",")
            key("listed_count")
            int(metrics.listed)
            raw("}")
        }
        raw("}")
    }

    mutating func media(_ media: Media) {
        raw("{")
        key("media_key")
        string(media.mediaKey)
        raw(",")
        key("type")
        string(media.kind.rawValue)
        if let url = media.url {
            raw(",")
            key("url")
            string(url)
        }
        if let preview = media.previewImageURL {
            raw(",")
            key("preview_image_url")
            string(preview)
        }
        if let width = media.width {
            raw(",")
            key("width")
            int(width)
        }
        if let height = media.height {
            raw(",")
            key("height")
            int(height)
        }
        if let alt = media.altText {
            raw(",")
            key("alt_text")
            string(alt)
        }
        raw("}")
    }

    mutating func partialError(_ error: PartialError) {
        raw("{")
        var first = true
        func member(_ writer: inout JSONWriter, _ name: StaticString, _ value: String?) {
            guard let value else { return }
            if !first { writer.raw(",") }
            first = false
            writer.key(name)
            writer.string(value)
        }
        member(&self, "value", error.value)
        member(&self, "detail", error.detail)
        member(&self, "title", error.title)
        member(&self, "resource_type", error.resourceType)
        member(&self, "parameter", error.parameter)
        member(&self, "resource_id", error.resourceID)
        member(&self, "type", error.type)
        member(&self, "section", error.section)
        raw("}")
    }
}
