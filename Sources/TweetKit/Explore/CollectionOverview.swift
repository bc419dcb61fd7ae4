/// What `stats` shows about a collection (or the whole store): totals, kinds, date range, volume, top lists, and the
/// most liked and most retweeted tweets.
public struct CollectionOverview: Equatable, Sendable {
    /// Searchable tweets.
    public var tweets = 0
    /// Tweets that neither retweet, reply nor quote.
    public var originals = 0
    /// Retweets.
    public var retweets = 0
    /// Replies.
    public var replies = 0
    /// Quote tweets.
    public var quotes = 0
    /// Distinct authors.
    public var authors = 0
    /// The earliest and latest tweet time, milliseconds since 1970 (UTC).
    public var firstTime: Int64?
    /// The latest tweet time.
    public var lastTime: Int64?
    /// Volume over the date range, in buckets wide enough for a sparkline.
    public var volume: CountSeries
    /// Languages, most first.
    public var languages: [TopRow] = []
    /// The top authors, hashtags and domains.
    public var topAuthors: [TopRow] = []
    /// The top hashtags.
    public var topHashtags: [TopRow] = []
    /// The top domains.
    public var topDomains: [TopRow] = []
    /// The most liked tweets (retweets left out: their counts belong to the original), most first.
    public var mostLiked: [TweetID] = []
    /// The most retweeted tweets, most first.
    public var mostRetweeted: [TweetID] = []

    /// Creates an empty overview.
    public init(volume: CountSeries) { self.volume = volume }

    /// A bucket width that gives a date range at most about `maximum` buckets: day, week, month or year.
    public static func sparklineGranularity(first: Int64, last: Int64, maximum: Int = 90) -> CountGranularity {
        let days = (last - first) / TweetTime.dayMilliseconds + 1
        if days <= Int64(maximum) { return .day }
        if days / 7 <= Int64(maximum) { return .week }
        if days / 30 <= Int64(maximum) { return .month }
        return .year
    }
}

/// Keeps the `limit` largest (score, id) pairs seen, largest first; ties go to the newer id.
public struct TopScores: Sendable {
    /// How many are kept.
    public let limit: Int
    /// The kept pairs, largest first.
    public private(set) var entries: [(score: Int, id: TweetID)] = []

    /// Creates an empty list.
    public init(limit: Int) { self.limit = limit }

    /// Offers a pair.
    public mutating func offer(_ score: Int, _ id: TweetID) {
        guard score > 0 else { return }
        if entries.count == limit, let last = entries.last, !Self.before((score, id), last) { return }
        let index = entries.firstIndex { Self.before((score, id), $0) } ?? entries.count
        entries.insert((score, id), at: index)
        if entries.count > limit { entries.removeLast() }
    }

    private static func before(_ a: (score: Int, id: TweetID), _ b: (score: Int, id: TweetID)) -> Bool {
        a.score != b.score ? a.score > b.score : a.id > b.id
    }
}
