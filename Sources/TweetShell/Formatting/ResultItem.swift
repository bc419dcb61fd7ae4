import Foundation
import TweetKit

/// One numbered result, with everything a formatter needs already resolved from its page.
///
/// Numbers are assigned once, when the item joins the result list, so they stay stable across `more`.
public struct ResultItem: Equatable, Sendable {
    /// The 1-based number shown beside it, used by `show`, `thread` and `open`.
    public var number: Int
    /// The tweet itself.
    public var tweet: Tweet
    /// Its author, when known.
    public var author: User?
    /// What a person reads: entities decoded, and for a retweet the original's full text.
    public var text: String
    /// For a retweet, the original's author.
    public var retweetedAuthor: User?
    /// For a retweet, the original tweet when the page includes it: its entities are the ones worth listing, since
    /// the retweet's own stop where X cut its text.
    public var retweeted: Tweet?
    /// The quoted tweet and its author, when this tweet quotes one that is known.
    public var quoted: Quoted?
    /// The handle of the user this tweet replies to, when known.
    public var replyToHandle: String?
    /// Attached media.
    public var media: [Media]

    /// A quoted tweet, as shown under the one quoting it.
    public struct Quoted: Equatable, Sendable {
        /// The quoted tweet.
        public var tweet: Tweet
        /// Its author, when known.
        public var author: User?
        /// Its display text.
        public var text: String

        /// Creates a quoted tweet.
        public init(tweet: Tweet, author: User?, text: String) {
            self.tweet = tweet
            self.author = author
            self.text = text
        }
    }

    /// Creates an item.
    public init(
        number: Int, tweet: Tweet, author: User?, text: String, retweetedAuthor: User? = nil,
        quoted: Quoted? = nil, replyToHandle: String? = nil, media: [Media] = [], retweeted: Tweet? = nil
    ) {
        self.number = number
        self.tweet = tweet
        self.author = author
        self.text = text
        self.retweetedAuthor = retweetedAuthor
        self.quoted = quoted
        self.replyToHandle = replyToHandle
        self.media = media
        self.retweeted = retweeted
    }

    /// The tweet's web address; `i` stands in for an unknown handle, which X redirects.
    public var url: String {
        "https://x.com/\(author?.username ?? "i")/status/\(tweet.id)"
    }
}
