import Foundation
import StreamCore
import TweetKit

/// What the search view model asks of the outside world. The shell's implementation joins the local store, the X API
/// client, the page cache and the search history; tests substitute hand-driven publishers.
///
/// Each call returns a publisher that does nothing until subscribed and stops its work (the HTTP request, the SQLite
/// query) when cancelled: that is how a new search or Ctrl-C reaches the source.
public protocol SearchService: Sendable {
    /// The first page for a search.
    func firstPage(for search: SearchOptions, pageSize: Int) -> AnyPublisher<SearchProgress, any Error>
    /// The page after `cursor` for the same search.
    func nextPage(for search: SearchOptions, cursor: String, pageSize: Int) -> AnyPublisher<SearchProgress, any Error>
}

/// What a search reports while it runs: waits it is sitting out, then its page.
public enum SearchProgress: Sendable, Equatable {
    /// The source is waiting (a rate limit, a retry backoff); the shell shows a countdown.
    case waiting(WaitNotice)
    /// The page arrived.
    case page(SearchPage)
}

/// A wait the user should be told about.
public struct WaitNotice: Sendable, Equatable {
    /// What is being waited for, e.g. `rate limit on /2/tweets/search/recent`.
    public var reason: String
    /// Seconds left.
    public var secondsLeft: Int

    /// Creates a notice.
    public init(reason: String, secondsLeft: Int) {
        self.reason = reason
        self.secondsLeft = secondsLeft
    }
}

/// A page with what the shell says about it.
public struct SearchPage: Sendable, Equatable {
    /// The page.
    public var page: Page
    /// The name of the source that answered.
    public var sourceName: String
    /// A note such as `(cached, 4 min ago)` or `3 new tweets since the last run`.
    public var note: String?
    /// Warnings: partial errors in a 200, and similar.
    public var warnings: [String]

    /// Creates a page result.
    public init(page: Page, sourceName: String, note: String? = nil, warnings: [String] = []) {
        self.page = page
        self.sourceName = sourceName
        self.note = note
        self.warnings = warnings
    }
}
