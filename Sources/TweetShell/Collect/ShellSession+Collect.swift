import Foundation
import TweetKit
import TweetStore
import XAPI

extension ShellSession {
    /// Runs `hydrate`, `dehydrate`, `export --ids` and `rules`.
    func collect(_ command: CollectCommand) async -> CommandStatus {
        switch command {
        case .hydrate(let path, let into): return await hydrate(path, into: into)
        case .dehydrate(let query, let collection, let path):
            return await dehydrate(query: query, collection: collection, path: path)
        case .rules(let action): return await rules(action)
        }
    }

    /// `dehydrate [--in NAME] [query]` and `export --ids <file>`: tweet ids one a line, as twarc2's `dehydrate`
    /// writes them. A query (or `--in`) is run on the local store over every match, newest first; without either,
    /// the ids of the current results, in their order. To stdout unless a file is given; the count goes to stderr,
    /// so a redirected stdout holds ids only.
    func dehydrate(query: String?, collection: String?, path: String?) async -> CommandStatus {
        var ids: [TweetID] = []
        if query == nil && collection == nil {
            let list = viewModel.results
            guard list.search != nil || !list.items.isEmpty else {
                output.error("nothing to dehydrate: search first, or give a query (dehydrate #swift)")
                return .failed
            }
            ids = list.items.map(\.tweet.id)
        } else {
            do {
                ids = try await localIDs(query: query, collection: collection ?? sources.collection)
            } catch is CancellationError {
                output.note("dehydrate interrupted; nothing was written")
                return .failed
            } catch {
                output.error("dehydrate: \(ErrorText.describe(error))")
                return .failed
            }
        }
        let text = ids.map { "\($0)\n" }.joined()
        guard let path else {
            output.raw(text)
            output.note("\(ids.count) tweet id\(ids.count == 1 ? "" : "s")")
            return .ok
        }
        guard let file = await createExportFile(path) else { return .failed }
        let written = file.path
        do {
            try file.handle.write(contentsOf: Data(text.utf8))
            try commit(file)
        } catch {
            output.error("cannot write \(written): \(ErrorText.describe(error)); \(file.abandon())")
            return .failed
        }
        reportWritten("wrote \(ids.count) tweet id\(ids.count == 1 ? "" : "s") to", file)
        return .ok
    }

    /// Every match of a local query (every tweet of the collection when there is none), a page at a time.
    private func localIDs(query: String?, collection: String?) async throws -> [TweetID] {
        let text = query ?? SearchOptions.wholeCollection
        let parsed = try SearchQuery(parsing: text)
        var request = SearchRequest(query: text, pageSize: 1_000, sort: .recency)
        request.collection = collection
        var ids: [TweetID] = []
        var cursor: String?
        repeat {
            try Task.checkCancellation()
            let page = try await store.search(parsed, request: request, cursor: cursor)
            ids += page.tweets.map(\.id)
            cursor = page.nextToken
        } while cursor != nil
        return ids
    }
}
