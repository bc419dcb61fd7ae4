import Foundation
import TweetKit
import TweetStore
import XAPI

extension ShellSession {
    /// `more` in a process that has not searched yet continues the most recent search of the search history from the
    /// cursor it recorded, as the docs promise. The results it showed before are rebuilt when that is cheap and exact
    /// (a local search in recency order, or API pages still in the cache), so numbering goes on and `show N` reaches
    /// them; otherwise numbering starts at 1, and the note says which.
    ///
    /// Returns nil when `more` can go on (the list is adopted), or the status of a `more` that cannot (the last search
    /// has no more pages; the message is printed).
    func resumeLastSearch() async -> CommandStatus? {
        guard let entry = try? await store.searchHistory(limit: 1).first else { return nil }
        let ago = RelativeTime.ago(entry.lastRun, now: Date())
        guard let cursor = entry.nextCursor else {
            let label = HistoryScope(recorded: entry.source)?.label ?? entry.source
            output.error("no more results for '\(entry.query)', the last search (\(label), \(ago))")
            return .failed
        }
        let scope = HistoryScope(recorded: entry.source)
        var options = SearchOptions(query: entry.query, source: scope?.source)
        // The collection it ran in, for the pages to come and for rebuilding the ones shown.
        options.collection = scope?.collection
        // A local cursor says which order it pages in (`b…` is relevance order); the API's do not need to.
        if scope?.source == .local, cursor.hasPrefix("b") { options.sort = .relevancy }
        var list = ResultList(search: options, sourceName: scope?.source.rawValue ?? entry.source)
        for page in await earlierPages(of: options, before: cursor) { list.append(page) }
        list.nextCursor = cursor
        viewModel.adopt(list)
        let numbering =
            list.items.isEmpty
            ? "numbering starts at 1"
            : "after its \(list.items.count) earlier result\(list.items.count == 1 ? "" : "s")"
        let label = scope?.label ?? entry.source
        output.note("continuing the last search, '\(entry.query)' on \(label) (\(ago)); \(numbering)")
        return nil
    }

    /// What the search showed before `cursor`, when it can be had without asking the API; empty otherwise.
    private func earlierPages(of options: SearchOptions, before cursor: String) async -> [Page] {
        switch options.source ?? sources.current {
        case .local:
            // A recency cursor `r<id>` continues below that id, so the results shown are the matches from it up.
            // The store writes the id's bit pattern as a signed integer.
            guard cursor.hasPrefix("r"), let signed = Int64(cursor.dropFirst()) else { return [] }
            let id = UInt64(bitPattern: signed)
            guard id > 0 else { return [] }
            var request = SearchRequest(query: options.query, pageSize: 1_000, sort: .recency)
            request.sinceID = TweetID(id - 1)
            request.collection = options.collection ?? sources.collection
            guard let page = try? await store.search(request, cursor: nil), page.nextToken == nil,
                page.tweets.last?.id == TweetID(id)
            else { return [] }
            return [page]
        case .x:
            guard let api = sources.api else { return [] }
            for size in Set([pageSize, XAPISource.minimumSearchPageSize]).sorted() {
                let request = SearchRequest(query: options.query, pageSize: size, sort: options.sort ?? .recency)
                if let pages = try? await api.cachedPages(for: request, before: cursor) { return pages }
            }
            return []
        }
    }
}
