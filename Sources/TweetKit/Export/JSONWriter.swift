import Foundation

/// The byte buffer exports are written into: the API v2 shapes (tweets, users, media) as JSON, and CSV rows.
///
/// Exports and the demo generator write millions of tweets, so this writes bytes directly instead of building
/// dictionaries for `JSONSerialization`. It has value semantics (copy on write); the structural writers are internal
/// and each writes a complete, well-formed value.
public struct JSONWriter {
    /// Growable bytes. `[UInt8].append(contentsOf:)` costs tens of nanoseconds per call, and a tweet is written in
    /// about a hundred small pieces, so the writer manages its own memory and copies pieces itself.
    final class Storage {
        var pointer: UnsafeMutablePointer<UInt8>
        var count = 0
        var capacity: Int

        init(capacity: Int) {
            self.capacity = Swift.max(capacity, 64)
            pointer = .allocate(capacity: self.capacity)
        }

        deinit { pointer.deallocate() }

        func copy() -> Storage {
            let clone = Storage(capacity: capacity)
            clone.pointer.update(from: pointer, count: count)
            clone.count = count
            return clone
        }
    }

    private var storage: Storage

    /// Creates a writer with room for `capacity` bytes.
    public init(capacity: Int = 4096) {
        storage = Storage(capacity: capacity)
    }

    /// The number of bytes written.
    public var count: Int { storage.count }

    /// A copy of the bytes written.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: storage.pointer, count: storage.count)) }

    /// A copy of the bytes written, as Data.
    public var data: Data { Data(bytes: storage.pointer, count: storage.count) }

    /// The bytes written, without copying, for the duration of `body`.
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: storage.pointer, count: storage.count))
    }

    /// Forgets everything written, keeping the memory for reuse.
    public mutating func removeAll() {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(capacity: storage.capacity) }
        storage.count = 0
    }

    /// Appends text verbatim (it must already be valid in the output format).
    public mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    @inline(__always) mutating func reserve(_ extra: Int) {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        let needed = storage.count + extra
        guard needed > storage.capacity else { return }
        var capacity = storage.capacity * 2
        while capacity < needed { capacity *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        grown.update(from: storage.pointer, count: storage.count)
        storage.pointer.deallocate()
        storage.pointer = grown
        storage.capacity = capacity
    }

    @inline(__always) mutating func append(_ piece: UnsafeBufferPointer<UInt8>) {
        guard let base = piece.baseAddress, piece.count > 0 else { return }
        reserve(piece.count)
        let target = storage.pointer + storage.count
        if piece.count <= 16 {
            // Most pieces are a key or a comma; a byte loop beats a call to memmove for those.
            for offset in 0..<piece.count { target[offset] = base[offset] }
        } else {
            target.update(from: base, count: piece.count)
        }
        storage.count += piece.count
    }

    @inline(__always) mutating func raw(_ byte: UInt8) {
        reserve(1)
        storage.pointer[storage.count] = byte
        storage.count += 1
    }

    @inline(__always) mutating func raw(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Writes `"key":` — keys are always plain ASCII here, so they need no escaping.
    @inline(__always) mutating func key(_ name: StaticString) {
        let count = name.utf8CodeUnitCount
        reserve(count + 3)
        let target = storage.pointer + storage.count
        target[0] = UInt8(ascii: "\"")
        let source = name.utf8Start
        for offset in 0..<count { target[1 + offset] = source[offset] }
        target[count + 1] = UInt8(ascii: "\"")
        target[count + 2] = UInt8(ascii: ":")
        storage.count += count + 3
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
                append(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
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
            append(UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
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
            append(UnsafeRawBufferPointer(rebasing: scratch[position...]).bindMemory(to: UInt8.self))
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

    /// Writes a date as API v2 does, `"2021-11-15T18:00:00.000Z"`, digit by digit (exports write millions).
    mutating func date(_ value: Date) {
        let parts = TwitterDate.utcFields(value)
        raw(UInt8(ascii: "\""))
        padded(parts.year, 4)
        raw(UInt8(ascii: "-"))
        padded(parts.month, 2)
        raw(UInt8(ascii: "-"))
        padded(parts.day, 2)
        raw(UInt8(ascii: "T"))
        padded(parts.hour, 2)
        raw(UInt8(ascii: ":"))
        padded(parts.minute, 2)
        raw(UInt8(ascii: ":"))
        padded(parts.second, 2)
        raw(UInt8(ascii: "."))
        padded(parts.millisecond, 3)
        raw("Z\"")
    }

    private mutating func padded(_ value: Int64, _ width: Int) {
        var divisor: Int64 = 1
        for _ in 1..<width { divisor *= 10 }
        var remaining = value
        if remaining >= divisor * 10 {
            digits(UInt64(Swift.max(remaining, 0)))
            return
        }
        while divisor > 0 {
            raw(UInt8(ascii: "0") + UInt8(remaining / divisor))
            remaining %= divisor
            divisor /= 10
        }
    }
}

extension UInt {
    fileprivate var toUInt64: UInt64 { UInt64(self) }
}
