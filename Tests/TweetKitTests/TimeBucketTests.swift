import Foundation
import Testing
import TweetKit

@Suite("Counting by time: snowflake times and UTC buckets")
struct TimeBucketTests {
    /// Milliseconds of a UTC time, computed by Foundation's calendar: an independent check of the arithmetic.
    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0) -> Int64 {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let date = calendar.date(
            from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
        return Int64(date.timeIntervalSince1970 * 1000)
    }

    /// A snowflake made at `milliseconds`, with some worker and sequence bits set.
    static func snowflake(_ milliseconds: Int64, low: UInt64 = 0x2F_FFFF) -> TweetID {
        TweetID(UInt64(milliseconds - TweetTime.snowflakeEpochMilliseconds) << 22 | low)
    }

    @Test func aKnownTweetIdDecodesToItsTime() {
        // 1460323737035677698 was posted at 2021-11-15T19:08:05.069Z.
        #expect(TweetTime.milliseconds(fromSnowflake: 1_460_323_737_035_677_698) == 1_637_003_285_069)
        #expect(
            TweetTime.milliseconds(fromSnowflake: Self.snowflake(0 + TweetTime.snowflakeEpochMilliseconds + 86_400_000))
                == TweetTime.snowflakeEpochMilliseconds + 86_400_000)
    }

    @Test func idsAtABucketEdgeFallOnTheRightSide() {
        let midnight = Self.utc(2024, 2, 29)
        let lastBefore = Self.snowflake(midnight - 1, low: 0x3F_FFFF)
        let first = Self.snowflake(midnight, low: 0)
        for granularity in [CountGranularity.minute, .hour, .day] {
            let before = TweetTime.milliseconds(fromSnowflake: lastBefore)!
            let at = TweetTime.milliseconds(fromSnowflake: first)!
            #expect(granularity.bucketStart(at) == midnight, "\(granularity)")
            #expect(granularity.bucketStart(before) < midnight, "\(granularity)")
            #expect(granularity.bucketEnd(after: granularity.bucketStart(before)) == midnight, "\(granularity)")
        }
        #expect(TweetTime.firstID(atOrAfter: midnight) == Self.snowflake(midnight, low: 0))
    }

    @Test func preSnowflakeIdsUseTheStoredTime() {
        let stored = Date(timeIntervalSince1970: 1_230_000_000)  // 2008-12-23
        #expect(TweetTime.milliseconds(fromSnowflake: 1_061_434_375) == nil)
        #expect(TweetTime.milliseconds(of: 1_061_434_375, stored: stored) == 1_230_000_000_000)
        #expect(TweetTime.milliseconds(of: 29_000_000_000, stored: nil) == nil)
        // A snowflake's own time wins over a stored time that disagrees.
        let id = Self.snowflake(Self.utc(2020, 1, 1))
        #expect(TweetTime.milliseconds(of: id, stored: stored) == Self.utc(2020, 1, 1))
    }

    @Test func civilDatesRoundTripOverCenturies() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        // From 1601: Foundation's Gregorian calendar is Julian before 1582, these buckets are proleptic Gregorian.
        for days in stride(from: Int64(-134_500), through: 146_097, by: 97) {
            let date = TweetTime.civil(fromDays: days)
            #expect(TweetTime.days(from: date) == days)
            let foundation = calendar.dateComponents(
                [.year, .month, .day], from: Date(timeIntervalSince1970: Double(days) * 86_400))
            #expect(foundation.year == date.year && foundation.month == date.month && foundation.day == date.day)
        }
    }

    @Test func leapYearsHaveTheirLeapDay() {
        #expect(CountGranularity.month.bucketEnd(after: Self.utc(2024, 2, 1)) - Self.utc(2024, 2, 1) == 29 * 86_400_000)
        #expect(CountGranularity.month.bucketEnd(after: Self.utc(2023, 2, 1)) - Self.utc(2023, 2, 1) == 28 * 86_400_000)
        #expect(CountGranularity.month.bucketEnd(after: Self.utc(2100, 2, 1)) - Self.utc(2100, 2, 1) == 28 * 86_400_000)
        #expect(CountGranularity.month.bucketEnd(after: Self.utc(2000, 2, 1)) - Self.utc(2000, 2, 1) == 29 * 86_400_000)
        #expect(CountGranularity.day.label(Self.utc(2024, 2, 29, 23, 59)) == "2024-02-29")
        #expect(CountGranularity.month.bucketEnd(after: Self.utc(2024, 12, 1)) == Self.utc(2025, 1, 1))
    }

    @Test func yearsRunFromTheFirstOfJanuaryUTC() {
        #expect(CountGranularity.year.bucketStart(Self.utc(2024, 12, 31, 23, 59)) == Self.utc(2024, 1, 1))
        #expect(CountGranularity.year.bucketStart(Self.utc(2025, 1, 1)) == Self.utc(2025, 1, 1))
        #expect(CountGranularity.year.bucketStart(Self.utc(1969, 7, 20, 20, 17)) == Self.utc(1969, 1, 1))
        #expect(CountGranularity.year.bucketEnd(after: Self.utc(2024, 1, 1)) - Self.utc(2024, 1, 1) == 366 * 86_400_000)
        #expect(CountGranularity.year.bucketEnd(after: Self.utc(2023, 1, 1)) == Self.utc(2024, 1, 1))
        #expect(CountGranularity.year.label(Self.utc(2024, 6, 1)) == "2024")
        #expect(CountGranularity.year.apiValue == nil, "the API counts by day, and the days are added up")
    }

    @Test func daylightSavingDaysAreTwentyFourHoursInUTC() throws {
        // Europe moved its clocks on 2024-03-31 and 2024-10-27, the US on 2024-03-10 and 2024-11-03: in UTC each is
        // an ordinary day of 24 one-hour buckets.
        for (month, day) in [(3, 31), (10, 27), (3, 10), (11, 3)] {
            let start = Self.utc(2024, month, day)
            var counter = BucketCounter(granularity: .hour)
            for minute in stride(from: Int64(0), to: 24 * 60, by: 30) { counter.add(start + minute * 60_000) }
            let buckets = try counter.buckets()
            #expect(buckets.count == 24)
            #expect(buckets.allSatisfy { $0.count == 2 && $0.end - $0.start == 3_600_000 })
            #expect(CountGranularity.day.bucketEnd(after: start) - start == 86_400_000)
            #expect(CountGranularity.hour.label(start + 2 * 3_600_000).hasSuffix(" 02h"))
        }
    }

    @Test func weeksStartOnMondayAndMonthsOnTheFirst() {
        // 2024-03-06 is a Wednesday; its ISO week began on Monday 2024-03-04.
        #expect(CountGranularity.week.bucketStart(Self.utc(2024, 3, 6, 13)) == Self.utc(2024, 3, 4))
        #expect(CountGranularity.week.bucketStart(Self.utc(2024, 3, 4)) == Self.utc(2024, 3, 4))
        #expect(CountGranularity.week.bucketStart(Self.utc(2024, 3, 3, 23, 59)) == Self.utc(2024, 2, 26))
        #expect(CountGranularity.week.bucketStart(Self.utc(1970, 1, 1)) == Self.utc(1969, 12, 29))
        #expect(CountGranularity.month.bucketStart(Self.utc(2024, 3, 31, 23, 59)) == Self.utc(2024, 3, 1))
        #expect(CountGranularity.month.label(Self.utc(2024, 3, 1)) == "2024-03")
        #expect(CountGranularity.minute.label(Self.utc(2024, 3, 1, 9, 5)) == "2024-03-01 09:05")
        #expect(CountGranularity.iso8601(Self.utc(2024, 3, 1, 9, 5) + 7) == "2024-03-01T09:05:00.007Z")
    }

    @Test func emptyBucketsAreFilledAndBoundsRespected() throws {
        var counter = BucketCounter(granularity: .day)
        counter.add(Self.utc(2024, 1, 1, 5))
        counter.add(Self.utc(2024, 1, 4, 5))
        counter.add(Self.utc(2024, 1, 4, 6))
        counter.add(nil)
        let buckets = try counter.buckets()
        #expect(buckets.map(\.count) == [1, 0, 0, 2])
        #expect(buckets.first?.start == Self.utc(2024, 1, 1) && buckets.last?.end == Self.utc(2024, 1, 5))
        #expect(counter.undated == 1)
        let bounded = try counter.buckets(since: Self.utc(2023, 12, 30), until: Self.utc(2024, 1, 6))
        #expect(bounded.map(\.count) == [0, 0, 1, 0, 0, 2, 0])
        #expect(try BucketCounter(granularity: .day).buckets().isEmpty)
        let series = CountSeries(query: "q", granularity: .day, buckets: buckets)
        #expect(series.total == 3 && series.peakIndex == 3)
    }

    @Test func tooManyBucketsIsRefusedWithAHint() {
        var counter = BucketCounter(granularity: .minute)
        counter.add(Self.utc(2020, 1, 1))
        counter.add(Self.utc(2024, 1, 1))
        #expect(throws: CountRangeError(granularity: .minute)) { try counter.buckets() }
    }
}
