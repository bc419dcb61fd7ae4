import Foundation
import StreamCore
import TweetKit
import TweetStore
import XAPI

/// The shell's `SearchService`: the local store answers local searches; X API searches go through the page cache
/// (`(cached, 4 min ago)`), `--refresh` fetches again and `--new` asks only for tweets newer than the last run.
/// Every search is recorded with its cursor and newest id, so `more` and `again` continue after a restart.
///
/// Each call is an `AsyncThrowingStream` of progress turned into a publisher: cancelling the subscription ends the
/// stream, which cancels its task, which cancels the HTTP request or interrupts the SQLite query.
public final class ShellSearchService: SearchService, @unchecked Sendable {
    private let store: any CollectionStore
    private let sources: SourceState
    private let now: @Sendable () -> Date
    private let credentials: CredentialReport?
    private let printsData: @Sendable () -> Bool

    /// Creates the service over the store and the shell's current source settings; `credentials` says where the
    /// token came from, so a refused token from the environment is named. While `printsData` is true (the json and
    /// csv formats), pages come with their objects' originals, so what is printed is what was imported or fetched.
    public init(
        store: any CollectionStore, sources: SourceState, credentials: CredentialReport? = nil,
        now: @escaping @Sendable () -> Date = Date.init, printsData: @escaping @Sendable () -> Bool = { false }
    ) {
        self.store = store
        self.sources = sources
        self.credentials = credentials
        self.now = now
        self.printsData = printsData
    }

    /// `page` as the printer needs it: with the originals the store keeps when the format prints data. A page the API
    /// sent this session carries its own.
    private func forPrinting(_ page: Page) async throws -> Page {
        guard printsData(), page.originals.tweets.isEmpty, !page.tweets.isEmpty else { return page }
        return try await store.withOriginals(page)
    }

    /// A 401 for a token from an environment variable says so: `auth` writes the credentials file, which the
    /// variable wins over, so the variable is what to fix.
    private func naming(_ error: any Error) -> any Error {
        guard case XAPIError.unauthorized = error, let origin = credentials?.origin,
            origin == .xBearerTokenVariable || origin == .bearerTokenVariable
        else { return error }
        return CommandError(
            ErrorText.describe(error) + " The token came from \(origin.rawValue), which is read before the "
                + "credentials file `auth` writes: fix or unset the variable.")
    }

    /// The first page for a search.
    public func firstPage(for search: SearchOptions, pageSize: Int) -> AnyPublisher<SearchProgress, any Error> {
        run { [self] in try await first(search, pageSize: pageSize) }
    }

    /// The next page for a search.
    public func nextPage(for search: SearchOptions, cursor: String, pageSize: Int) -> AnyPublisher<
        SearchProgress, any Error
    > {
        run { [self] in try await next(search, cursor: cursor, pageSize: pageSize) }
    }

    /// Records a list found without recording (live search's typing) as if it had been searched now: its query, the
    /// newest id it holds and where its next page starts, so `more` and `again` continue from it after a restart.
    public func remember(_ list: ResultList) async throws {
        guard let search = list.search, let kind = SourceKind(rawValue: list.sourceName), !holdsOwnToken(search.query)
        else { return }
        try await record(
            search.query, source: scope(of: search, on: kind).recorded, newest: list.items.map(\.tweet.id).max(),
            nextCursor: list.nextCursor)
    }

    /// Where `search` runs on `kind`, as the history records it: a local search with the collection it stays inside.
    private func scope(of search: SearchOptions, on kind: SourceKind) -> HistoryScope {
        HistoryScope(source: kind, collection: search.collection ?? sources.collection)
    }

    /// Records that `query` ran on `source` now, with the newest id it showed (the store keeps the newest ever, for
    /// `--new`) and where its next page starts (for `more` after a restart).
    private func record(_ query: String, source: String, newest: TweetID?, nextCursor: String?) async throws {
        // A read-only store keeps no history, unless it is kept on this machine; the shell said so once at start.
        guard !store.isReadOnly || store.keepsHistoryWhenReadOnly else { return }
        try await store.recordSearch(
            SearchHistoryEntry(
                query: query, source: source, lastRun: now(),
                newestID: newest, nextCursor: nextCursor))
    }

    /// Runs `work` in a task for each subscriber; waits the API client reports meanwhile are published before the page.
    private func run(_ work: @escaping @Sendable () async throws -> SearchPage) -> AnyPublisher<
        SearchProgress, any Error
    > {
        let sources = self.sources
        let naming = self.naming
        return Deferred {
            AsyncThrowingStream<SearchProgress, any Error> { continuation in
                let task = Task {
                    let token = sources.waits.add { continuation.yield(.waiting($0)) }
                    defer { sources.waits.remove(token) }
                    do {
                        let page = try await work()
                        continuation.yield(.page(page))
                        continuation.finish()
                    } catch {
                        continuation.finish(throwing: naming(error))
                    }
                }
                continuation.onTermination = { _ in task.cancel() }
            }
            .publisher
        }
        .eraseToAnyPublisher()
    }

