import Foundation

/// Writes ZIP files for tests, as X's archive download and `zip(1)` lay them out: a local header and the data per
/// entry, then the central directory and its end record. Entries are stored, or carry data the caller deflated
/// (`deflated:`); `zip64` writes every size and offset in ZIP64 form, as a tool does past 4 GB.
public struct ZipWriter {
    private struct Written {
        var name: [UInt8]
        var method: UInt16
        var crc: UInt32
        var compressedSize: UInt64
        var size: UInt64
        var offset: UInt64
    }

    private var bytes: [UInt8] = []
    private var written: [Written] = []
    /// Whether sizes and offsets go in ZIP64 extra fields and records.
    public var zip64: Bool

    /// Starts an empty ZIP.
    public init(zip64: Bool = false) {
        self.zip64 = zip64
    }

    /// Adds an entry holding `data`: stored, or as `deflated` (raw deflate of `data`) when given.
    public mutating func add(_ name: String, _ data: Data, deflated: Data? = nil) {
        let payload = [UInt8](deflated ?? data)
        let entry = Written(
            name: Array(name.utf8), method: deflated == nil ? 0 : 8, crc: Self.crc32(data),
            compressedSize: UInt64(payload.count), size: UInt64(data.count), offset: UInt64(bytes.count))
        let extra = zip64 ? Self.zip64Extra([entry.size, entry.compressedSize]) : []
        put32(0x0403_4B50)
        putSharedFields(entry, extraCount: extra.count)
        bytes += entry.name + extra + payload
        written.append(entry)
    }

    /// The ZIP file's bytes.
    public mutating func finish() -> Data {
        let directoryOffset = UInt64(bytes.count)
        for entry in written {
            let extra = zip64 ? Self.zip64Extra([entry.size, entry.compressedSize, entry.offset]) : []
            put32(0x0201_4B50)
            put16(0x031E)  // made by: Unix, version 3.0
            putSharedFields(entry, extraCount: extra.count)
            put16(0)
            put16(0)
            put16(0)
            put32(0)
            put32(zip64 ? 0xFFFF_FFFF : UInt32(entry.offset))
            bytes += entry.name + extra
        }
        let directorySize = UInt64(bytes.count) - directoryOffset
        if zip64 {
            let recordOffset = UInt64(bytes.count)
            put32(0x0606_4B50)
            put64(44)
            put16(45)
            put16(45)
            put32(0)
            put32(0)
            put64(UInt64(written.count))
            put64(UInt64(written.count))
            put64(directorySize)
            put64(directoryOffset)
            put32(0x0706_4B50)
            put32(0)
            put64(recordOffset)
            put32(1)
        }
        put32(0x0605_4B50)
        put16(0)
        put16(0)
        put16(zip64 ? 0xFFFF : UInt16(written.count))
        put16(zip64 ? 0xFFFF : UInt16(written.count))
        put32(zip64 ? 0xFFFF_FFFF : UInt32(directorySize))
        put32(zip64 ? 0xFFFF_FFFF : UInt32(directoryOffset))
        put16(0)
        return Data(bytes)
    }

    /// CRC-32 (the ZIP and gzip polynomial), bit by bit: test data is small.
    public static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// The fields a local header and a central-directory entry share, in their order: version needed, flags (UTF-8
    /// names), method, time and date, CRC-32, the two sizes (all ones in ZIP64 form), and the name and extra lengths.
    private mutating func putSharedFields(_ entry: Written, extraCount: Int) {
        put16(zip64 ? 45 : 20)
        put16(0x0800)
        put16(entry.method)
        put16(0)
        put16(0x5821)
        put32(entry.crc)
        put32(zip64 ? 0xFFFF_FFFF : UInt32(entry.compressedSize))
        put32(zip64 ? 0xFFFF_FFFF : UInt32(entry.size))
        put16(UInt16(entry.name.count))
        put16(UInt16(extraCount))
    }

    private static func zip64Extra(_ values: [UInt64]) -> [UInt8] {
        var field: [UInt8] = [0x01, 0x00, UInt8(values.count * 8), 0x00]
        for value in values { field += (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        return field
    }

    private mutating func put16(_ value: UInt16) { bytes += [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private mutating func put32(_ value: UInt32) {
        bytes += (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
    private mutating func put64(_ value: UInt64) {
        bytes += (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
