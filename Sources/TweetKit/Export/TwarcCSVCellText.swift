/// How twarc-csv turns one value into the text of a CSV cell.
///
/// twarc-csv builds a pandas DataFrame and writes it with `to_csv`, so its cells are Python's renderings: `True`
/// and `False` for booleans, `repr` for floats, and lists through `json.dumps` with its defaults (`", "` and `": "`
/// separators, every character outside printable ASCII escaped as `\uXXXX`). Strings lose their carriage returns and
/// show newlines as the two characters `\n`, so a row is always one line. This reproduces those renderings from a
/// `JSONValue`, which keeps what Python's `json.loads` would have distinguished (integers apart from floats, member
/// order).
enum TwarcCSVCellText {
    /// The text of the cell holding `value`; an empty string for a missing value or `null` (pandas' NaN).
    static func cell(_ value: JSONValue?) -> String {
        guard let value else { return "" }
        switch value {
        case .null: return ""
        case .bool(let flag): return flag ? "True" : "False"
        case .int(let number): return String(number)
        case .bigInteger(let digits): return digits
        case .double(let number): return pythonRepr(number)
        case .string(let text): return oneLine(text)
        case .array:
            var text = ""
            pythonJSON(value, into: &text)
            return text
        // A non-empty object never reaches a cell: it is spread over dotted columns. An empty one has no column.
        case .object: return ""
        }
    }

    /// A string cell: carriage returns dropped, each newline written as a backslash and an `n`.
    static func oneLine(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\r": continue
            case "\n":
                result.append("\\")
                result.append("n")
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// `value` as Python's `json.dumps(value)` writes it.
    static func pythonJSON(_ value: JSONValue, into text: inout String) {
        switch value {
        case .null: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .int(let number): text += String(number)
        case .bigInteger(let digits): text += digits
        case .double(let number): text += pythonRepr(number)
        case .string(let string): asciiQuoted(string, into: &text)
        case .array(let items):
            text += "["
            for (position, item) in items.enumerated() {
                if position > 0 { text += ", " }
                pythonJSON(item, into: &text)
            }
            text += "]"
        case .object(let object):
            text += "{"
            for (position, member) in object.members.enumerated() {
                if position > 0 { text += ", " }
                asciiQuoted(member.key, into: &text)
                text += ": "
                pythonJSON(member.value, into: &text)
            }
            text += "}"
        }
    }

    /// A JSON string literal with `ensure_ascii`: only printable ASCII stays raw; the rest becomes short escapes or
    /// lowercase `\uXXXX`, characters beyond the BMP as a surrogate pair.
    static func asciiQuoted(_ string: String, into text: inout String) {
        // Most strings in a tweet (ids, URLs, tags) need no escape at all.
        if string.utf8.allSatisfy({ (0x20...0x7E).contains($0) && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        ) {
            text += "\""
            text += string
            text += "\""
            return
        }
        var scalars = String.UnicodeScalarView()
        scalars.append("\"")
        func append(_ ascii: String) { scalars.append(contentsOf: ascii.unicodeScalars) }
        func appendUnit(_ unit: UInt32) {
            append("\\u")
            for shift in stride(from: 12, through: 0, by: -4) {
                scalars.append(hexDigits[Int((unit >> UInt32(shift)) & 0xF)])
            }
        }
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": append("\\\"")
            case "\\": append("\\\\")
            case "\n": append("\\n")
            case "\r": append("\\r")
            case "\t": append("\\t")
            case "\u{08}": append("\\b")
            case "\u{0C}": append("\\f")
            case " "..."~": scalars.append(scalar)
            default:
                let value = scalar.value
                if value < 0x10000 {
                    appendUnit(value)
                } else {
                    let offset = value - 0x10000
                    appendUnit(0xD800 + (offset >> 10))
                    appendUnit(0xDC00 + (offset & 0x3FF))
                }
            }
        }
        scalars.append("\"")
        text += String(scalars)
    }

    private static let hexDigits: [Unicode.Scalar] = Array("0123456789abcdef".unicodeScalars)

    /// Python's `repr` of a float: the shortest digits that read back as the same double (Swift's `description`
    /// finds the same ones), positional from 1e-4 up to 1e16 with at least one fractional digit, otherwise
    /// `d.ddde±XX`.
    static func pythonRepr(_ number: Double) -> String {
        guard number.isFinite else { return number.isNaN ? "nan" : (number < 0 ? "-inf" : "inf") }
        var text = number.description
        let negative = text.hasPrefix("-")
        if negative { text.removeFirst() }
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: e)...]) ?? 0
            text = String(text[..<e])
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let whole = parts.first.map(String.init) ?? ""
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        var digits = Array(whole + fraction)
        // The value is 0.d1d2d3… × 10^point.
        var point = whole.count + exponent
        while digits.first == "0" {
            digits.removeFirst()
            point -= 1
        }
        while digits.last == "0" { digits.removeLast() }
        let sign = negative ? "-" : ""
        guard !digits.isEmpty else { return sign + "0.0" }
        if point > -4 && point <= 16 {
            if point <= 0 { return sign + "0." + String(repeating: "0", count: -point) + String(digits) }
            if point >= digits.count {
                return sign + String(digits) + String(repeating: "0", count: point - digits.count) + ".0"
            }
            return sign + String(digits[..<point]) + "." + String(digits[point...])
        }
        let mantissa = digits.count > 1 ? "\(digits[0])." + String(digits[1...]) : String(digits[0])
        let power = point - 1
        let magnitude = abs(power) < 10 ? "0\(abs(power))" : "\(abs(power))"
        return sign + mantissa + "e" + (power < 0 ? "-" : "+") + magnitude
    }

    /// Appends one cell as Python's csv module writes it with minimal quoting: quoted when it holds a comma, a
    /// quote or a line break, inner quotes doubled.
    static func appendCSVField(_ field: String, to writer: inout JSONWriter) {
        var field = field
        field.withUTF8 { bytes in
            let needsQuotes = bytes.contains {
                $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D
            }
            guard needsQuotes else {
                writer.append(bytes)
                return
            }
            writer.raw("\"")
            var runStart = 0
            for index in 0..<bytes.count where bytes[index] == UInt8(ascii: "\"") {
                // Write through the quote, then let the next run start with it again: the quote is doubled.
                writer.append(UnsafeBufferPointer(rebasing: bytes[runStart...index]))
                runStart = index
            }
            writer.append(UnsafeBufferPointer(rebasing: bytes[runStart...]))
            writer.raw("\"")
        }
    }
}
