/// The width of one bucket of a count over time. Buckets are UTC: a day runs from 00:00 to 24:00 UTC whatever the
/// local time zone, so daylight-saving changes never make a bucket 23 or 25 hours long.
public enum CountGranularity: String, CaseIterable, Sendable {
    /// One minute.
    case minute
    /// One hour.
    case hour
    /// One UTC day.
    case day
    /// One ISO week, Monday 00:00 UTC to the next Monday.
    case week
    /// One calendar month in UTC.
    case month
    /// One calendar year in UTC: an archive kept for fifteen years is fifteen bars, not 180.
    case year

    /// The API's `granularity` value, for the widths the counts endpoints offer (minute, hour, day); nil otherwise.
    public var apiValue: String? {
        switch self {
        case .minute, .hour, .day: return rawValue
        case .week, .month, .year: return nil
        }
    }

    /// The start of the bucket holding `milliseconds` (since 1970, UTC).
    public func bucketStart(_ milliseconds: Int64) -> Int64 {
        switch self {
        case .minute: return TweetTime.floorDivide(milliseconds, 60_000) * 60_000
        case .hour: return TweetTime.floorDivide(milliseconds, 3_600_000) * 3_600_000
        case .day: return TweetTime.floorDivide(milliseconds, TweetTime.dayMilliseconds) * TweetTime.dayMilliseconds
        case .week:
            let days = TweetTime.floorDivide(milliseconds, TweetTime.dayMilliseconds)
            // 1970-01-01 was a Thursday: three days after a Monday.
            let sinceMonday = (days + 3) - TweetTime.floorDivide(days + 3, 7) * 7
            return (days - sinceMonday) * TweetTime.dayMilliseconds
        case .month:
            var date = TweetTime.civil(fromDays: TweetTime.floorDivide(milliseconds, TweetTime.dayMilliseconds))
            date.day = 1
            return TweetTime.days(from: date) * TweetTime.dayMilliseconds
        case .year:
            var date = TweetTime.civil(fromDays: TweetTime.floorDivide(milliseconds, TweetTime.dayMilliseconds))
            date.month = 1
            date.day = 1
            return TweetTime.days(from: date) * TweetTime.dayMilliseconds
        }
    }

    /// The start of the bucket after the one starting at `start`.
    public func bucketEnd(after start: Int64) -> Int64 {
        switch self {
        case .minute: return start + 60_000
        case .hour: return start + 3_600_000
        case .day: return start + TweetTime.dayMilliseconds
        case .week: return start + 7 * TweetTime.dayMilliseconds
        case .month:
            var date = TweetTime.civil(fromDays: TweetTime.floorDivide(start, TweetTime.dayMilliseconds))
            date.month += 1
            if date.month > 12 {
                date.month = 1
                date.year += 1
            }
            date.day = 1
            return TweetTime.days(from: date) * TweetTime.dayMilliseconds
        case .year:
            var date = TweetTime.civil(fromDays: TweetTime.floorDivide(start, TweetTime.dayMilliseconds))
            date.year += 1
            date.month = 1
            date.day = 1
            return TweetTime.days(from: date) * TweetTime.dayMilliseconds
        }
    }

    /// A short label for the bucket starting at `start`, in UTC: `2024-03-10 14:05`, `2024-03-10 14h`,
    /// `2024-03-10`, `2024-03-04` (a week, by its Monday), `2024-03` or `2024`.
    public func label(_ start: Int64) -> String {
        let days = TweetTime.floorDivide(start, TweetTime.dayMilliseconds)
        let date = TweetTime.civil(fromDays: days)
        let inDay = start - days * TweetTime.dayMilliseconds
        let hour = Int(inDay / 3_600_000)
        let minute = Int(inDay % 3_600_000 / 60_000)
        let ymd = "\(Self.pad(date.year, 4))-\(Self.pad(date.month, 2))-\(Self.pad(date.day, 2))"
        switch self {
        case .minute: return "\(ymd) \(Self.pad(hour, 2)):\(Self.pad(minute, 2))"
        case .hour: return "\(ymd) \(Self.pad(hour, 2))h"
        case .day, .week: return ymd
        case .month: return "\(Self.pad(date.year, 4))-\(Self.pad(date.month, 2))"
        case .year: return Self.pad(date.year, 4)
        }
    }

    /// The ISO 8601 UTC form of a time (`2024-03-10T14:05:00.000Z`), as the API's counts carry it.
    public static func iso8601(_ milliseconds: Int64) -> String {
        let days = TweetTime.floorDivide(milliseconds, TweetTime.dayMilliseconds)
        let date = TweetTime.civil(fromDays: days)
        let inDay = milliseconds - days * TweetTime.dayMilliseconds
        let parts = [inDay / 3_600_000, inDay % 3_600_000 / 60_000, inDay % 60_000 / 1_000].map { pad(Int($0), 2) }
        return "\(pad(date.year, 4))-\(pad(date.month, 2))-\(pad(date.day, 2))T\(parts.joined(separator: ":"))."
            + "\(pad(Int(inDay % 1_000), 3))Z"
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(abs(value))
        let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
        return value < 0 ? "-" + padded : padded
    }
}
