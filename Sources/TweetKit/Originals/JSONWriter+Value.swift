import Foundation

extension JSONWriter {
    /// Writes a parsed value back as compact JSON, members in their document order.
    ///
    /// Integers come back digit for digit; other numbers in Swift's shortest form that reads back as the same double,
    /// which equals the input as a JSON value though not always byte for byte (`1.50` becomes `1.5`).
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: raw("null")
        case .bool(let flag): bool(flag)
        case .int(let number): int(Int(number))
        case .bigInteger(let digits): append(digits)
        case .double(let number):
            if number.isFinite { append(number.description) } else { raw("null") }
        case .string(let text): string(text)
        case .array(let items):
            raw("[")
            for (index, item) in items.enumerated() {
                if index > 0 { raw(",") }
                self.value(item)
            }
            raw("]")
        case .object(let object):
            raw("{")
            for (index, member) in object.members.enumerated() {
                if index > 0 { raw(",") }
                string(member.key)
                raw(":")
                self.value(member.value)
            }
            raw("}")
        }
    }

    /// Writes a kept original verbatim.
    public mutating func original(_ original: OriginalJSON) {
        original.bytes.withUnsafeBufferPointer { append($0) }
    }
}

extension OriginalJSON {
    /// The compact JSON text of a parsed value.
    public init(value: JSONValue) {
        var writer = JSONWriter(capacity: 512)
        writer.value(value)
        self.init(bytes: writer.bytes)
    }

    /// JSON text with the whitespace between tokens removed (pretty-printed documents keep their objects compact).
    init(minifying slice: UnsafeBufferPointer<UInt8>) {
        // Writes through a pointer into uninitialized storage: imports make one of these per object, and appending
        // byte by byte cost more than the copy itself.
        let bytes = [UInt8](unsafeUninitializedCapacity: slice.count) { target, count in
            var written = 0
            var inString = false
            var escaped = false
            for byte in slice {
                if inString {
                    target[written] = byte
                    written += 1
                    if escaped {
                        escaped = false
                    } else if byte == UInt8(ascii: "\\") {
                        escaped = true
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                    }
                } else if !JSONParser.Scanner.isWhitespace(byte) {
                    if byte == UInt8(ascii: "\"") { inString = true }
                    target[written] = byte
                    written += 1
                }
            }
            count = written
        }
        self.init(bytes: bytes)
    }
}
