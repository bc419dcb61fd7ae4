import Foundation
import TweetKit

/// Bits of `tweets.flags`: what queries filter on, plus what is needed to rebuild the model exactly.
package struct TweetFlags: OptionSet, Sendable {
    package let rawValue: Int64
    package static let retweet = TweetFlags(rawValue: 1)
    package static let reply = TweetFlags(rawValue: 2)
    package static let quote = TweetFlags(rawValue: 4)
    package static let links = TweetFlags(rawValue: 8)
    package static let media = TweetFlags(rawValue: 16)
    package static let mentions = TweetFlags(rawValue: 32)
    package static let hashtags = TweetFlags(rawValue: 64)
    /// Stored only because another tweet refers to it (`includes.tweets`): looked up, never a search result, not indexed.
    package static let includedOnly = TweetFlags(rawValue: 128)
    /// `conversation_id` equals the tweet's own id (stored as NULL to keep the conversation index small).
    package static let startsConversation = TweetFlags(rawValue: 256)
    package static let hasMetrics = TweetFlags(rawValue: 512)
    package static let sensitivityKnown = TweetFlags(rawValue: 1024)
    package static let sensitive = TweetFlags(rawValue: 2048)
    /// A retweet without its original's id (`Tweet.retweetsUnidentifiedOriginal`, from archives); `retweet` is set too.
    /// A high bit, well apart from the ones above, so bits added beside them on other branches do not collide.
    package static let retweetsUnidentifiedOriginal = TweetFlags(rawValue: 1 << 20)

    package init(rawValue: Int64) { self.rawValue = rawValue }

    package init(_ kind: QueryTerm.TweetKind) {
        switch kind {
        case .retweet: self = .retweet
        case .reply: self = .reply
        case .quote: self = .quote
        }
    }

    package init(_ feature: QueryTerm.TweetFeature) {
        switch feature {
        case .links: self = .links
        case .media: self = .media
        case .mentions: self = .mentions
        case .hashtags: self = .hashtags
        }
    }
}

