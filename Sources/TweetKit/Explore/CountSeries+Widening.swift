extension CountSeries {
    /// The most day buckets a chart draws before `widened` draws weeks, weeks before it draws months, and months
    /// before it draws years: past that, rows scroll off a terminal and bars one cell wide cannot be compared.
    public static let chartBuckets = 120

    /// The series in weeks, months or years, when it was counted by day without asking (`chartMayWiden`) and holds
    /// more than `limit` days; otherwise the series itself. UTC weeks, months and years start on day boundaries, so
    /// each wider bucket is the sum of whole days, and the total and the empty buckets stay exact.
    public func widened(toAtMost limit: Int = chartBuckets) -> CountSeries {
        guard chartMayWiden, granularity == .day, buckets.count > limit, let first = buckets.first,
            let last = buckets.last
        else { return self }
        for wider in [CountGranularity.week, .month, .year] {
            var counter = BucketCounter(granularity: wider)
            for bucket in buckets where bucket.count > 0 { counter.add(bucketStart: bucket.start, count: bucket.count) }
            guard let regrouped = try? counter.buckets(since: first.start, until: last.end) else { continue }
            if regrouped.count <= limit || wider == .year {
                var series = self
                series.granularity = wider
                series.buckets = regrouped
                series.chartMayWiden = false
                return series
            }
        }
        return self
    }
}
