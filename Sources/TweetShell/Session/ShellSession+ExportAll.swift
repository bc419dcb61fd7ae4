import Foundation
import TweetKit
import TweetStore

extension ShellSession {
    /// A results page ready to export: a page fetched from the API this session carries what the API sent; any
    /// other page (a local search, or an API page answered from the cache) gets its objects' originals from the store,
    /// which keeps every page it imported or fetched.
    func withOriginals(_ page: Page) async throws -> Page {
        guard page.originals.tweets.isEmpty else { return page }
        return try await store.withOriginals(page)
    }

    /// `export <file> --all`: every match of the current local search, read from the store a page at a time and
    /// written as it is read, so memory stays flat however many tweets match.
    func exportAll(to rawPath: String, format: ExportFormat, columns: TwarcCSVColumns) async -> CommandStatus {
        let list = viewModel.results
        guard let search = list.search else {
            output.error("nothing to export: search first")
            return .failed
        }
        guard list.sourceName == store.name else {
            output.error(
                "export --all reads the local store; for an X search, 'more' loads further pages and 'export' writes "
                    + "them as the API sent them")
            return .failed
        }
        let query: SearchQuery
        do {
            query = try SearchQuery(parsing: search.query)
        } catch {
            output.error("cannot export: the query does not parse at column \(error.column): \(error.message)")
            return .failed
        }
        guard let file = await createExportFile(rawPath) else { return .failed }
        let path = file.path
        let writer = ExportFileWriter(
            handle: file.handle, format: format,
            metadata: TwarcMetadata(url: "tweetsh:\(list.sourceName):\(search.query)", retrievedAt: Date()),
            columns: columns)
        var request = SearchRequest(
            query: search.query, pageSize: ShellSession.exportPageSize, sort: search.sort ?? .recency)
        // The same scope as the search itself: its collection, or the session's, and so never the hidden demo corpus.
        request.collection = search.collection ?? sources.collection
        let progressBar = ProgressBar(enabled: spinner.isEnabled, label: (path as NSString).lastPathComponent)
        let total = list.totalCount
        do {
            let written = try await store.exportAll(query, request: request, to: writer) { written in
                progressBar.update(
                    ImportProgress(
                        bytesRead: UInt64(written), totalBytes: UInt64(max(total ?? 0, written)), lines: written,
                        tweets: written, errors: 0))
            }
            try writer.finish()
            try commit(file)
            progressBar.finish()
            reportWritten("wrote \(written) tweet\(written == 1 ? "" : "s") to", file, "as \(format.rawValue)")
            return .ok
        } catch is CancellationError {
            // Interrupted on purpose: what was written is kept, and said to be partial.
            progressBar.finish()
            do {
                try writer.finish()
                try commit(file)
            } catch {
                output.error("writing \(path) failed: \(ErrorText.describe(error)); \(file.abandon())")
                return .failed
            }
            output.note("export interrupted after \(writer.tweetsWritten) tweets; \(path) holds those")
            return .failed
        } catch {
            progressBar.finish()
            output.error("writing \(path) failed: \(ErrorText.describe(error)); \(file.abandon())")
            return .failed
        }
    }

    /// Tweets read from the store per round trip of `export --all`: big enough to amortize the hop onto the store's
    /// queue, small enough to keep memory flat.
    static let exportPageSize = 1_000
}
