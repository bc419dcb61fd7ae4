import Foundation
import TweetKit

/// The tweets, users and media the stub serves.
///
/// `standard()` is a small deterministic world built to exercise the client: 25 `#swift` tweets for paging across
/// three pages of ten, a reply thread, a retweet whose text is truncated, a quote of a deleted tweet (a partial error in
/// a 200), HTML-escaped text, a non-BMP emoji, a photo, and a 12-tweet timeline.
public struct StubCorpus: Sendable {
    /// Every tweet, in any order.
    public var tweets: [Tweet]
    /// Every user.
    public var users: [User]
    /// Every media item.
    public var media: [Media]
    /// The objects' JSON as loaded from a collection, served in place of the models' fields (so a fixture can hold
    /// context annotations, places, polls, note tweets and everything else the models do not), and the places and
    /// polls tweets refer to.
    public var originals = Originals()

    /// Creates a corpus.
    public init(tweets: [Tweet], users: [User], media: [Media] = []) {
        self.tweets = tweets
        self.users = users
        self.media = media
    }

    /// The tweet with this id.
    public func tweet(_ id: TweetID) -> Tweet? { tweets.first { $0.id == id } }
    /// The user with this id.
    public func user(_ id: UserID) -> User? { users.first { $0.id == id } }
    /// The user with this handle, case-insensitively as X matches handles.
    public func user(username: String) -> User? { users.first { $0.username.lowercased() == username.lowercased() } }

    /// Ids in the standard corpus that tests refer to.
    public enum Fixture {
        /// `@XDevelopers`, the account the client's credential check looks up.
        public static let developers: UserID = 2_244_994_945
        /// `@alice`, who has a 12-tweet timeline.
        public static let alice: UserID = 1001
        /// `@bob`.
        public static let bob: UserID = 1002
        /// `@carol`.
        public static let carol: UserID = 1003
        /// The first tweet of the thread; its replies share this conversation id.
        public static let threadRoot: TweetID = 1_600_000_000_000_000_100
        /// Bob's retweet of alice's thread root.
        public static let retweet: TweetID = 1_600_000_000_000_000_200
        /// Carol's quote of a tweet that no longer exists.
        public static let quoteOfDeleted: TweetID = 1_600_000_000_000_000_300
        /// The deleted tweet the quote refers to.
        public static let deleted: TweetID = 1_500_000_000_000_000_001
        /// A tweet with a photo, an HTML-escaped ampersand and a non-BMP emoji.
        public static let withMedia: TweetID = 1_600_000_000_000_000_400
        /// The number of `#swift` tweets.
        public static let swiftCount = 25
        /// The number of alice's tweets (her timeline).
        public static let aliceTweetCount = 12
    }

