import Foundation
import Testing
import TweetKit

/// A count by day over a long range is drawn in weeks or months when no width was asked for, with every tweet kept
/// in the bucket that holds its day.
@Suite("Drawing long counts in wider buckets")
struct CountWideningTests {
    /// A day series from `start` (midnight UTC) with `counts[i]` tweets on day i.
    static func days(from start: Int64, _ counts: [Int], mayWiden: Bool = true) -> CountSeries {
        let day: Int64 = 86_400_000
        var series = CountSeries(
            query: "q", granularity: .day,
            buckets: counts.enumerated().map {
                CountBucket(
                    start: start + Int64($0.offset) * day, end: start + Int64($0.offset + 1) * day, count: $0.element)
            })
        series.chartMayWiden = mayWiden
        return series
    }

    @Test func manyDaysBecomeWeeksThatStartOnMondayAndKeepEveryTweet() {
        // 2024-01-03 is a Wednesday; 200 days, with tweets on some of them.
        let start = TimeBucketTests.utc(2024, 1, 3)
        let counts = (0..<200).map { $0 % 3 == 0 ? $0 % 7 + 1 : 0 }
        let weeks = Self.days(from: start, counts).widened()
        #expect(weeks.granularity == .week)
        #expect(weeks.total == counts.reduce(0, +), "no tweet lost or added")
        #expect(weeks.buckets.first?.start == TimeBucketTests.utc(2024, 1, 1), "the week of the first day, from Monday")
        #expect(weeks.buckets.first?.count == counts[0..<5].reduce(0, +), "Wednesday to Sunday")
        #expect(weeks.buckets[1].count == counts[5..<12].reduce(0, +))
        #expect(zip(weeks.buckets, weeks.buckets.dropFirst()).allSatisfy { $0.end == $1.start }, "no gaps")
        #expect(!weeks.chartMayWiden)
    }

    @Test func yearsOfDaysBecomeMonthsAndShortOrAskedForSeriesStayAsTheyAre() {
        let start = TimeBucketTests.utc(2006, 3, 21)
        var counts = [Int](repeating: 0, count: 985)
        counts[0] = 1
        counts[984] = 1
        let months = Self.days(from: start, counts).widened()
        #expect(months.granularity == .month && months.buckets.count == 33 && months.total == 2)
        #expect(months.buckets.first?.start == TimeBucketTests.utc(2006, 3, 1))
        #expect(months.buckets.last?.count == 1)

        // Fifteen years of an archive: 180 months are too many, so years.
        var archive = [Int](repeating: 0, count: 5_479)
        archive[0] = 2
        archive[5_478] = 3
        let years = Self.days(from: start, archive).widened()
        #expect(years.granularity == .year && years.buckets.count == 16 && years.total == 5)
        #expect(years.buckets.first?.start == TimeBucketTests.utc(2006, 1, 1))
        #expect(years.buckets.first?.count == 2 && years.buckets.last?.count == 3)

        let short = Self.days(from: start, [Int](repeating: 1, count: 120))
        #expect(short.widened() == short, "120 days are drawn as days")
        let asked = Self.days(from: start, counts, mayWiden: false)
        #expect(asked.widened() == asked, "--by day is drawn by day")
    }
}
