import Foundation
import Testing

@testable import TweetShell

/// The result list's short ages: recent tweets by age, older ones by date, and a date in the future by its date
/// unless it is within a minute (clock skew), so a file that says 9999 does not show its tweet as "now".
@Suite struct RelativeTimeTests {
    static let now = Date(timeIntervalSince1970: 1_780_000_000)  // 2026-05-28 20:26:40 UTC
    static var utc: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    func short(_ secondsAgo: Double) -> String {
        RelativeTime.short(Date(timeInterval: -secondsAgo, since: Self.now), now: Self.now, calendar: Self.utc)
    }

    @Test func agesCountUpAndOlderTweetsShowTheirDate() {
        #expect(short(3) == "now")
        #expect(short(42) == "42s")
        #expect(short(7 * 60) == "7m")
        #expect(short(3 * 3600) == "3h")
        #expect(short(5 * 86_400) == "5d")
        #expect(short(30 * 86_400) == "Apr 28")
        #expect(short(400 * 86_400) == "Apr'25")
    }

    @Test func theFutureIsNowOnlyWithinAMinute() {
        #expect(short(-30) == "now", "clock skew")
        #expect(short(-2 * 3600) == "May 28")
        let far = ISO8601DateFormatter().date(from: "9999-12-31T23:59:59Z")!
        #expect(RelativeTime.short(far, now: Self.now, calendar: Self.utc) == "Dec'99")
        #expect(RelativeTime.short(Date.distantFuture, now: Self.now, calendar: Self.utc) == "Jan'01")
        #expect(RelativeTime.short(Date(timeIntervalSince1970: 1e300), now: Self.now, calendar: Self.utc) == "?")
    }
}
