import Foundation

/// A tweet as tweetsh keeps it: the fields of API v2's Tweet object that the shell shows, searches or exports.
///
/// `text` is kept exactly as delivered (HTML-escaped, and for a retweet the truncated `RT @x: …` form) so exports round-trip;
/// use `displayText` for what a person reads.
public struct Tweet: Hashable, Sendable {
    /// The tweet's id.
    public var id: TweetID
    /// The text as delivered by the API: HTML entities still escaped.
    public var text: String
    /// The author's id, when known (archives know it only from `account.js`).
    public var authorID: UserID?
    /// When the tweet was posted.
    public var createdAt: Date?
    /// The BCP 47 language tag X detected (`und` when unknown).
    public var lang: String?
    /// The id of the tweet that started the conversation.
    public var conversationID: TweetID?
    /// The author of the tweet this one replies to.
    public var inReplyToUserID: UserID?
    /// Tweets this one retweets, quotes or replies to.
    public var referencedTweets: [ReferencedTweet]
    /// Like, retweet, reply and quote counts, when the API sent them.
    public var metrics: TweetMetrics?
    /// Hashtags, mentions, URLs and cashtags found in the text.
    public var entities: TweetEntities
    /// Keys of attached media, resolved through a page's `media`.
    public var mediaKeys: [String]
    /// The posting client's name, where the API still sends it.
    public var source: String?
    /// Whether X marked the tweet as possibly sensitive.
    public var possiblySensitive: Bool?
    /// A retweet whose original the source does not identify: an X account archive lists a retweet only as its
    /// `RT @x: …` text, with no id of the original. `isRetweet` and `retweetedUsername` read it.
    public var retweetsUnidentifiedOriginal = false

    /// Creates a tweet; everything but the id and text is optional.
    public init(
        id: TweetID, text: String, authorID: UserID? = nil, createdAt: Date? = nil, lang: String? = nil,
        conversationID: TweetID? = nil, inReplyToUserID: UserID? = nil, referencedTweets: [ReferencedTweet] = [],
        metrics: TweetMetrics? = nil, entities: TweetEntities = TweetEntities(), mediaKeys: [String] = [],
        source: String? = nil, possiblySensitive: Bool? = nil
    ) {
        self.id = id
        self.text = text
        self.authorID = authorID
        self.createdAt = createdAt
        self.lang = lang
        self.conversationID = conversationID
        self.inReplyToUserID = inReplyToUserID
        self.referencedTweets = referencedTweets
        self.metrics = metrics
        self.entities = entities
        self.mediaKeys = mediaKeys
        self.source = source
        self.possiblySensitive = possiblySensitive
    }

    /// The id of the tweet this one retweets, if it is a retweet.
    public var retweetedID: TweetID? { referencedTweets.first { $0.kind == .retweeted }?.id }
    /// Whether the tweet is a retweet, with or without its original's id.
    public var isRetweet: Bool { retweetedID != nil || retweetsUnidentifiedOriginal }
    /// The id of the tweet this one quotes, if any.
    public var quotedID: TweetID? { referencedTweets.first { $0.kind == .quoted }?.id }
    /// The id of the tweet this one replies to, if any.
    public var repliedToID: TweetID? { referencedTweets.first { $0.kind == .repliedTo }?.id }
}

/// A link from one tweet to another.
public struct ReferencedTweet: Hashable, Sendable {
    /// How the tweets are related; the API's `type`.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// A retweet of `id`.
        case retweeted
        /// A quote of `id`.
        case quoted
        /// A reply to `id`.
        case repliedTo = "replied_to"
    }
    /// The relation.
    public var kind: Kind
    /// The other tweet.
    public var id: TweetID

    /// Creates a reference.
    public init(kind: Kind, id: TweetID) {
        self.kind = kind
        self.id = id
    }
}

/// A tweet's public engagement counts.
public struct TweetMetrics: Hashable, Sendable {
    /// Retweets (the API's `retweet_count`; "reposts" in X's current wording).
    public var retweets: Int
    /// Replies.
    public var replies: Int
    /// Likes.
    public var likes: Int
    /// Quote tweets.
    public var quotes: Int
    /// Impressions, when the API sent them.
    public var impressions: Int?
    /// Bookmarks, when the API sent them.
    public var bookmarks: Int?

    /// Creates a set of counts.
    public init(
        retweets: Int = 0, replies: Int = 0, likes: Int = 0, quotes: Int = 0, impressions: Int? = nil,
        bookmarks: Int? = nil
    ) {
        self.retweets = retweets
        self.replies = replies
        self.likes = likes
        self.quotes = quotes
        self.impressions = impressions
        self.bookmarks = bookmarks
    }
}
