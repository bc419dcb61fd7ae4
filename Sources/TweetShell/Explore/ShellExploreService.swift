import Foundation
import StreamCore
import TweetKit
import TweetStore
import XAPI

/// The shell's `ExploreService`: counts, top lists and overviews from the local store, and counts from the X API's
/// counts endpoints with `--source x`. Each request runs in a task behind an `AsyncThrowingStream`; cancelling the
/// subscription cancels the task, which interrupts the SQLite statement or the HTTP request and any wait.
public final class ShellExploreService: ExploreService, @unchecked Sendable {
    private let store: any CollectionStore
    private let sources: SourceState

    /// Creates the service over the store and the shell's source settings.
    public init(store: any CollectionStore, sources: SourceState) {
        self.store = store
        self.sources = sources
    }

    /// Runs one request.
    public func run(_ request: ExploreRequest) -> AnyPublisher<ExploreProgress, any Error> {
        let sources = self.sources
        return Deferred { [self] in
            AsyncThrowingStream<ExploreProgress, any Error> { continuation in
                let task = Task {
                    let token = sources.waits.add { continuation.yield(.waiting($0)) }
                    defer { sources.waits.remove(token) }
                    do {
                        let answer = try await self.answer(request) { continuation.yield(.paging(pages: $0)) }
                        continuation.yield(.answer(answer))
                        continuation.finish()
                    } catch {
                        continuation.finish(throwing: error)
                    }
                }
                continuation.onTermination = { _ in task.cancel() }
            }
            .publisher
        }
        .eraseToAnyPublisher()
    }

    private func answer(_ request: ExploreRequest, paging: @escaping @Sendable (Int) -> Void) async throws
        -> ExploreAnswer
    {
        switch request {
        case .count(let options):
            let toX = (options.source ?? sources.current) == .x
            let query = try Self.parse(options.query, for: toX ? .xSearch : .local)
            if toX {
                let api = try sources.requireAPI()
                var series = try await api.countByTime(
                    options.query, granularity: options.granularity, since: options.since, until: options.until,
                    fullArchive: options.fullArchive, pageFetched: paging)
                series.chartMayWiden = !options.granularityGiven
                return .count(series, json: options.json)
            }
            var search = SearchRequest(query: options.query, startTime: options.since, endTime: options.until)
            search.collection = options.collection ?? sources.collection
            var series = try await store.countByTime(query, request: search, granularity: options.granularity)
            series.chartMayWiden = !options.granularityGiven
            series.collection = search.collection
            // `count --in NAME` alone counted the whole collection: there is no query to show.
            if options.query == SearchOptions.wholeCollection { series.query = "" }
            return .count(series, json: options.json)
        case .top(let options):
            guard let text = options.query else {
                let results = options.results ?? ResultList()
                guard !results.items.isEmpty else {
                    throw CommandError(
                        "no results to rank: give a query (top \(options.kind.rawValue) coffee) or search first")
                }
                var counter = TopCounter(kind: options.kind)
                for item in results.items { counter.add(item.tweet, author: item.author?.username) }
                // Results of `search --in NAME` alone ran the whole-collection query, which `drill` need not repeat.
                let searched = results.search?.query ?? ""
                var list = TopList(
                    kind: options.kind, query: searched == SearchOptions.wholeCollection ? "" : searched,
                    rows: counter.ranked(limit: options.limit), tweets: counter.tweets, overResults: true)
                // `drill` then searches where the results came from.
                list.sourceName = results.sourceName.isEmpty ? nil : results.sourceName
                if results.sourceName != SourceKind.x.rawValue {
                    list.collection = results.search?.collection ?? sources.collection
                }
                return .top(list)
            }
            let query = try Self.parse(text)
            var search = SearchRequest(query: text)
            search.collection = options.collection ?? sources.collection
            var list = try await store.topList(options.kind, query: query, request: search, limit: options.limit)
            // A query's matches are ranked in the local store, inside the collection, and `drill` searches there.
            list.sourceName = SourceKind.local.rawValue
            list.collection = search.collection
            // `top … --in NAME` alone ranked the whole collection: no query to show or to narrow in `drill`.
            if text == SearchOptions.wholeCollection { list.query = "" }
            return .top(list)
        case .stats(let name):
            let collection = name == "all" ? nil : name ?? sources.collection
            let overview = try await store.overview(collection: collection)
            var ids: [TweetID] = []
            for id in overview.mostLiked + overview.mostRetweeted where !ids.contains(id) { ids.append(id) }
            var list = ResultList(sourceName: store.name)
            if !ids.isEmpty {
                var page = try await store.lookup(ids: ids)
                page.errors = []
                list.append(page)
            }
            return .stats(overview, tweets: list, name: collection ?? "all collections")
        }
    }

    /// Parses a query for `target`, pointing at the column of a mistake as a search does.
    static func parse(_ text: String, for target: QueryTarget = .local) throws -> SearchQuery {
        do {
            return try SearchQuery(parsing: text, for: target)
        } catch {
            let column = max(1, error.column)
            let caret = DisplayWidth.caret(under: text, column: column)
            throw CommandError("in the query at column \(column): \(error.message)\n    \(text)\n    \(caret)")
        }
    }
}