    /// The standard fixture world.
    public static func standard() -> StubCorpus {
        let base = Date(timeIntervalSince1970: 1_764_460_800)  // 2025-11-30T00:00:00Z
        let users = [
            User(
                id: Fixture.developers, username: "XDevelopers", name: "Developers", verified: true,
                description: "The voice of the X Dev team", createdAt: Date(timeIntervalSince1970: 1_232_841_600),
                metrics: UserMetrics(followers: 570_000, following: 2000, tweets: 4000, listed: 3000)),
            User(
                id: Fixture.alice, username: "alice", name: "Alice", profileImageURL: "https://pbs.twimg.com/a.jpg",
                description: "Swift & servers", location: "Lyon", createdAt: base.addingTimeInterval(-86_400 * 900),
                metrics: UserMetrics(followers: 120, following: 80, tweets: 12, listed: 2)),
            User(id: Fixture.bob, username: "bob", name: "Bob", createdAt: base.addingTimeInterval(-86_400 * 500)),
            User(id: Fixture.carol, username: "carol", name: "Carol 🐦", protected: false),
        ]
        var tweets: [Tweet] = []
        let authors = [Fixture.bob, Fixture.carol, Fixture.developers]
        for index in 0..<Fixture.swiftCount {
            let text = "Learning #swift concurrency, day \(index + 1)"
            tweets.append(
                Tweet(
                    id: TweetID(1_600_000_000_000_001_000 + UInt64(index) * 1000), text: text,
                    authorID: authors[index % 3], createdAt: base.addingTimeInterval(Double(index) * 60), lang: "en",
                    conversationID: TweetID(1_600_000_000_000_001_000 + UInt64(index) * 1000),
                    metrics: TweetMetrics(retweets: index, replies: 0, likes: index * 2, quotes: 0),
                    entities: TweetEntities(hashtags: [Hashtag(start: 9, end: 15, tag: "swift")]),
                    source: "tweetsh fixtures"))
        }
        // Alice's timeline: 12 tweets, three of them the thread below.
        for index in 0..<(Fixture.aliceTweetCount - 3) {
            let id = TweetID(1_600_000_000_000_002_000 + UInt64(index) * 1000)
            tweets.append(
                Tweet(
                    id: id, text: "Alice's note \(index + 1) about servers", authorID: Fixture.alice,
                    createdAt: base.addingTimeInterval(3600 + Double(index) * 60), lang: "en", conversationID: id))
        }
        let root = Fixture.threadRoot
        tweets.append(
            Tweet(
                id: root, text: "A thread on structured concurrency 🧵", authorID: Fixture.alice,
                createdAt: base.addingTimeInterval(-3600), lang: "en", conversationID: root,
                metrics: TweetMetrics(retweets: 1, replies: 3, likes: 10, quotes: 0)))
        tweets.append(
            Tweet(
                id: 1_600_000_000_000_000_110, text: "@alice Task groups are the part I use most",
                authorID: Fixture.bob, createdAt: base.addingTimeInterval(-3500), lang: "en", conversationID: root,
                inReplyToUserID: Fixture.alice, referencedTweets: [ReferencedTweet(kind: .repliedTo, id: root)],
                entities: TweetEntities(mentions: [Mention(start: 0, end: 6, username: "alice", id: Fixture.alice)])))
        tweets.append(
            Tweet(
                id: 1_600_000_000_000_000_120, text: "Part 2: cancellation is cooperative", authorID: Fixture.alice,
                createdAt: base.addingTimeInterval(-3400), lang: "en", conversationID: root,
                inReplyToUserID: Fixture.alice, referencedTweets: [ReferencedTweet(kind: .repliedTo, id: root)]))
        tweets.append(
            Tweet(
                id: 1_600_000_000_000_000_130, text: "Part 3: and sleeping tasks wake at once", authorID: Fixture.alice,
                createdAt: base.addingTimeInterval(-3300), lang: "en", conversationID: root,
                inReplyToUserID: Fixture.alice,
                referencedTweets: [ReferencedTweet(kind: .repliedTo, id: 1_600_000_000_000_000_120)]))
        tweets.append(
            Tweet(
                id: 1_600_000_000_000_000_140, text: "@alice @bob this thread is gold", authorID: Fixture.carol,
                createdAt: base.addingTimeInterval(-3200), lang: "en", conversationID: root,
                inReplyToUserID: Fixture.alice, referencedTweets: [ReferencedTweet(kind: .repliedTo, id: root)],
                entities: TweetEntities(mentions: [
                    Mention(start: 0, end: 6, username: "alice", id: Fixture.alice),
                    Mention(start: 7, end: 11, username: "bob", id: Fixture.bob),
                ])))
        tweets.append(
            Tweet(
                id: Fixture.retweet, text: "RT @alice: A thread on structured concurrency …", authorID: Fixture.bob,
                createdAt: base.addingTimeInterval(-3000), lang: "en", conversationID: Fixture.retweet,
                referencedTweets: [ReferencedTweet(kind: .retweeted, id: root)],
                entities: TweetEntities(mentions: [Mention(start: 3, end: 9, username: "alice", id: Fixture.alice)])))
        tweets.append(
            Tweet(
                id: Fixture.quoteOfDeleted, text: "Quoting something that is gone #deleted", authorID: Fixture.carol,
                createdAt: base.addingTimeInterval(-2000), lang: "en", conversationID: Fixture.quoteOfDeleted,
                referencedTweets: [ReferencedTweet(kind: .quoted, id: Fixture.deleted)],
                entities: TweetEntities(hashtags: [Hashtag(start: 31, end: 39, tag: "deleted")])))
        tweets.append(
            Tweet(
                id: Fixture.withMedia, text: "Fish &amp; chips &lt;3 🐟 #lunch", authorID: Fixture.carol,
                createdAt: base.addingTimeInterval(-1000), lang: "en", conversationID: Fixture.withMedia,
                entities: TweetEntities(hashtags: [Hashtag(start: 25, end: 31, tag: "lunch")]),
                mediaKeys: ["3_1600000000000000400"], possiblySensitive: false))
        tweets.append(
            Tweet(
                id: 1_600_000_000_000_000_500, text: "Announcing the v2 playground", authorID: Fixture.developers,
                createdAt: base.addingTimeInterval(-500), lang: "en", conversationID: 1_600_000_000_000_000_500))
        let media = [
            Media(
                mediaKey: "3_1600000000000000400", kind: .photo, url: "https://pbs.twimg.com/media/fish.jpg",
                width: 1200, height: 800, altText: "A plate of fish and chips")
        ]
        return StubCorpus(tweets: tweets, users: users, media: media)
    }
}
