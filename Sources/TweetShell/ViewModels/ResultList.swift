import TweetKit

/// The accumulated results of the current search: what `show N`, `thread N`, `open N` and `export` refer to.
public struct ResultList: Equatable, Sendable {
    /// The search these results answer; nil before the first search.
    public var search: SearchOptions?
    /// The name of the source that answered (`local`, `x`).
    public var sourceName: String
    /// Every result so far, numbered from 1 in the order shown.
    public var items: [ResultItem]
    /// Where the next page starts; nil when there are no more.
    public var nextCursor: String?
    /// Total matches, when the source could count them cheaply.
    public var totalCount: Int?
    /// The pages the items came from, kept for `export` (twarc2 JSONL writes whole pages).
    public var pages: [Page]

    /// An empty list.
    public init(
        search: SearchOptions? = nil, sourceName: String = "", items: [ResultItem] = [], nextCursor: String? = nil,
        totalCount: Int? = nil, pages: [Page] = []
    ) {
        self.search = search
        self.sourceName = sourceName
        self.items = items
        self.nextCursor = nextCursor
        self.totalCount = totalCount
        self.pages = pages
    }

    /// The item numbered `number`, if it exists.
    public func item(_ number: Int) -> ResultItem? {
        guard number >= 1, number <= items.count else { return nil }
        return items[number - 1]
    }

    /// Appends a page's tweets, skipping any already listed, numbering on from the last item.
    /// Returns the items that were added.
    @discardableResult
    public mutating func append(_ page: Page) -> [ResultItem] {
        let seen = Set(items.map(\.tweet.id))
        let added = ResultBuilder.items(from: page, startingAt: items.count + 1, excluding: seen)
        items += added
        pages.append(page)
        return added
    }
}

/// Turns a page into numbered result items, resolving authors, retweeted originals, quotes and replies.
public enum ResultBuilder {
    /// Items for the page's tweets not in `seen`, numbered from `first`.
    public static func items(from page: Page, startingAt first: Int, excluding seen: Set<TweetID> = []) -> [ResultItem]
    {
        var users: [UserID: User] = [:]
        for user in page.users { users[user.id] = user }
        var tweets: [TweetID: Tweet] = [:]
        for tweet in page.includedTweets { tweets[tweet.id] = tweet }
        for tweet in page.tweets { tweets[tweet.id] = tweet }
        var mediaByKey: [String: Media] = [:]
        for media in page.media { mediaByKey[media.mediaKey] = media }

        var result: [ResultItem] = []
        var seen = seen
        for tweet in page.tweets where !seen.contains(tweet.id) {
            seen.insert(tweet.id)
            let original = tweet.retweetedID.flatMap { tweets[$0] }
            var quoted: ResultItem.Quoted?
            if let quotedTweet = tweet.quotedID.flatMap({ tweets[$0] }) {
                quoted = ResultItem.Quoted(
                    tweet: quotedTweet, author: quotedTweet.authorID.flatMap { users[$0] },
                    text: quotedTweet.displayText(in: page))
            }
            let replyHandle =
                tweet.inReplyToUserID.flatMap { users[$0]?.username }
                ?? tweet.entities.mentions.first?.username.nilIf(tweet.repliedToID == nil)
            result.append(
                ResultItem(
                    number: first + result.count,
                    tweet: tweet,
                    author: tweet.authorID.flatMap { users[$0] },
                    text: tweet.displayText(in: page),
                    retweetedAuthor: original?.authorID.flatMap { users[$0] }
                        ?? ResultList.unidentifiedOriginalAuthor(of: tweet, users),
                    quoted: quoted,
                    replyToHandle: replyHandle,
                    media: (original ?? tweet).mediaKeys.compactMap { mediaByKey[$0] },
                    retweeted: original
                ))
        }
        return result
    }
}

extension ResultList {
    /// The author an archive retweet names (`RT @x: …`, no original to look up): the stored user the leading mention
    /// points to, else a user known only by that handle, kept for display and never stored.
    static func unidentifiedOriginalAuthor(of tweet: Tweet, _ users: [UserID: User]) -> User? {
        guard tweet.retweetsUnidentifiedOriginal, let handle = tweet.retweetedUsernameFromText else { return nil }
        let mention = tweet.entities.mentions.first { $0.username.caseInsensitiveCompare(handle) == .orderedSame }
        if let id = mention?.id, let user = users[id] { return user }
        return User(id: mention?.id ?? 0, username: handle, name: handle)
    }
}

extension String {
    fileprivate func nilIf(_ condition: Bool) -> String? { condition ? nil : self }
}