/// The row form of a tweet and back. Columns hold what queries filter on; `extra` holds the rest in `ByteWriter` form.
package enum TweetRecord {
    static let columns =
        "t.id, t.author_id, t.created_at, t.conversation_id, t.reply_to_user, t.lang, t.flags, "
        + "t.likes, t.reposts, t.replies, t.quotes, t.text, t.extra"

    package static func flags(for tweet: Tweet, includedOnly: Bool) -> TweetFlags {
        var flags: TweetFlags = []
        for reference in tweet.referencedTweets {
            switch reference.kind {
            case .retweeted: flags.insert(.retweet)
            case .repliedTo: flags.insert(.reply)
            case .quoted: flags.insert(.quote)
            }
        }
        if tweet.retweetsUnidentifiedOriginal { flags.formUnion([.retweet, .retweetsUnidentifiedOriginal]) }
        if tweet.inReplyToUserID != nil { flags.insert(.reply) }
        if !tweet.entities.urls.isEmpty { flags.insert(.links) }
        if !tweet.mediaKeys.isEmpty { flags.insert(.media) }
        if !tweet.entities.mentions.isEmpty { flags.insert(.mentions) }
        if !tweet.entities.hashtags.isEmpty { flags.insert(.hashtags) }
        if includedOnly { flags.insert(.includedOnly) }
        if tweet.conversationID == tweet.id { flags.insert(.startsConversation) }
        if tweet.metrics != nil { flags.insert(.hasMetrics) }
        if let sensitive = tweet.possiblySensitive {
            flags.insert(.sensitivityKnown)
            if sensitive { flags.insert(.sensitive) }
        }
        return flags
    }

    package static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    /// Reads a row selected with `columns` starting at `offset`.
    static func tweet(from row: Statement, offset: Int32 = 0) throws -> Tweet {
        let id = TweetID(UInt64(bitPattern: row.int64(offset)))
        let flags = TweetFlags(rawValue: row.int64(offset + 6))
        var tweet = Tweet(id: id, text: row.text(offset + 11))
        tweet.authorID = row.optionalInt64(offset + 1).map { UserID(UInt64(bitPattern: $0)) }
        tweet.createdAt = row.optionalInt64(offset + 2).map { Date(timeIntervalSince1970: Double($0) / 1000) }
        if let conversation = row.optionalInt64(offset + 3) {
            tweet.conversationID = TweetID(UInt64(bitPattern: conversation))
        } else if flags.contains(.startsConversation) {
            tweet.conversationID = id
        }
        tweet.inReplyToUserID = row.optionalInt64(offset + 4).map { UserID(UInt64(bitPattern: $0)) }
        tweet.lang = row.optionalText(offset + 5)
        if flags.contains(.sensitivityKnown) { tweet.possiblySensitive = flags.contains(.sensitive) }
        tweet.retweetsUnidentifiedOriginal = flags.contains(.retweetsUnidentifiedOriginal)
        let extra = row.blob(offset + 12)
        try decodeExtra(extra, into: &tweet)
        if flags.contains(.hasMetrics) {
            tweet.metrics = TweetMetrics(
                retweets: row.int(offset + 8), replies: row.int(offset + 9), likes: row.int(offset + 7),
                quotes: row.int(offset + 10), impressions: tweet.metrics?.impressions,
                bookmarks: tweet.metrics?.bookmarks)
        } else {
            tweet.metrics = nil
        }
        return tweet
    }

    /// Only what a page's includes are worked out from: the id, the author, the user replied to, the referenced
    /// tweets, the mentions' user ids and the media keys; the text and everything else stay empty.
    ///
    /// An export reads this for a tweet whose original it writes instead of its model: the full model's strings were
    /// a quarter of an export's reading, and freeing them again most of the cost of dropping a written page.
    static func relations(from row: Statement, offset: Int32 = 0) throws -> Tweet {
        let id = TweetID(UInt64(bitPattern: row.int64(offset)))
        var tweet = Tweet(id: id, text: "")
        tweet.authorID = row.optionalInt64(offset + 1).map { UserID(UInt64(bitPattern: $0)) }
        tweet.inReplyToUserID = row.optionalInt64(offset + 4).map { UserID(UInt64(bitPattern: $0)) }
        try decodeExtra(row.blob(offset + 12), into: &tweet, relationsOnly: true)
        return tweet
    }

    // MARK: extra

    private static let extraVersion: UInt8 = 1

    package static func encodeExtra(_ tweet: Tweet) -> [UInt8] {
        let entities = tweet.entities
        let impressions = tweet.metrics?.impressions
        let bookmarks = tweet.metrics?.bookmarks
        if tweet.referencedTweets.isEmpty, entities.isEmpty, tweet.mediaKeys.isEmpty, tweet.source == nil,
            impressions == nil, bookmarks == nil
        {
            return []
        }
        var writer = ByteWriter()
        writer.byte(extraVersion)
        writer.optionalString(tweet.source)
        writer.optionalInt(impressions)
        writer.optionalInt(bookmarks)
        writer.varint(UInt64(tweet.referencedTweets.count))
        for reference in tweet.referencedTweets {
            writer.byte(reference.kind == .retweeted ? 0 : reference.kind == .quoted ? 1 : 2)
            writer.varint(reference.id.rawValue)
        }
        for tags in [entities.hashtags, entities.cashtags] {
            writer.varint(UInt64(tags.count))
            for tag in tags {
                writer.int(tag.start)
                writer.int(tag.end)
                writer.string(tag.tag)
            }
        }
        writer.varint(UInt64(entities.mentions.count))
        for mention in entities.mentions {
            writer.int(mention.start)
            writer.int(mention.end)
            writer.string(mention.username)
            writer.optionalID(mention.id?.rawValue)
        }
        writer.varint(UInt64(entities.urls.count))
        for url in entities.urls {
            writer.int(url.start)
            writer.int(url.end)
            writer.string(url.url)
            writer.optionalString(url.expandedURL)
            writer.optionalString(url.displayURL)
        }
        writer.varint(UInt64(tweet.mediaKeys.count))
        for key in tweet.mediaKeys { writer.string(key) }
        return writer.bytes
    }

    /// Reads what `encodeExtra` wrote into `tweet`. With `relationsOnly` it keeps only the references, the mentions'
    /// user ids and the media keys, and steps over every other string without making it
    /// (`relations(from:offset:)`); one reader of the layout either way, so the two cannot drift apart.
    package static func decodeExtra(_ bytes: [UInt8], into tweet: inout Tweet, relationsOnly: Bool = false) throws {
        guard !bytes.isEmpty else { return }
        var reader = ByteReader(bytes)
        guard try reader.byte() == extraVersion else { throw StoreError(message: "damaged record in the store") }
        /// A string the caller keeps, or nil (stepped over) when only the relations are read.
        func kept() throws -> String? {
            if relationsOnly {
                try reader.skipString()
                return nil
            }
            return try reader.string()
        }
        func keptOptional() throws -> String? { try reader.varint() == 0 ? nil : try kept() }
        let source = try keptOptional()
        let impressions = try reader.optionalInt()
        let bookmarks = try reader.optionalInt()
        tweet.referencedTweets = try (0..<reader.count()).map { _ in
            let kind = try reader.byte()
            let id = TweetID(try reader.varint())
            return ReferencedTweet(kind: kind == 0 ? .retweeted : kind == 1 ? .quoted : .repliedTo, id: id)
        }
        var tagLists: [[Hashtag]] = [[], []]
        for list in 0..<2 {
            for _ in 0..<(try reader.count()) {
                let (start, end) = (try reader.int(), try reader.int())
                if let tag = try kept() { tagLists[list].append(Hashtag(start: start, end: end, tag: tag)) }
            }
        }
        var mentions: [Mention] = []
        for _ in 0..<(try reader.count()) {
            let (start, end) = (try reader.int(), try reader.int())
            let username = try kept()
            let id = try reader.optionalID().map { UserID($0) }
            if !relationsOnly || id != nil {
                mentions.append(Mention(start: start, end: end, username: username ?? "", id: id))
            }
        }
        var urls: [URLEntity] = []
        for _ in 0..<(try reader.count()) {
            let (start, end) = (try reader.int(), try reader.int())
            let (url, expanded, display) = (try kept(), try keptOptional(), try keptOptional())
            if let url {
                urls.append(URLEntity(start: start, end: end, url: url, expandedURL: expanded, displayURL: display))
            }
        }
        tweet.mediaKeys = try (0..<reader.count()).map { _ in try reader.string() }
        if relationsOnly {
            tweet.entities.mentions = mentions
            return
        }
        tweet.source = source
        if impressions != nil || bookmarks != nil {
            tweet.metrics = TweetMetrics(impressions: impressions, bookmarks: bookmarks)
        }
        tweet.entities = TweetEntities(hashtags: tagLists[0], mentions: mentions, urls: urls, cashtags: tagLists[1])
    }
}
