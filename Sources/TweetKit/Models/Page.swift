/// One page of results, from the API or the store: the tweets, everything they refer to, and where to go next.
public struct Page: Hashable, Sendable {
    /// The matching tweets, in the order the source returned them (newest first for recency order).
    public var tweets: [Tweet]
    /// Authors and mentioned users (the API's `includes.users`).
    public var users: [User]
    /// Referenced tweets: retweeted originals, quoted and replied-to tweets (`includes.tweets`).
    public var includedTweets: [Tweet]
    /// Attached media (`includes.media`).
    public var media: [Media]
    /// The newest id on the page (`meta.newest_id`).
    public var newestID: TweetID?
    /// The oldest id on the page (`meta.oldest_id`).
    public var oldestID: TweetID?
    /// The token for the next page, when there is one (`meta.next_token`, or `pagination_token` for timelines).
    public var nextToken: String?
    /// The token for the previous page, where timelines send one.
    public var previousToken: String?
    /// The count the source reported (`meta.result_count`), or the total matches where the store can count them.
    public var resultCount: Int?
    /// Problems reported beside the data in a 200 response.
    public var errors: [PartialError]
    /// The objects' JSON as it came, where the decoder was asked to keep it or the store kept it.
    public var originals = Originals()

    /// Creates a page.
    public init(
        tweets: [Tweet] = [], users: [User] = [], includedTweets: [Tweet] = [], media: [Media] = [],
        newestID: TweetID? = nil, oldestID: TweetID? = nil, nextToken: String? = nil, previousToken: String? = nil,
        resultCount: Int? = nil, errors: [PartialError] = []
    ) {
        self.tweets = tweets
        self.users = users
        self.includedTweets = includedTweets
        self.media = media
        self.newestID = newestID
        self.oldestID = oldestID
        self.nextToken = nextToken
        self.previousToken = previousToken
        self.resultCount = resultCount
        self.errors = errors
    }

    /// The user with this id, if the page includes them.
    public func user(_ id: UserID?) -> User? {
        guard let id else { return nil }
        return users.first { $0.id == id }
    }

    /// The tweet with this id among the page's tweets and included tweets.
    public func tweet(_ id: TweetID?) -> Tweet? {
        guard let id else { return nil }
        return tweets.first { $0.id == id } ?? includedTweets.first { $0.id == id }
    }
}

/// A problem the API reported beside the data of a successful response (an unknown id, a suspended author).
public struct PartialError: Hashable, Sendable, Error {
    /// The offending value, such as the id that was not found.
    public var value: String?
    /// A human-readable explanation.
    public var detail: String?
    /// The problem's title, such as `Not Found Error`.
    public var title: String?
    /// What kind of resource was affected (`tweet`, `user`).
    public var resourceType: String?
    /// The request parameter involved.
    public var parameter: String?
    /// The affected resource's id.
    public var resourceID: String?
    /// The problem type URI; match it by its last path component.
    public var type: String?
    /// `includes` when the problem concerns an expanded object.
    public var section: String?

    /// Creates a partial error.
    public init(
        value: String? = nil, detail: String? = nil, title: String? = nil, resourceType: String? = nil,
        parameter: String? = nil, resourceID: String? = nil, type: String? = nil, section: String? = nil
    ) {
        self.value = value
        self.detail = detail
        self.title = title
        self.resourceType = resourceType
        self.parameter = parameter
        self.resourceID = resourceID
        self.type = type
        self.section = section
    }
}
