import Foundation

/// Appends JSON text to a byte buffer.
///
/// Exports and the demo generator write millions of tweets, so this writes bytes directly instead of building
/// dictionaries for `JSONSerialization`. Callers are responsible for well-formed nesting; `comma()` tracking is
/// explicit to keep the hot path branch-light.
public struct JSONWriter {
    /// The text written so far, UTF-8.
    public var bytes: [UInt8]

    /// Creates a writer with room for `capacity` bytes.
    public init(capacity: Int = 4096) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    @inline(__always) mutating func raw(_ byte: UInt8) { bytes.append(byte) }

    @inline(__always) mutating func raw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Writes `"key":` — keys are always plain ASCII here, so they need no escaping.
    @inline(__always) mutating func key(_ name: StaticString) {
        raw(UInt8(ascii: "\""))
        raw(name)
        raw("\":")
    }

    /// Writes a JSON string literal, escaping what JSON requires; other characters stay raw UTF-8.
    mutating func string(_ text: String) {
        var text = text
        raw(UInt8(ascii: "\""))
        text.withUTF8 { utf8 in
            var runStart = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                switch byte {
                case UInt8(ascii: "\""): raw("\\\"")
                case UInt8(ascii: "\\"): raw("\\\\")
                case 0x0A: raw("\\n")
                case 0x0D: raw("\\r")
                case 0x09: raw("\\t")
                default:
                    raw("\\u00")
                    raw(JSONWriter.hexDigits[Int(byte >> 4)])
                    raw(JSONWriter.hexDigits[Int(byte & 0xF)])
                }
                runStart = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        }
        raw(UInt8(ascii: "\""))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Writes an unsigned integer's digits.
    mutating func digits(_ value: UInt64) {
        if value < 10 {
            raw(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &buffer) { scratch in
            var position = scratch.count
            var remaining = value
            while remaining > 0 {
                position -= 1
                scratch[position] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[position...]))
        }
    }

    /// Writes an integer.
    mutating func int(_ value: Int) {
        if value < 0 {
            raw(UInt8(ascii: "-"))
            digits(value.magnitude.toUInt64)
        } else {
            digits(UInt64(value))
        }
    }

    /// Writes an id as the API does: a quoted decimal string.
    mutating func id(_ value: SnowflakeID) {
        raw(UInt8(ascii: "\""))
        digits(value.rawValue)
        raw(UInt8(ascii: "\""))
    }

    mutating func bool(_ value: Bool) { value ? raw("true") : raw("false") }

    mutating func date(_ value: Date) { string(TwitterDate.formatISO8601(value)) }
}

private extension UInt {
    var toUInt64: UInt64 { UInt64(self) }
}
