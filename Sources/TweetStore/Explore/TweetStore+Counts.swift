import Foundation
import TweetKit

extension TweetStore {
    /// Counts the tweets matching `query` by time, in UTC buckets of `granularity`, every bucket from the first match
    /// (or `request.startTime`) to the last (or `request.endTime`) included, empty ones too.
    ///
    /// A query of words alone is counted from the full-text index without reading a row: each id is a snowflake
    /// carrying its time. Ids from before snowflakes (2010) read their stored time. The request's collection and time
    /// bounds apply as for a search; its page size, sort and cursor do not. Cancelling the task interrupts the count.
    public func countByTime(
        _ query: SearchQuery, request: SearchRequest, granularity: CountGranularity
    ) async throws -> CountSeries {
        try await database.run { connection in
            let scope = try MatchScope.build(connection, query: query, request: request, needsRow: false)
            let window = TimeWindow(request)
            var counter = BucketCounter(granularity: granularity)
            var oldIDs: [Int64] = []
            try connection.withStatement(scope.select(scope.idColumn), scope.bindings) { statement in
                while try statement.step() {
                    let raw = statement.int64(0)
                    let id = TweetID(UInt64(bitPattern: raw))
                    guard let time = TweetTime.milliseconds(fromSnowflake: id) else {
                        oldIDs.append(raw)
                        continue
                    }
                    if window.contains(time) { counter.add(time) }
                }
            }
            for raw in oldIDs {
                let stored = try connection.scalar("SELECT created_at FROM tweets WHERE id = ?", [.integer(raw)])
                if window.contains(stored) { counter.add(stored) }
            }
            let buckets = try counter.buckets(since: window.since, until: window.until)
            return CountSeries(
                query: request.query, granularity: granularity, buckets: buckets, undated: counter.undated,
                sourceName: "local")
        }
    }
}
