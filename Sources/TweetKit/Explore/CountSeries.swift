import Foundation

/// One bucket of a count over time: `[start, end)` in milliseconds since 1970, UTC.
public struct CountBucket: Equatable, Hashable, Sendable {
    /// The bucket's first millisecond.
    public var start: Int64
    /// The first millisecond after the bucket.
    public var end: Int64
    /// Tweets in it.
    public var count: Int

    /// Creates a bucket.
    public init(start: Int64, end: Int64, count: Int) {
        self.start = start
        self.end = end
        self.count = count
    }

    /// The start as a date.
    public var startDate: Date { Date(timeIntervalSince1970: Double(start) / 1000) }
    /// The end as a date.
    public var endDate: Date { Date(timeIntervalSince1970: Double(end) / 1000) }
}

/// A count of tweets over time: every bucket from the first to the last, empty ones included, in time order.
public struct CountSeries: Equatable, Sendable {
    /// What was counted (the query as typed).
    public var query: String
    /// The bucket width.
    public var granularity: CountGranularity
    /// The buckets, oldest first, with no gaps.
    public var buckets: [CountBucket]
    /// Matches whose time is unknown (a pre-snowflake id with no stored time): counted in no bucket, reported.
    public var undated: Int
    /// Where the count came from (`local`, `x`).
    public var sourceName: String
    /// The total the source reported (the API's `meta.total_tweet_count`), when it reported one.
    public var reportedTotal: Int?
    /// Whether a chart may draw the series in wider buckets when it holds too many to read (`widened`): true when the
    /// bucket width was not asked for. Data output (`--json`, `export`) keeps the buckets counted.
    public var chartMayWiden = false
    /// The local collection counted, when the count stayed inside one.
    public var collection: String?

    /// Creates a series.
    public init(
        query: String, granularity: CountGranularity, buckets: [CountBucket], undated: Int = 0,
        sourceName: String = "local", reportedTotal: Int? = nil
    ) {
        self.query = query
        self.granularity = granularity
        self.buckets = buckets
        self.undated = undated
        self.sourceName = sourceName
        self.reportedTotal = reportedTotal
    }

    /// Tweets in all buckets.
    public var total: Int { buckets.reduce(0) { $0 + $1.count } }

    /// The index of the fullest bucket (the first of equals); nil when every bucket is empty.
    public var peakIndex: Int? {
        var best: Int?
        for (index, bucket) in buckets.enumerated() where bucket.count > 0 {
            if best == nil || bucket.count > buckets[best!].count { best = index }
        }
        return best
    }
}

/// Counts times into buckets one at a time, then lays the buckets out with the empty ones filled.
///
/// Matches arrive from the index in id order, so consecutive times mostly fall into the same bucket; the last bucket
/// is remembered and the dictionary is touched only when a time leaves it.
public struct BucketCounter: Sendable {
    /// The most buckets a series may have: a minute count over years would otherwise fill the memory and the screen.
    public static let maximumBuckets = 100_000

    /// The bucket width.
    public let granularity: CountGranularity
    private var counts: [Int64: Int] = [:]
    private var currentStart = Int64.min
    private var currentEnd = Int64.min
    private var currentCount = 0
    /// Times that were nil.
    public private(set) var undated = 0

    /// Creates an empty counter.
    public init(granularity: CountGranularity) {
        self.granularity = granularity
    }

    /// Counts one tweet at `milliseconds`; nil counts as undated.
    public mutating func add(_ milliseconds: Int64?) {
        guard let milliseconds else {
            undated += 1
            return
        }
        if milliseconds >= currentStart && milliseconds < currentEnd {
            currentCount += 1
            return
        }
        flush()
        currentStart = granularity.bucketStart(milliseconds)
        currentEnd = granularity.bucketEnd(after: currentStart)
        currentCount = 1
    }

    /// Adds `count` tweets to the bucket starting at `start` (an API count, already bucketed).
    public mutating func add(bucketStart start: Int64, count: Int) {
        flush()
        counts[granularity.bucketStart(start), default: 0] += count
    }

    private mutating func flush() {
        if currentCount > 0 { counts[currentStart, default: 0] += currentCount }
        currentCount = 0
        currentStart = .min
        currentEnd = .min
    }

    /// Every bucket from the one holding `since` (or the first counted) to the one before `until` (or the last
    /// counted), empty ones included. Throws when that would be more than `maximumBuckets`.
    public func buckets(since: Int64? = nil, until: Int64? = nil) throws(CountRangeError) -> [CountBucket] {
        var copy = self
        copy.flush()
        let counts = copy.counts
        let first = since.map(granularity.bucketStart) ?? counts.keys.min()
        let lastStart: Int64? =
            if let until { granularity.bucketStart(until - 1) } else { counts.keys.max() }
        guard let first, let lastStart, first <= lastStart else { return [] }
        var result: [CountBucket] = []
        var start = first
        while start <= lastStart {
            guard result.count < Self.maximumBuckets else { throw CountRangeError(granularity: granularity) }
            let end = granularity.bucketEnd(after: start)
            result.append(CountBucket(start: start, end: end, count: counts[start] ?? 0))
            start = end
        }
        return result
    }
}

/// A count whose range holds too many buckets of its width.
public struct CountRangeError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The width asked for.
    public var granularity: CountGranularity

    /// Creates the error.
    public init(granularity: CountGranularity) { self.granularity = granularity }

    /// What to do about it.
    public var description: String {
        "the range holds more than \(BucketCounter.maximumBuckets) \(granularity.rawValue)s; "
            + "count by a wider bucket (--by hour, day, week, month or year) or narrow it with --since and --until"
    }
}
