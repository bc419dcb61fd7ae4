import Foundation

/// Short ages for the result list ("now", "42s", "7m", "3h", "5d", "Mar 4", "Mar 4 2024") and local times for `show`.
public enum RelativeTime {
    /// The age of `date` at `now`, in at most 6 columns: `Mar 14` this year, `Oct'22` before.
    public static func short(_ date: Date?, now: Date, calendar: Calendar = .current) -> String {
        guard let date else { return "?" }
        let interval = now.timeIntervalSince(date)
        // `Int(_:)` traps past its range; no date a file can give comes near, but a row is never worth a crash.
        guard interval.magnitude < 1e15 else { return "?" }
        let seconds = Int(interval)
        // A minute ahead is clock skew, and reads as "now"; further ahead, the date itself: a file that says 9999 is
        // not a tweet of this moment.
        if seconds < 10 && seconds > -60 { return "now" }
        if seconds >= 0 {
            if seconds < 60 { return "\(seconds)s" }
            if seconds < 3600 { return "\(seconds / 60)m" }
            if seconds < 86_400 { return "\(seconds / 3600)h" }
            if seconds < 7 * 86_400 { return "\(seconds / 86_400)d" }
        }
        let month = monthNames[calendar.component(.month, from: date) - 1]
        let day = calendar.component(.day, from: date)
        let year = calendar.component(.year, from: date)
        if year == calendar.component(.year, from: now) { return "\(month) \(day)" }
        let twoDigitYear = year % 100
        return "\(month)'\(twoDigitYear < 10 ? "0" : "")\(twoDigitYear)"
    }

    /// A full local timestamp, `2024-03-04 14:05 +0100`, for `show`.
    public static func local(_ date: Date?, timeZone: TimeZone = .current) -> String {
        guard let date else { return "unknown time" }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let offset = timeZone.secondsFromGMT(for: date) / 60
        let sign = offset < 0 ? "-" : "+"
        func two(_ n: Int?) -> String {
            let v = n ?? 0
            return v < 10 ? "0\(v)" : "\(v)"
        }
        return
            "\(c.year ?? 0)-\(two(c.month))-\(two(c.day)) \(two(c.hour)):\(two(c.minute)) \(sign)\(two(abs(offset) / 60))\(two(abs(offset) % 60))"
    }

    /// "4 min ago" style ages for cache notes.
    public static func ago(_ date: Date, now: Date) -> String {
        let seconds = max(0, Int(now.timeIntervalSince(date)))
        if seconds < 60 { return "\(seconds) s ago" }
        if seconds < 3600 { return "\(seconds / 60) min ago" }
        if seconds < 86_400 { return "\(seconds / 3600) h ago" }
        return "\(seconds / 86_400) d ago"
    }

    private static let monthNames = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
}
