import Foundation

/// twarc2's two JSONL shapes.
enum TwarcEncoding {
    /// One page as one line: `{"data":[…],"includes":{…},"meta":{…},"errors":[…],"__twarc":{…}}`.
    /// A page without tweets omits `data`, as the API does for an empty result.
    static func writePageLine(_ page: Page, metadata: TwarcMetadata?, into writer: inout JSONWriter) {
        if !page.originals.isEmpty {
            OriginalPageLines.write(page, metadata: metadata, into: &writer)
            return
        }
        writeModelPageLine(page, metadata: metadata, into: &writer)
    }

    /// A page line written from the models alone (rows kept before tweetsh stored originals).
    static func writeModelPageLine(_ page: Page, metadata: TwarcMetadata?, into writer: inout JSONWriter) {
        writer.raw("{")
        var needsComma = false
        if !page.tweets.isEmpty {
            writer.key("data")
            writer.raw("[")
            for (index, tweet) in page.tweets.enumerated() {
                if index > 0 { writer.raw(",") }
                writer.tweet(tweet)
            }
            writer.raw("]")
            needsComma = true
        }
        if !page.users.isEmpty || !page.includedTweets.isEmpty || !page.media.isEmpty {
            if needsComma { writer.raw(",") }
            writer.key("includes")
            writer.raw("{")
            var first = true
            if !page.users.isEmpty {
                first = false
                writer.key("users")
                writer.raw("[")
                for (index, user) in page.users.enumerated() {
                    if index > 0 { writer.raw(",") }
                    writer.user(user)
                }
                writer.raw("]")
            }
            if !page.includedTweets.isEmpty {
                if !first { writer.raw(",") }
                first = false
                writer.key("tweets")
                writer.raw("[")
                for (index, tweet) in page.includedTweets.enumerated() {
                    if index > 0 { writer.raw(",") }
                    writer.tweet(tweet)
                }
                writer.raw("]")
            }
            if !page.media.isEmpty {
                if !first { writer.raw(",") }
                writer.key("media")
                writer.raw("[")
                for (index, media) in page.media.enumerated() {
                    if index > 0 { writer.raw(",") }
                    writer.media(media)
                }
                writer.raw("]")
            }
            writer.raw("}")
            needsComma = true
        }
        if !page.errors.isEmpty {
            if needsComma { writer.raw(",") }
            writer.key("errors")
            writer.raw("[")
            for (index, error) in page.errors.enumerated() {
                if index > 0 { writer.raw(",") }
                writer.partialError(error)
            }
            writer.raw("]")
            needsComma = true
        }
        if needsComma { writer.raw(",") }
        writer.key("meta")
        writer.raw("{")
        let ids = page.tweets.map(\.id)
        if let newest = page.newestID ?? ids.max() {
            writer.key("newest_id")
            writer.id(newest)
            writer.raw(",")
        }
        if let oldest = page.oldestID ?? ids.min() {
            writer.key("oldest_id")
            writer.id(oldest)
            writer.raw(",")
        }
        writer.key("result_count")
        writer.int(page.tweets.count)
        if let next = page.nextToken {
            writer.raw(",")
            writer.key("next_token")
            writer.string(next)
        }
        if let previous = page.previousToken {
            writer.raw(",")
            writer.key("previous_token")
            writer.string(previous)
        }
        writer.raw("}")
        if let metadata {
            writer.raw(",")
            twarcObject(metadata, into: &writer)
        }
        writer.raw("}\n")
    }

    /// One line per tweet, with the objects it refers to merged in the way `twarc2 flatten` does.
    static func writeFlattenedLines(_ page: Page, metadata: TwarcMetadata?, into writer: inout JSONWriter) {
        let index = PageIndex(page)
        let fallback = page.originals.tweets.isEmpty ? nil : OriginalPageLines.twarcValue(metadata)
        for tweet in page.tweets {
            if !page.originals.tweets.isEmpty,
                Flattening.write(
                    tweet.id, originals: page.originals, users: index.users, media: index.media,
                    fallbackTwarc: fallback, into: &writer)
            {
                writer.raw("\n")
                continue
            }
            writer.raw("{")
            writeExpanded(tweet, index: index, depth: 0, into: &writer)
            if let metadata {
                writer.raw(",")
                twarcObject(metadata, into: &writer)
            }
            writer.raw("}\n")
        }
    }

    /// A tweet's members plus `author`, `in_reply_to_user`, `attachments.media` and expanded `referenced_tweets`.
    /// References are expanded one level, as twarc does, so a quote of a quote does not recurse.
    private static func writeExpanded(_ tweet: Tweet, index: PageIndex, depth: Int, into writer: inout JSONWriter) {
        writer.tweetMembers(tweet, media: tweet.mediaKeys.compactMap { index.media[$0] })
        if let author = tweet.authorID.flatMap({ index.users[$0] }) {
            writer.raw(",")
            writer.key("author")
            writer.user(author)
        }
        if let replied = tweet.inReplyToUserID.flatMap({ index.users[$0] }) {
            writer.raw(",")
            writer.key("in_reply_to_user")
            writer.user(replied)
        }
        if !tweet.referencedTweets.isEmpty {
            writer.raw(",")
            writer.key("referenced_tweets")
            writer.raw("[")
            for (position, reference) in tweet.referencedTweets.enumerated() {
                if position > 0 { writer.raw(",") }
                writer.raw("{")
                writer.key("type")
                writer.string(reference.kind.rawValue)
                if depth == 0, let referenced = index.tweets[reference.id] {
                    writer.raw(",")
                    writeExpanded(referenced, index: index, depth: depth + 1, into: &writer)
                } else {
                    writer.raw(",")
                    writer.key("id")
                    writer.id(reference.id)
                }
                writer.raw("}")
            }
            writer.raw("]")
        }
    }

    static func twarcObject(_ metadata: TwarcMetadata, into writer: inout JSONWriter) {
        writer.key("__twarc")
        writer.raw("{")
        writer.key("url")
        writer.string(metadata.url)
        writer.raw(",")
        writer.key("version")
        writer.string(metadata.version)
        writer.raw(",")
        writer.key("retrieved_at")
        writer.date(metadata.retrievedAt)
        writer.raw("}")
    }
}

/// Lookup tables over a page, built once per page instead of scanning arrays per tweet.
struct PageIndex {
    var users: [UserID: User] = [:]
    var tweets: [TweetID: Tweet] = [:]
    var media: [String: Media] = [:]

    init(_ page: Page) {
        for user in page.users where users[user.id] == nil { users[user.id] = user }
        for tweet in page.includedTweets where tweets[tweet.id] == nil { tweets[tweet.id] = tweet }
        for tweet in page.tweets where tweets[tweet.id] == nil { tweets[tweet.id] = tweet }
        for item in page.media where media[item.mediaKey] == nil { media[item.mediaKey] = item }
    }
}