    private func request(for search: SearchOptions, pageSize: Int) throws -> SearchRequest {
        // Parse first so a malformed query is reported with its column before any source is asked. X evaluates more
        // operators than the local store: which ones the query may hold depends on where it goes.
        let target: QueryTarget = (search.source ?? sources.current) == .x ? .xSearch : .local
        do {
            _ = try SearchQuery(parsing: search.query, for: target)
        } catch {
            let column = max(1, error.column)
            let caret = DisplayWidth.caret(under: search.query, column: column)
            throw CommandError("in the query at column \(column): \(error.message)\n    \(search.query)\n    \(caret)")
        }
        var request = SearchRequest(
            query: search.query, pageSize: pageSize, sort: search.sort ?? .recency,
            fullArchive: search.fullArchive)
        request.prefixLastWord = search.prefixLastWord
        request.collection = search.collection ?? sources.collection
        return request
    }

    /// Whether a word of the query holds the user's own token. The session refuses such searches for the API before
    /// they start; this is the last guard for every path to the API (live search too), and it keeps a local search
    /// holding the token out of the search history.
    private func holdsOwnToken(_ query: String) -> Bool {
        guard let client = sources.api?.client else { return false }
        return client.tokenIsHeld(in: query)
            || query.split(whereSeparator: \.isWhitespace).contains { client.tokenIsHeld(in: String($0)) }
    }

    private func refuseOwnToken(_ search: SearchOptions, on kind: SourceKind) throws {
        guard kind == .x, holdsOwnToken(search.query) else { return }
        throw CommandError(
            "the query holds your own X API credentials (the bearer token, or a prefix of it), so it is not sent to "
                + "the API")
    }

    private func first(_ search: SearchOptions, pageSize: Int) async throws -> SearchPage {
        var request = try request(for: search, pageSize: pageSize)
        let kind = search.source ?? sources.current
        try refuseOwnToken(search, on: kind)
        // Only `--new` needs the last run: where to start, and when it was.
        let recorded = scope(of: search, on: kind).recorded
        let previous = search.newOnly ? try await store.lastSearch(query: search.query, source: recorded) : nil
        request.sinceID = previous?.newestID

        let page: Page
        var note: String?
        var warnings: [String] = []
        switch kind {
        case .local:
            page = try await store.search(request, cursor: nil)
            // No note for none: the printer says "no results", and one sentence is enough.
            if let total = page.resultCount, total > 0 { note = total == 1 ? "1 match" : "\(total) matches" }
        case .x:
            let api = try sources.requireAPI()
            let policy: XAPISource.CachePolicy = search.refresh || search.newOnly ? .network : .cacheFirst(maxAge: nil)
            let fetched = try await api.search(request, cursor: nil, policy: policy)
            page = fetched.page
            if search.newOnly {
                do {
                    // So the cached view of the same search (without --new) includes what was just found.
                    try await api.mergeNewer(page, of: request)
                } catch is CancellationError {
                    throw CancellationError()
                } catch {
                    warnings.append(
                        "the new tweets could not be added to the cached search: \(ErrorText.describe(error))")
                }
            }
            if fetched.fromCache {
                note = "(cached, \(RelativeTime.ago(fetched.fetchedAt, now: now()))); --refresh fetches again"
            }
        }
        if search.newOnly {
            let count = page.tweets.count
            let since = previous.map { " since the last run, \(RelativeTime.ago($0.lastRun, now: now()))" } ?? ""
            note =
                count == 0
                ? "no new tweets\(since)"
                : "\(count)\(page.nextToken == nil ? "" : "+") new tweet\(count == 1 ? "" : "s")\(since)"
        }
        if search.recordsHistory, !holdsOwnToken(search.query) {
            try await record(
                search.query, source: recorded, newest: page.tweets.map(\.id).max(),
                nextCursor: page.nextToken)
        }
        return SearchPage(
            page: try await forPrinting(page), sourceName: kind.rawValue, note: note,
            warnings: page.errors.map(\.warningMessage) + warnings)
    }

    private func next(_ search: SearchOptions, cursor: String, pageSize: Int) async throws -> SearchPage {
        let request = try request(for: search, pageSize: pageSize)
        let kind = search.source ?? sources.current
        try refuseOwnToken(search, on: kind)
        let page: Page
        switch kind {
        case .local:
            page = try await store.search(request, cursor: cursor)
        case .x:
            page = try await sources.requireAPI().search(request, cursor: cursor, policy: .cacheFirst(maxAge: nil)).page
        }
        if search.recordsHistory, !store.isReadOnly || store.keepsHistoryWhenReadOnly, !holdsOwnToken(search.query),
            let previous = try await store.lastSearch(query: search.query, source: scope(of: search, on: kind).recorded)
        {
            var entry = previous
            entry.nextCursor = page.nextToken
            entry.lastRun = now()
            try await store.recordSearch(entry)
        }
        return SearchPage(
            page: try await forPrinting(page), sourceName: kind.rawValue, warnings: page.errors.map(\.warningMessage))
    }
}
