/// A compact byte encoding for what the store keeps beside its columns (entities, references, cached page ids):
/// LEB128 varints and length-prefixed UTF-8, with 0 reserved for "absent" so optionals cost one byte.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func int(_ value: Int) {
        // Zig-zag, so the occasional negative number (a malformed count) still round-trips.
        varint(UInt64(bitPattern: Int64((value << 1) ^ (value >> 63))))
    }

    mutating func optionalInt(_ value: Int?) {
        if let value {
            varint(1)
            int(value)
        } else {
            varint(0)
        }
    }

    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            varint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    mutating func optionalString(_ value: String?) {
        if let value {
            varint(1)
            string(value)
        } else {
            varint(0)
        }
    }

    mutating func optionalID(_ value: SnowflakeValue?) {
        if let value { varint(value &+ 1) } else { varint(0) }
    }

    mutating func byte(_ value: UInt8) { bytes.append(value) }
}

typealias SnowflakeValue = UInt64

/// Reads what `ByteWriter` wrote; any truncation or nonsense throws instead of trapping.
struct ByteReader {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index >= bytes.count }

    mutating func varint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard index < bytes.count, shift < 64 else { throw StoreError(message: "damaged record in the store") }
            let byte = bytes[index]
            index += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
    }

    /// A element count, refused when it could not possibly fit in the bytes left (so damage cannot ask for huge arrays).
    mutating func count() throws -> Int {
        let value = try varint()
        guard value <= UInt64(bytes.count - index) else { throw StoreError(message: "damaged record in the store") }
        return Int(value)
    }

    mutating func int() throws -> Int {
        let raw = try varint()
        return Int(Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1))))
    }

    mutating func optionalInt() throws -> Int? {
        try varint() == 0 ? nil : try int()
    }

    mutating func string() throws -> String {
        let count = try varint()
        guard count <= UInt64(bytes.count - index) else { throw StoreError(message: "damaged record in the store") }
        let end = index + Int(count)
        defer { index = end }
        return String(decoding: bytes[index..<end], as: UTF8.self)
    }

    mutating func optionalString() throws -> String? {
        try varint() == 0 ? nil : try string()
    }

    /// Steps over a string without making one.
    mutating func skipString() throws {
        let count = try varint()
        guard count <= UInt64(bytes.count - index) else { throw StoreError(message: "damaged record in the store") }
        index += Int(count)
    }

    /// Steps over an optional string without making one.
    mutating func skipOptionalString() throws {
        if try varint() != 0 { try skipString() }
    }

    mutating func optionalID() throws -> SnowflakeValue? {
        let raw = try varint()
        return raw == 0 ? nil : raw - 1
    }

    mutating func byte() throws -> UInt8 {
        guard index < bytes.count else { throw StoreError(message: "damaged record in the store") }
        defer { index += 1 }
        return bytes[index]
    }
}
