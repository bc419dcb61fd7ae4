import Foundation
import TweetKit
import TweetStore

extension PostgresStore {
    /// Writes every match of `query`, newest first, with the stored originals of its tweets, users and media, one
    /// page of `request.pageSize` tweets at a time.
    ///
    /// The matches come from one server-side cursor (`forEachMatch`), a page per `FETCH`: the query runs once, no
    /// count is run, and memory holds one page, however many tweets the export writes. Cancelling the task cancels
    /// the statement on the server or stops between pages.
    public func exportAll(
        _ query: SearchQuery, request: SearchRequest, to writer: ExportFileWriter, progress: (@Sendable (Int) -> Void)?
    ) async throws -> Int {
        var request = request
        request.prefixLastWord = false
        let pageSize = max(1, min(request.pageSize, 1_000))
        let countLimit = self.countLimit
        let codec = self.codec
        return try await withCancellableConnection { connection in
            let conditions = try PostgresSearch(connection: connection, countLimit: countLimit)
                .conditions(query, request: request)
            let reader = PostgresReader(connection: connection)
            let originals = PostgresOriginals(connection: connection, codec: codec)
            var written = 0
            var tweets: [Tweet] = []
            try Self.forEachMatch(
                connection, conditions, columns: TweetRow.selected, batch: pageSize,
                endOfBatch: {
                    var page = try reader.page(with: tweets)
                    page.originals.merge(try originals.originals(for: page))
                    try writer.write(page)
                    written += tweets.count
                    tweets.removeAll(keepingCapacity: true)
                    progress?(written)
                }
            ) { row in tweets.append(try TweetRow.tweet(from: row)) }
            return written
        }
    }
}
