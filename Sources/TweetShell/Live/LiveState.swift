import TweetKit

/// How a live session searches: which source, how long typing must pause, and how short a query may be.
public struct LiveSettings: Sendable, Equatable {
    /// Where every live search goes, fixed for the session so a `source` change elsewhere cannot switch mid-typing.
    public var source: SourceKind
    /// How long the query must stay unchanged before it is searched.
    public var debounceMilliseconds: Int
    /// Queries shorter than this (after trimming) clear the list instead of searching.
    public var minimumQueryLength: Int
    /// Results per page.
    public var pageSize: Int

    /// Creates settings.
    public init(source: SourceKind, debounceMilliseconds: Int, minimumQueryLength: Int, pageSize: Int) {
        self.source = source
        self.debounceMilliseconds = debounceMilliseconds
        self.minimumQueryLength = minimumQueryLength
        self.pageSize = pageSize
    }

    /// The defaults per source. The local store answers in milliseconds, so a short pause is enough; every API request
    /// spends rate limit, so the API waits longer and, as in the seeds' search bar, never asks for fewer than 3 characters.
    public static func defaults(for source: SourceKind, pageSize: Int) -> LiveSettings {
        switch source {
        case .local:
            return LiveSettings(source: .local, debounceMilliseconds: 250, minimumQueryLength: 1, pageSize: pageSize)
        case .x: return LiveSettings(source: .x, debounceMilliseconds: 500, minimumQueryLength: 3, pageSize: pageSize)
        }
    }
}

/// Everything the live screen shows besides what the user is typing.
public struct LiveState: Sendable, Equatable {
    /// The query the shown results answer (the last one that got past the debounce), or the one being searched.
    public var query: String
    /// The results so far, numbered from 1; they become the shell's current list when the user leaves with Esc.
    public var list: ResultList
    /// A first page is being fetched.
    public var isSearching: Bool
    /// A further page is being fetched.
    public var isLoadingMore: Bool
    /// Why the last search failed; cleared when the next one starts.
    public var errorMessage: String?
    /// A rate-limit or retry wait the source is sitting out, shown instead of blocking the keyboard.
    public var wait: WaitNotice?
    /// Advice when the query is too short to search.
    public var hint: String?
    /// What the source said about the answer, such as `(cached, 4 min ago)`.
    public var note: String?
    /// The query's daily volume over the store (local source only), oldest day first, for the status line's
    /// sparkline; nil until its count arrives (Sources/TweetShell/Explore).
    public var volume: [Int]? = nil

    /// An empty state.
    public init(
        query: String = "", list: ResultList = ResultList(), isSearching: Bool = false, isLoadingMore: Bool = false,
        errorMessage: String? = nil, wait: WaitNotice? = nil, hint: String? = nil, note: String? = nil
    ) {
        self.query = query
        self.list = list
        self.isSearching = isSearching
        self.isLoadingMore = isLoadingMore
        self.errorMessage = errorMessage
        self.wait = wait
        self.hint = hint
        self.note = note
    }

    /// Whether a spinner should turn.
    public var isBusy: Bool { isSearching || isLoadingMore }

    /// Matches: the source's count when it gave one, else what has been loaded.
    public var matchCount: Int { list.totalCount ?? list.items.count }
}
