/// Pull-style reading for the hot decoding path: walk an object's members and consume each value directly into a
/// model, without building a `JSONValue` tree, without making `String`s of keys, and skipping unknown values.
extension JSONParser.Scanner {
    /// A member name as the bytes between its quotes (names with escapes are decoded into `decoded`).
    struct Key {
        let bytes: UnsafeBufferPointer<UInt8>
        let decoded: [UInt8]?

        @inline(__always)
        static func == (key: Key, name: StaticString) -> Bool {
            let count = name.utf8CodeUnitCount
            if let decoded = key.decoded {
                return decoded.count == count
                    && decoded.withUnsafeBufferPointer { memEqual($0.baseAddress!, name.utf8Start, count) }
            }
            return key.bytes.count == count && (count == 0 || memEqual(key.bytes.baseAddress!, name.utf8Start, count))
        }

        @inline(__always)
        private static func memEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
            for offset in 0..<count where a[offset] != b[offset] { return false }
            return true
        }
    }

    @inline(__always)
    func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    /// Calls `body` for each member of the object at the current position; `body` must consume the value.
    mutating func members(_ body: (inout Self, Key) throws -> Void) throws {
        skipWhitespace()
        guard peek() == UInt8(ascii: "{") else { throw error("expected an object") }
        index += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            let key = try keyBytes()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            try body(&self, key)
            skipWhitespace()
            guard let byte = peek() else { throw error("object not closed") }
            index += 1
            if byte == UInt8(ascii: ",") { continue }
            if byte == UInt8(ascii: "}") { return }
            throw error("expected ',' or '}'")
        }
    }

    /// Calls `body` for each element of the array at the current position; `body` must consume the element.
    mutating func elements(_ body: (inout Self) throws -> Void) throws {
        skipWhitespace()
        guard peek() == UInt8(ascii: "[") else { throw error("expected an array") }
        index += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            try body(&self)
            skipWhitespace()
            guard let byte = peek() else { throw error("array not closed") }
            index += 1
            if byte == UInt8(ascii: ",") { continue }
            if byte == UInt8(ascii: "]") { return }
            throw error("expected ',' or ']'")
        }
    }

    private mutating func keyBytes() throws -> Key {
        guard peek() == UInt8(ascii: "\"") else { throw error("expected a member name") }
        let start = index + 1
        var cursor = start
        while cursor < bytes.count {
            let byte = bytes[cursor]
            if byte == UInt8(ascii: "\"") {
                index = cursor + 1
                return Key(bytes: UnsafeBufferPointer(rebasing: bytes[start..<cursor]), decoded: nil)
            }
            if byte == UInt8(ascii: "\\") { break }
            cursor += 1
        }
        let decoded = Array(try string().utf8)
        return Key(bytes: UnsafeBufferPointer(start: nil, count: 0), decoded: decoded)
    }

    /// True (and consumed) when the value here is `null`.
    mutating func consumeNull() throws -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    /// A string value; nil (consumed) for `null` or any other kind of value.
    mutating func readString() throws -> String? {
        if peek() == UInt8(ascii: "\"") { return try string() }
        try skipValue()
        return nil
    }

    /// A snowflake id from a decimal string or a non-negative integer, read from the bytes without a `String`.
    mutating func readID() throws -> SnowflakeID? {
        guard let byte = peek() else { throw error("expected a value") }
        if byte == UInt8(ascii: "\"") {
            var cursor = index + 1
            var value: UInt64 = 0
            var digits = 0
            while cursor < bytes.count, bytes[cursor] >= 48, bytes[cursor] <= 57 {
                let (times, overflowA) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflowB) = times.addingReportingOverflow(UInt64(bytes[cursor] - 48))
                if overflowA || overflowB { break }
                value = sum
                digits += 1
                cursor += 1
            }
            if digits > 0, cursor < bytes.count, bytes[cursor] == UInt8(ascii: "\"") {
                index = cursor + 1
                return SnowflakeID(value)
            }
            _ = try string()
            return nil
        }
        if case .int(let number) = try value(depth: 0), number >= 0 { return SnowflakeID(UInt64(number)) }
        return nil
    }

    /// The id of the object at the current position when its first member is `"id"` with a decimal string value, as
    /// the API writes every object; nil for any other start. It only looks: the position does not move.
    func leadingID() -> UInt64? {
        var cursor = index
        func skipSpace() {
            while cursor < bytes.count, Self.isWhitespace(bytes[cursor]) { cursor += 1 }
        }
        func expect(_ byte: UInt8) -> Bool {
            skipSpace()
            guard cursor < bytes.count, bytes[cursor] == byte else { return false }
            cursor += 1
            return true
        }
        guard expect(UInt8(ascii: "{")), expect(UInt8(ascii: "\"")), cursor + 3 <= bytes.count,
            bytes[cursor] == UInt8(ascii: "i"), bytes[cursor + 1] == UInt8(ascii: "d"),
            bytes[cursor + 2] == UInt8(ascii: "\"")
        else { return nil }
        cursor += 3
        guard expect(UInt8(ascii: ":")), expect(UInt8(ascii: "\"")) else { return nil }
        var value: UInt64 = 0
        var digits = 0
        while cursor < bytes.count, bytes[cursor] >= 48, bytes[cursor] <= 57 {
            let (times, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = times.addingReportingOverflow(UInt64(bytes[cursor] - 48))
            if overflowA || overflowB { return nil }
            value = sum
            digits += 1
            cursor += 1
        }
        guard digits > 0, cursor < bytes.count, bytes[cursor] == UInt8(ascii: "\"") else { return nil }
        return value
    }

    /// An integer from a number or a numeric string, as `JSONValue.int` reads it.
    mutating func readInt() throws -> Int? {
        try value(depth: 0).int
    }

    /// A boolean from `true`/`false` or their quoted forms.
    mutating func readBool() throws -> Bool? {
        switch peek() {
        case UInt8(ascii: "t"):
            try literal("true")
            return true
        case UInt8(ascii: "f"):
            try literal("false")
            return false
        default: return try value(depth: 0).bool
        }
    }

    /// Skips any value without building it, checking its syntax as strictly as the tree parser does.
    mutating func skipValue(depth: Int = 0) throws {
        guard depth <= JSONParser.maximumDepth else {
            throw error("nesting deeper than \(JSONParser.maximumDepth) levels")
        }
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: "{")?:
            try members { scanner, _ in try scanner.skipValue(depth: depth + 1) }
        case UInt8(ascii: "[")?:
            try elements { scanner in try scanner.skipValue(depth: depth + 1) }
        case UInt8(ascii: "\"")?:
            let start = index
            index += 1
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return
                }
                // Escapes and errors go through the full string reader, which checks and reports them.
                if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                index += 1
            }
            index = start
            _ = try string()
        default:
            _ = try value(depth: depth)
        }
    }
}
