import Foundation

/// Anything that answers searches with pages of tweets: the local store and the X API.
///
/// The shell bridges these async calls into StreamCore; cancelling the task must cancel the underlying query or request.
public protocol TweetSource: Sendable {
    /// A short name for prompts and messages (`local`, `x`).
    var name: String { get }
    /// One page of results for a search; `cursor` nil asks for the first page.
    func search(_ request: SearchRequest, cursor: String?) async throws -> Page
    /// The tweets with these ids; unknown ids come back as partial errors.
    func lookup(ids: [TweetID]) async throws -> Page
    /// A user's tweets, newest first.
    func userTimeline(username: String, cursor: String?, limit: Int) async throws -> Page
    /// The tweets of a conversation (thread), found by `conversation_id:`.
    func conversation(id: TweetID, cursor: String?, limit: Int) async throws -> Page
}

/// A search as the shell asks for it.
public struct SearchRequest: Hashable, Sendable {
    /// How results are ordered.
    public enum Sort: String, Hashable, Sendable, CaseIterable {
        /// Newest first.
        case recency
        /// Best match first.
        case relevancy
    }
    /// The query in X's search syntax.
    public var query: String
    /// How many tweets a page holds.
    public var pageSize: Int
    /// Result order.
    public var sort: Sort
    /// Only tweets newer than this id (exclusive), as `--new` asks.
    public var sinceID: TweetID?
    /// Only tweets older than this id (exclusive).
    public var untilID: TweetID?
    /// Only tweets at or after this time.
    public var startTime: Date?
    /// Only tweets before this time.
    public var endTime: Date?
    /// Full-archive search instead of the last 7 days (API only).
    public var fullArchive: Bool
    /// The query's last word may be unfinished, as while typing in `live`: it also matches words that start with it
    /// (local store only; X's search has no prefix matching, so the API ignores it).
    public var prefixLastWord = false
    /// Only tweets of this collection (local store only: `search --in NAME`). Without it, the local store leaves its
    /// demo corpus out once it holds anything else.
    public var collection: String?

    /// Creates a search request.
    public init(
        query: String, pageSize: Int = 20, sort: Sort = .recency, sinceID: TweetID? = nil, untilID: TweetID? = nil,
        startTime: Date? = nil, endTime: Date? = nil, fullArchive: Bool = false
    ) {
        self.query = query
        self.pageSize = pageSize
        self.sort = sort
        self.sinceID = sinceID
        self.untilID = untilID
        self.startTime = startTime
        self.endTime = endTime
        self.fullArchive = fullArchive
    }
}
