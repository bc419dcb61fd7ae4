import CLibPQ

/// A parameter bound to a statement: sent beside the SQL, never spliced into it.
package enum PGValue: Hashable, Sendable {
    /// SQL NULL.
    case null
    /// Text, sent as UTF-8.
    case text(String)
    /// An integer, sent in its decimal form (the server casts it to the column's type).
    case integer(Int64)
    /// Bytes for a `bytea`, sent in binary.
    case bytes([UInt8])

    /// An optional value, NULL when absent.
    package static func optional(_ text: String?) -> PGValue { text.map(PGValue.text) ?? .null }

    /// An optional integer, NULL when absent.
    package static func optional(_ value: Int64?) -> PGValue { value.map(PGValue.integer) ?? .null }
}

/// One row of a result, valid only inside the closure that receives it (the result is cleared after).
package struct PGRow {
    let result: OpaquePointer
    let index: Int32

    /// Whether the column holds NULL.
    package func isNull(_ column: Int32) -> Bool { PQgetisnull(result, index, column) == 1 }

    /// The column as text ("" for NULL).
    package func text(_ column: Int32) -> String {
        guard let value = PQgetvalue(result, index, column) else { return "" }
        return String(cString: value)
    }

    /// The column as text, nil for NULL.
    package func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }

    /// The column as an integer (0 for NULL or text that is no integer).
    package func int64(_ column: Int32) -> Int64 { Int64(text(column)) ?? 0 }

    /// The column as an integer, nil for NULL.
    package func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : Int64(text(column)) }

    /// The column as a Double (0 for NULL).
    package func double(_ column: Int32) -> Double { Double(text(column)) ?? 0 }

    /// A `bytea` column, which the text format sends as `\x` and hex digits; empty for NULL.
    package func bytes(_ column: Int32) -> [UInt8] {
        guard !isNull(column), let value = PQgetvalue(result, index, column) else { return [] }
        let length = Int(PQgetlength(result, index, column))
        return value.withMemoryRebound(to: UInt8.self, capacity: length) { pointer in
            let raw = UnsafeBufferPointer(start: pointer, count: length)
            guard length >= 2, raw[0] == UInt8(ascii: "\\"), raw[1] == UInt8(ascii: "x") else { return Array(raw) }
            var bytes: [UInt8] = []
            bytes.reserveCapacity((length - 2) / 2)
            var index = 2
            while index + 1 < length {
                bytes.append(Self.nibble(raw[index]) << 4 | Self.nibble(raw[index + 1]))
                index += 2
            }
            return bytes
        }
    }

    private static func nibble(_ digit: UInt8) -> UInt8 {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return 0
        }
    }
}
