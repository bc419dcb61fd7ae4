import Foundation

/// Where pages fetched from the API are kept, so that a search can repeat and page without the network.
///
/// TweetStore implements it; the API client writes every page it fetches through it.
public protocol PageCache: Sendable {
    /// Keeps `page`, fetched for the request identified by `key` at `cursor` (nil for the first page).
    /// The tweets and users in it become searchable locally too.
    func storePage(_ page: Page, key: String, cursor: String?, fetchedAt: Date) async throws
    /// The page kept for `key` at `cursor`, if any.
    func cachedPage(key: String, cursor: String?) async throws -> CachedPage?
}

/// A page read back from a `PageCache`, with when it was fetched ("cached, 4 min ago").
public struct CachedPage: Sendable, Hashable {
    /// The page as it was fetched.
    public var page: Page
    /// When it was fetched.
    public var fetchedAt: Date

    /// Creates a cached page.
    public init(page: Page, fetchedAt: Date) {
        self.page = page
        self.fetchedAt = fetchedAt
    }
}
