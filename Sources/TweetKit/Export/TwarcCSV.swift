import Foundation

/// twarc-csv's CSV: its dotted column names, in its order, for the columns tweetsh has data for.
///
/// Values follow twarc-csv's conventions so scripts written against its output keep working: a retweet's row carries
/// the original's text, metrics and entities (its `merge_retweets` default); entity columns are JSON lists of
/// `#tag`, `@user` and expanded URLs; newlines inside text become a literal `\n`; booleans are `True`/`False`.
public enum TwarcCSV {
    /// The header, in twarc-csv's order.
    public static let columns: [String] = [
        "id", "conversation_id", "referenced_tweets.replied_to.id", "referenced_tweets.retweeted.id",
        "referenced_tweets.quoted.id", "author_id", "in_reply_to_user_id", "in_reply_to_username", "retweeted_user_id",
        "retweeted_username", "quoted_user_id", "quoted_username", "created_at", "text", "lang", "source",
        "public_metrics.impression_count", "public_metrics.reply_count", "public_metrics.retweet_count",
        "public_metrics.quote_count", "public_metrics.like_count", "possibly_sensitive", "entities.cashtags",
        "entities.hashtags", "entities.mentions", "entities.urls", "attachments.media_keys", "author.id",
        "author.created_at", "author.username", "author.name", "author.description", "author.url", "author.location",
        "author.profile_image_url", "author.protected", "author.public_metrics.followers_count",
        "author.public_metrics.following_count", "author.public_metrics.listed_count",
        "author.public_metrics.tweet_count", "author.verified",
    ]

    static func writeHeader(into writer: inout JSONWriter) {
        writer.append(columns.joined(separator: ","))
        writer.raw("\n")
    }

    static func writeRows(_ page: Page, into writer: inout JSONWriter) {
        let index = PageIndex(page)
        for tweet in page.tweets {
            let fields = row(tweet, index: index)
            for (position, field) in fields.enumerated() {
                if position > 0 { writer.raw(",") }
                appendField(field, to: &writer)
            }
            writer.raw("\n")
        }
    }

    /// One tweet's values, in `columns` order; nil is an empty cell.
    static func row(_ tweet: Tweet, index: PageIndex) -> [String?] {
        func id(_ value: SnowflakeID?) -> String? { value.map { String($0.rawValue) } }
        func bool(_ value: Bool?) -> String? { value.map { $0 ? "True" : "False" } }
        func number(_ value: Int?) -> String? { value.map(String.init) }
        func list(_ values: [String]) -> String? {
            guard !values.isEmpty else { return nil }
            var writer = JSONWriter(capacity: 64)
            writer.raw("[")
            for (position, value) in values.enumerated() {
                if position > 0 { writer.raw(", ") }
                writer.string(value)
            }
            writer.raw("]")
            return String(decoding: writer.bytes, as: UTF8.self)
        }
        let author = tweet.authorID.flatMap { index.users[$0] }
        let replied = tweet.repliedToID.flatMap { index.tweets[$0] }
        let repliedUsername =
            replied?.authorID.flatMap { index.users[$0] }?.username
            ?? tweet.inReplyToUserID.flatMap { index.users[$0] }?.username
        let retweeted = tweet.retweetedID.flatMap { index.tweets[$0] }
        let quoted = tweet.quotedID.flatMap { index.tweets[$0] }
        // A retweet inherits the original's content, keeping its own author and ids.
        let content = retweeted ?? tweet
        let entities = content.entities
        return [
            id(tweet.id), id(tweet.conversationID), id(tweet.repliedToID), id(tweet.retweetedID), id(tweet.quotedID),
            id(tweet.authorID), id(tweet.inReplyToUserID), repliedUsername, id(retweeted?.authorID),
            retweeted?.authorID.flatMap { index.users[$0] }?.username, id(quoted?.authorID),
            quoted?.authorID.flatMap { index.users[$0] }?.username, tweet.createdAt.map(TwitterDate.formatISO8601),
            flattenText(content.text), tweet.lang, tweet.source, number(content.metrics?.impressions),
            number(content.metrics?.replies), number(content.metrics?.retweets), number(content.metrics?.quotes),
            number(content.metrics?.likes), bool(tweet.possiblySensitive),
            list(entities.cashtags.map { "$" + $0.tag }), list(entities.hashtags.map { "#" + $0.tag }),
            list(entities.mentions.map { "@" + $0.username }), list(entities.urls.map { $0.expandedURL ?? $0.url }),
            list(content.mediaKeys), id(author?.id), author?.createdAt.map(TwitterDate.formatISO8601), author?.username,
            author?.name, author.flatMap { $0.description.map(flattenText) }, author?.url, author?.location,
            author?.profileImageURL,
            bool(author?.protected), number(author?.metrics?.followers), number(author?.metrics?.following),
            number(author?.metrics?.listed), number(author?.metrics?.tweets), bool(author?.verified),
        ]
    }

    /// twarc-csv removes carriage returns and writes newlines as the two characters `\n`, so a row is one line.
    static func flattenText(_ text: String) -> String {
        guard text.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\r": continue
            case "\n": result += "\\n"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// RFC 4180 quoting: fields with a comma, quote or line break are quoted, quotes doubled.
    static func appendField(_ field: String?, to writer: inout JSONWriter) {
        guard let field, !field.isEmpty else { return }
        let needsQuotes = field.utf8.contains {
            $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D
        }
        guard needsQuotes else {
            writer.append(field)
            return
        }
        writer.raw("\"")
        for byte in field.utf8 {
            if byte == UInt8(ascii: "\"") { writer.raw("\"") }
            writer.raw(byte)
        }
        writer.raw("\"")
    }
}
