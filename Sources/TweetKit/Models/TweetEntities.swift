/// The entities X found in a tweet's text. Offsets count Unicode code points (scalars), as the API does.
public struct TweetEntities: Hashable, Sendable {
    /// `#tags`, without the `#`.
    public var hashtags: [Hashtag]
    /// `@mentions`.
    public var mentions: [Mention]
    /// Links, with their expanded form.
    public var urls: [URLEntity]
    /// `$cashtags`, without the `$`.
    public var cashtags: [Hashtag]

    /// Creates a set of entities.
    public init(hashtags: [Hashtag] = [], mentions: [Mention] = [], urls: [URLEntity] = [], cashtags: [Hashtag] = []) {
        self.hashtags = hashtags
        self.mentions = mentions
        self.urls = urls
        self.cashtags = cashtags
    }

    /// True when no entity of any kind is present.
    public var isEmpty: Bool { hashtags.isEmpty && mentions.isEmpty && urls.isEmpty && cashtags.isEmpty }
}

/// A hashtag or cashtag and where it stands in the text.
public struct Hashtag: Hashable, Sendable {
    /// First code point, inclusive.
    public var start: Int
    /// Last code point, exclusive.
    public var end: Int
    /// The tag without its `#` or `$`.
    public var tag: String

    /// Creates a tag entity.
    public init(start: Int, end: Int, tag: String) {
        self.start = start
        self.end = end
        self.tag = tag
    }
}

/// An `@mention` and where it stands in the text.
public struct Mention: Hashable, Sendable {
    /// First code point, inclusive.
    public var start: Int
    /// Last code point, exclusive.
    public var end: Int
    /// The handle without its `@`.
    public var username: String
    /// The mentioned user's id, when the API resolved it.
    public var id: UserID?

    /// Creates a mention entity.
    public init(start: Int, end: Int, username: String, id: UserID? = nil) {
        self.start = start
        self.end = end
        self.username = username
        self.id = id
    }
}

/// A link in the text: the `t.co` form shown in `text` and where it really goes.
public struct URLEntity: Hashable, Sendable {
    /// First code point, inclusive.
    public var start: Int
    /// Last code point, exclusive.
    public var end: Int
    /// The shortened `t.co` URL as it appears in `text`.
    public var url: String
    /// The full destination.
    public var expandedURL: String?
    /// The shortened form X shows to people.
    public var displayURL: String?

    /// Creates a URL entity.
    public init(start: Int, end: Int, url: String, expandedURL: String? = nil, displayURL: String? = nil) {
        self.start = start
        self.end = end
        self.url = url
        self.expandedURL = expandedURL
        self.displayURL = displayURL
    }
}
