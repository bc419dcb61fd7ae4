/// An X object identifier (tweet, user, conversation): a 64-bit snowflake.
///
/// The API sends ids as decimal strings because they overflow JavaScript numbers; we keep them numeric so that
/// ordering by id is ordering by time, which the store relies on for recency order and keyset paging.
public struct SnowflakeID: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// The numeric value.
    public let rawValue: UInt64

    /// Wraps a numeric id.
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    /// Wraps a numeric literal, for tests and fixtures.
    public init(integerLiteral value: UInt64) { self.rawValue = value }

    /// Parses the API's decimal string form (`^[0-9]{1,19}$` in the contract); nil for anything else.
    public init?(_ string: some StringProtocol) {
        // One pass over the bytes: ids are parsed millions of times during an import.
        var value: UInt64 = 0
        var count = 0
        for byte in string.utf8 {
            guard byte >= 48 && byte <= 57 else { return nil }
            let (times, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = times.addingReportingOverflow(UInt64(byte - 48))
            guard !overflowA && !overflowB else { return nil }
            value = sum
            count += 1
        }
        guard count > 0 else { return nil }
        self.rawValue = value
    }

    /// The decimal string form the API uses.
    public var description: String { String(rawValue) }

    /// Numeric order, which for snowflakes is creation order.
    public static func < (lhs: SnowflakeID, rhs: SnowflakeID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A tweet's id.
public typealias TweetID = SnowflakeID
/// A user's id.
public typealias UserID = SnowflakeID
