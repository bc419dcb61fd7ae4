import Foundation

/// When a tweet was posted, read from its id where the id says it, and UTC calendar arithmetic on milliseconds.
///
/// Since 2010-11-04 tweet ids are snowflakes: the bits above the low 22 hold the milliseconds since
/// 2010-11-04T01:42:54.657Z. Counting by time can therefore bucket the ids an index returns without reading rows.
/// Ids from before snowflakes were sequential (the last ones were about 29.7 billion), so their bits say nothing about
/// time and the stored `created_at` is used instead.
public enum TweetTime {
    /// Twitter's snowflake epoch, 2010-11-04T01:42:54.657Z, in milliseconds since 1970.
    public static let snowflakeEpochMilliseconds: Int64 = 1_288_834_974_657
    /// Ids below this are sequential ids from before snowflakes. It sits above the last sequential id (about
    /// 29.7 billion); a snowflake this small would have been made in the first 7.2 seconds after the epoch.
    public static let firstSnowflakeID: UInt64 = 30_000_000_000
    /// Milliseconds in a day.
    public static let dayMilliseconds: Int64 = 86_400_000

    /// Whether the id is a snowflake, whose bits carry its creation time.
    public static func isSnowflake(_ id: TweetID) -> Bool { id.rawValue >= firstSnowflakeID }

    /// The creation time a snowflake id carries, in milliseconds since 1970 (UTC); nil for a pre-snowflake id.
    public static func milliseconds(fromSnowflake id: TweetID) -> Int64? {
        guard isSnowflake(id) else { return nil }
        return Int64(id.rawValue >> 22) + snowflakeEpochMilliseconds
    }

    /// The time to count a tweet at: its id's time for a snowflake, otherwise the stored time; nil when neither says.
    public static func milliseconds(of id: TweetID, stored: Date?) -> Int64? {
        if let time = milliseconds(fromSnowflake: id) { return time }
        return stored.map { Int64(($0.timeIntervalSince1970 * 1000).rounded(.down)) }
    }

    /// The smallest snowflake id made at or after `milliseconds` (for turning a time bound into an id bound).
    public static func firstID(atOrAfter milliseconds: Int64) -> TweetID {
        let offset = max(0, milliseconds - snowflakeEpochMilliseconds)
        return TweetID(UInt64(offset) << 22)
    }

    /// A civil date in the proleptic Gregorian calendar.
    public struct CivilDate: Equatable, Sendable {
        /// The year.
        public var year: Int
        /// The month, 1…12.
        public var month: Int
        /// The day of the month, 1…31.
        public var day: Int

        /// Creates a date.
        public init(year: Int, month: Int, day: Int) {
            self.year = year
            self.month = month
            self.day = day
        }
    }

    /// Days since 1970-01-01 of a civil date. Counts in 400-year eras of 146,097 days, with years starting in March
    /// so the leap day is the last day of its year.
    public static func days(from date: CivilDate) -> Int64 {
        let year = Int64(date.month <= 2 ? date.year - 1 : date.year)
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let monthFromMarch = Int64(date.month > 2 ? date.month - 3 : date.month + 9)
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + Int64(date.day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The civil date of a count of days since 1970-01-01 (the inverse of `days(from:)`).
    public static func civil(fromDays days: Int64) -> CivilDate {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return CivilDate(year: Int(year), month: Int(month), day: Int(day))
    }

    /// Floor division, so times before 1970 fall into the bucket below them.
    static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
