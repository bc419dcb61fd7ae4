import Foundation

/// Parses and prints the two timestamp formats tweets carry, without `DateFormatter`, which is slow and not
/// thread-safe to share; imports parse millions of these.
public enum TwitterDate {
    /// Parses API v2's RFC 3339 form, `2021-11-15T18:00:00.000Z` (fraction optional, `Z` or a `±hh:mm` offset).
    public static func parseISO8601(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { bytes -> Date? in
            guard bytes.count >= 19 else { return nil }
            func number(_ start: Int, _ count: Int) -> Int? {
                var value = 0
                for index in start..<(start + count) {
                    let byte = bytes[index]
                    guard byte >= 48 && byte <= 57 else { return nil }
                    value = value * 10 + Int(byte - 48)
                }
                return value
            }
            guard let year = number(0, 4), bytes[4] == UInt8(ascii: "-"), let month = number(5, 2),
                bytes[7] == UInt8(ascii: "-"),
                let day = number(8, 2), bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " "),
                let hour = number(11, 2), bytes[13] == UInt8(ascii: ":"), let minute = number(14, 2),
                bytes[16] == UInt8(ascii: ":"), let second = number(17, 2)
            else { return nil }
            var index = 19
            // Fractions are kept as an integer count of units so that a millisecond time reads back as exactly
            // the Date it was written from (`Double(ms) / 1000`).
            var fractionValue: Int64 = 0
            var fractionScale: Int64 = 1
            if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
                index += 1
                while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                    if fractionScale < 1_000_000_000 {
                        fractionValue = fractionValue * 10 + Int64(bytes[index] - 48)
                        fractionScale *= 10
                    }
                    index += 1
                }
            }
            var offsetSeconds = 0
            if index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "Z"), UInt8(ascii: "z"):
                    index += 1
                case UInt8(ascii: "+"), UInt8(ascii: "-"):
                    guard index + 6 <= bytes.count, let hours = number(index + 1, 2),
                        bytes[index + 3] == UInt8(ascii: ":"),
                        let minutes = number(index + 4, 2)
                    else { return nil }
                    offsetSeconds = (hours * 3600 + minutes * 60) * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
                    index += 6
                default:
                    return nil
                }
            }
            guard index == bytes.count else { return nil }
            guard
                let seconds = epochSeconds(
                    year: year, month: month, day: day, hour: hour, minute: minute, second: second)
            else { return nil }
            let whole = Int64(seconds - offsetSeconds)
            // Nanoseconds overflow Int64 before 1678 and after 2262; such dates are read through Double instead.
            let (scaled, overflow) = whole.multipliedReportingOverflow(by: fractionScale)
            if overflow || scaled.addingReportingOverflow(fractionValue).overflow {
                return Date(timeIntervalSince1970: Double(whole) + Double(fractionValue) / Double(fractionScale))
            }
            return Date(timeIntervalSince1970: Double(scaled + fractionValue) / Double(fractionScale))
        }
    }

    /// Parses v1.1's and the archive's form, `Fri Jul 12 23:40:37 +0000 2019`.
    public static func parseClassic(_ text: String) -> Date? {
        let fields = text.split(separator: " ")
        guard fields.count == 6, let month = months.firstIndex(of: String(fields[1])), let day = Int(fields[2]),
            let year = Int(fields[5])
        else { return nil }
        let clock = fields[3].split(separator: ":")
        guard clock.count == 3, let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]) else {
            return nil
        }
        let zone = fields[4]
        guard zone.count == 5, let sign = zone.first, sign == "+" || sign == "-",
            let zoneHours = Int(zone.dropFirst().prefix(2)), let zoneMinutes = Int(zone.suffix(2))
        else { return nil }
        let offset = (zoneHours * 3600 + zoneMinutes * 60) * (sign == "-" ? -1 : 1)
        guard
            let seconds = epochSeconds(
                year: year, month: month + 1, day: day, hour: hour, minute: minute, second: second)
        else { return nil }
        return Date(timeIntervalSince1970: Double(seconds - offset))
    }

    /// Parses either format.
    public static func parse(_ text: String) -> Date? {
        parseISO8601(text) ?? parseClassic(text)
    }

    /// Prints API v2's form with milliseconds, `2021-11-15T18:00:00.000Z`, as exports need it.
    public static func formatISO8601(_ date: Date) -> String {
        let f = utcFields(date)
        func pad(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        }
        return "\(pad(f.year, 4))-\(pad(f.month, 2))-\(pad(f.day, 2))T\(pad(f.hour, 2)):\(pad(f.minute, 2))"
            + ":\(pad(f.second, 2)).\(pad(f.millisecond, 3))Z"
    }

    /// The UTC calendar fields of a date, to the millisecond (rounded).
    static func utcFields(_ date: Date)
        -> (year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64, millisecond: Int64)
    {
        // Clamped to years 1...9999 so that any Date prints (and never traps converting to Int64).
        let interval =
            date.timeIntervalSince1970.isNaN
            ? 0 : min(max(date.timeIntervalSince1970, -62_135_596_800), 253_402_300_799)
        let totalMilliseconds = Int64((interval * 1000).rounded())
        var seconds = totalMilliseconds / 1000
        var milliseconds = totalMilliseconds % 1000
        if milliseconds < 0 {
            milliseconds += 1000
            seconds -= 1
        }
        var days = seconds / 86400
        var secondOfDay = seconds % 86400
        if secondOfDay < 0 {
            secondOfDay += 86400
            days -= 1
        }
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        return (year, month, day, secondOfDay / 3600, secondOfDay % 3600 / 60, secondOfDay % 60, milliseconds)
    }

    /// Prints v1.1's form, `Fri Jul 12 23:40:37 +0000 2019`.
    public static func formatClassic(_ date: Date) -> String {
        let interval =
            date.timeIntervalSince1970.isNaN
            ? 0 : min(max(date.timeIntervalSince1970, -62_135_596_800), 253_402_300_799)
        let seconds = Int64(interval.rounded(.down))
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let secondOfDay = seconds - days * 86400
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        let weekday = weekdays[Int(((days % 7) + 11) % 7)]
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(weekday) \(months[Int(month) - 1]) \(two(day)) \(two(secondOfDay / 3600)):\(two(secondOfDay % 3600 / 60))"
            + ":\(two(secondOfDay % 60)) +0000 \(year)"
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// Seconds since 1970 for a UTC civil time (Howard Hinnant's days-from-civil), nil for impossible fields.
    static func epochSeconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int? {
        // Years outside 1...9999 cannot be printed back in either format, and huge ones would overflow.
        guard (1...9999).contains(year), (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour),
            (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146097 + dayOfEra - 719468
        return days * 86400 + hour * 3600 + minute * 60 + second
    }

    /// The UTC civil date of a day count since 1970 (Hinnant's civil-from-days).
    static func civilDate(daysSinceEpoch: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = daysSinceEpoch + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let dayOfEra = z - era * 146097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
