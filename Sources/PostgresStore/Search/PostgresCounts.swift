import Foundation
import TweetKit
import TweetStore

extension PostgresStore {
    /// Counts the tweets matching `query` by time, in UTC buckets of `granularity`, as the SQLite store does: each
    /// snowflake id carries its time, so only ids are read; ids from before snowflakes (2010) use their stored time.
    /// The request's collection and time bounds apply; its page size, sort and cursor do not.
    public func countByTime(
        _ query: SearchQuery, request: SearchRequest, granularity: CountGranularity
    ) async throws -> CountSeries {
        var unbounded = request
        unbounded.startTime = nil
        unbounded.endTime = nil
        let since = request.startTime.map(TweetRecord.milliseconds)
        let until = request.endTime.map(TweetRecord.milliseconds)
        func inside(_ time: Int64?) -> Bool {
            guard let time else { return since == nil && until == nil }
            if let since, time < since { return false }
            if let until, time >= until { return false }
            return true
        }
        let countLimit = self.countLimit
        let times = try await withCancellableConnection { connection in
            let conditions = try PostgresSearch(connection: connection, countLimit: countLimit)
                .conditions(query, request: unbounded)
            return try connection.rows(
                "SELECT t.id, t.created_at FROM tweets t WHERE \(conditions.sql)", conditions.parameters,
                doing: "counting"
            ) { row -> Int64? in
                TweetTime.milliseconds(fromSnowflake: TweetID(UInt64(bitPattern: row.int64(0))))
                    ?? row.optionalInt64(1)
            }
        }
        var counter = BucketCounter(granularity: granularity)
        for time in times where inside(time) { counter.add(time) }
        return CountSeries(
            query: request.query, granularity: granularity,
            buckets: try counter.buckets(since: since, until: until), undated: counter.undated, sourceName: "local")
    }
}
