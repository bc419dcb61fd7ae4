import Foundation

/// A user account as the API describes it.
public struct User: Hashable, Sendable {
    /// The user's id.
    public var id: UserID
    /// The handle, without `@`.
    public var username: String
    /// The display name.
    public var name: String
    /// The profile picture; always `https` (decoders upgrade `http` URLs).
    public var profileImageURL: String?
    /// Whether the account is verified.
    public var verified: Bool
    /// The profile's bio.
    public var description: String?
    /// The profile's free-text location.
    public var location: String?
    /// When the account was created.
    public var createdAt: Date?
    /// Whether the account's tweets are protected.
    public var protected: Bool
    /// Follower, following, tweet and list counts, when the API sent them.
    public var metrics: UserMetrics?
    /// The website on the profile; nil when unset (the API sends `""` then).
    public var url: String?

    /// Creates a user; everything but the id, handle and name is optional.
    public init(
        id: UserID, username: String, name: String, profileImageURL: String? = nil, verified: Bool = false,
        description: String? = nil, location: String? = nil, createdAt: Date? = nil, protected: Bool = false,
        metrics: UserMetrics? = nil, url: String? = nil
    ) {
        self.id = id
        self.username = username
        self.name = name
        self.profileImageURL = profileImageURL
        self.verified = verified
        self.description = description
        self.location = location
        self.createdAt = createdAt
        self.protected = protected
        self.metrics = metrics
        self.url = url
    }
}

/// A user's public counts.
public struct UserMetrics: Hashable, Sendable {
    /// Followers.
    public var followers: Int
    /// Accounts followed.
    public var following: Int
    /// Tweets posted.
    public var tweets: Int
    /// Lists the account is on.
    public var listed: Int

    /// Creates a set of counts.
    public init(followers: Int = 0, following: Int = 0, tweets: Int = 0, listed: Int = 0) {
        self.followers = followers
        self.following = following
        self.tweets = tweets
        self.listed = listed
    }
}
