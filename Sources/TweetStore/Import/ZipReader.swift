import CZlib
import Foundation

/// The entries of a ZIP file, read from its central directory, and their contents, stored or deflated, checked against
/// their CRC-32. Enough of the format for the archives X hands out: ZIP64 sizes and offsets (an archive with its media
/// passes 4 GB), UTF-8 names, no encryption, no spanning.
///
/// Only the central directory and the entries asked for are read, so a 10 GB archive costs what its tweets cost.
package struct ZipReader {
    /// One file in the ZIP.
    package struct Entry: Sendable {
        /// Its path inside the ZIP, `/`-separated.
        package var name: String
        /// 0 stored, 8 deflated; anything else is refused when read.
        var method: UInt16
        var flags: UInt16
        var crc: UInt32
        var compressedSize: UInt64
        /// The size once extracted.
        package var size: UInt64
        package var localHeaderOffset: UInt64
    }

    /// The ZIP's files, in central-directory order.
    package let entries: [Entry]
    private let url: URL
    private let length: UInt64

    /// Reads the central directory of the ZIP at `url`; throws `ImportInputError` when there is none to read.
    package init(url: URL) throws {
        self.url = url
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let length = try handle.seekToEnd()
        // The end record is 22 bytes plus a comment of at most 65,535.
        let tailLength = min(length, 22 + 65_535 + 20)
        try handle.seek(toOffset: length - tailLength)
        let tail = [UInt8](try handle.read(upToCount: Int(tailLength)) ?? Data())
        guard let end = Self.lastIndex(of: 0x0605_4B50, in: tail), end + 22 <= tail.count else {
            throw ImportInputError(message: "the ZIP file has no central directory (cut short?)")
        }
        var count = UInt64(tail.le16(end + 10))
        var directorySize = UInt64(tail.le32(end + 12))
        var directoryOffset = UInt64(tail.le32(end + 16))
        // ZIP64: a locator right before the end record points at the 64-bit end record.
        if end >= 20, tail.le32(end - 20) == 0x0706_4B50 {
            let recordOffset = tail.le64(end - 20 + 8)
            // Checked before seeking: the field is the file's to choose, and Foundation traps on an offset past
            // `Int64.max` (the fuzzer found one) instead of throwing.
            guard length >= 56, recordOffset <= length - 56 else {
                throw ImportInputError(message: "the ZIP file's 64-bit directory record lies outside the file")
            }
            try handle.seek(toOffset: recordOffset)
            let record = [UInt8](try handle.read(upToCount: 56) ?? Data())
            guard record.count == 56, record.le32(0) == 0x0606_4B50 else {
                throw ImportInputError(message: "the ZIP file's 64-bit directory record is unreadable")
            }
            count = record.le64(32)
            directorySize = record.le64(40)
            directoryOffset = record.le64(48)
        }
        // Subtracted, not added: the 64-bit fields are the file's to choose, and a sum could overflow.
        guard directoryOffset <= length, directorySize <= length - directoryOffset, directorySize <= 1 << 30 else {
            throw ImportInputError(message: "the ZIP file's central directory lies outside the file (cut short?)")
        }
        try handle.seek(toOffset: directoryOffset)
        let directory = [UInt8](try handle.read(upToCount: Int(directorySize)) ?? Data())
        var entries: [Entry] = []
        var position = 0
        for _ in 0..<count {
            guard position + 46 <= directory.count, directory.le32(position) == 0x0201_4B50 else {
                throw ImportInputError(message: "the ZIP file's central directory is damaged")
            }
            let nameLength = Int(directory.le16(position + 28))
            let extraLength = Int(directory.le16(position + 30))
            let commentLength = Int(directory.le16(position + 32))
            let next = position + 46 + nameLength + extraLength + commentLength
            guard next <= directory.count else {
                throw ImportInputError(message: "the ZIP file's central directory is damaged")
            }
            var entry = Entry(
                name: String(decoding: directory[(position + 46)..<(position + 46 + nameLength)], as: UTF8.self),
                method: directory.le16(position + 10), flags: directory.le16(position + 8),
                crc: directory.le32(position + 16), compressedSize: UInt64(directory.le32(position + 20)),
                size: UInt64(directory.le32(position + 24)), localHeaderOffset: UInt64(directory.le32(position + 42)))
            Self.applyZip64(
                Array(directory[(position + 46 + nameLength)..<(position + 46 + nameLength + extraLength)]),
                to: &entry)
            entries.append(entry)
            position = next
        }
        self.entries = entries
        self.length = length
    }

    /// Whether the file at `url` starts as a ZIP does (a local file header, or the end record of an empty ZIP).
    package static func looksLikeZip(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 4)) ?? Data())
        return head == [0x50, 0x4B, 0x03, 0x04]
    }

    /// Writes `entry`'s contents to `destination`, checking its size and CRC-32.
    package func extract(_ entry: Entry, to destination: URL) throws {
        guard entry.flags & 1 == 0 else {
            throw ImportInputError(message: "\(entry.name) in the ZIP file is encrypted")
        }
        guard entry.method == 0 || entry.method == 8 else {
            throw ImportInputError(
                message: "\(entry.name) in the ZIP file is compressed with method \(entry.method), which tweetsh "
                    + "cannot read; unzip it and import the folder")
        }
        guard length >= 30, entry.localHeaderOffset <= length - 30, entry.compressedSize <= length else {
            throw ImportInputError(message: "\(entry.name) in the ZIP file lies outside the file (cut short?)")
        }
        let input = try FileHandle(forReadingFrom: url)
        defer { try? input.close() }
        try input.seek(toOffset: entry.localHeaderOffset)
        let header = [UInt8](try input.read(upToCount: 30) ?? Data())
        guard header.count == 30, header.le32(0) == 0x0403_4B50 else {
            throw ImportInputError(message: "\(entry.name) in the ZIP file is damaged (no local header)")
        }
        try input.seek(toOffset: entry.localHeaderOffset + 30 + UInt64(header.le16(26)) + UInt64(header.le16(28)))
        guard FileManager.default.createFile(atPath: destination.path, contents: nil) else {
            throw ImportInputError(message: "cannot write \(destination.path) to unzip into")
        }
        let output = try FileHandle(forWritingTo: destination)
        defer { try? output.close() }
        var sink = ExtractedSink(output: output, limit: entry.size, name: entry.name)
        if entry.method == 0 {
            var left = entry.compressedSize
            while left > 0 {
                let chunk = try input.read(upToCount: Int(min(left, 1 << 20))) ?? Data()
                guard !chunk.isEmpty else { throw ExtractedSink.truncated(entry.name) }
                try chunk.withUnsafeBytes { try sink.write($0) }
                left -= UInt64(chunk.count)
            }
        } else {
            try Self.inflate(from: input, compressedSize: entry.compressedSize, into: &sink)
        }
        try sink.flush()
        guard sink.written == entry.size, sink.crc == entry.crc else {
            throw ImportInputError(message: "\(entry.name) in the ZIP file is damaged (its checksum does not match)")
        }
    }

    /// Raw deflate (no zlib header) through zlib's `inflate`, a megabyte in and out at a time.
    private static func inflate(from input: FileHandle, compressedSize: UInt64, into sink: inout ExtractedSink) throws {
        var stream = z_stream()
        guard inflateInit2_(&stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw ImportInputError(message: "cannot start inflating the ZIP file")
        }
        defer { inflateEnd(&stream) }
        let capacity = 1 << 20
        let inBuffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        let outBuffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer {
            inBuffer.deallocate()
            outBuffer.deallocate()
        }
        var left = compressedSize
        while true {
            if stream.avail_in == 0, left > 0 {
                let chunk = try input.read(upToCount: Int(min(left, UInt64(capacity)))) ?? Data()
                guard !chunk.isEmpty else { throw ExtractedSink.truncated(sink.name) }
                chunk.copyBytes(to: inBuffer, count: chunk.count)
                stream.next_in = inBuffer
                stream.avail_in = UInt32(chunk.count)
                left -= UInt64(chunk.count)
            }
            stream.next_out = outBuffer
            stream.avail_out = UInt32(capacity)
            let code = CZlib.inflate(&stream, Z_NO_FLUSH)
            let produced = capacity - Int(stream.avail_out)
            if produced > 0 { try sink.write(UnsafeRawBufferPointer(start: outBuffer, count: produced)) }
            switch code {
            case Z_STREAM_END:
                return
            case Z_OK:
                continue
            case Z_BUF_ERROR where stream.avail_in == 0:
                // No progress without more input: read more, or the entry ended before its deflate stream did.
                if left == 0 { throw ExtractedSink.truncated(sink.name) }
            default:
                throw ImportInputError(message: "\(sink.name) in the ZIP file is damaged (bad deflate data)")
            }
        }
    }

    /// The ZIP64 extended-information field (id 1) holds, in this order, the 64-bit value of each of size,
    /// compressed size and offset whose 32-bit field is all ones.
    private static func applyZip64(_ extra: [UInt8], to entry: inout Entry) {
        var position = 0
        while position + 4 <= extra.count {
            let id = extra.le16(position)
            let length = Int(extra.le16(position + 2))
            let body = position + 4
            guard body + length <= extra.count else { return }
            if id == 1 {
                var field = body
                func take() -> UInt64? {
                    guard field + 8 <= body + length else { return nil }
                    defer { field += 8 }
                    return extra.le64(field)
                }
                if entry.size == 0xFFFF_FFFF, let value = take() { entry.size = value }
                if entry.compressedSize == 0xFFFF_FFFF, let value = take() { entry.compressedSize = value }
                if entry.localHeaderOffset == 0xFFFF_FFFF, let value = take() { entry.localHeaderOffset = value }
                return
            }
            position = body + length
        }
    }

    private static func lastIndex(of signature: UInt32, in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in stride(from: bytes.count - 4, through: 0, by: -1) where bytes.le32(index) == signature {
            return index
        }
        return nil
    }
}

/// Where extracted bytes go: a file, buffered, with the running CRC-32 and a ceiling at the declared size, so a
/// damaged or hostile entry cannot fill the disk.
private struct ExtractedSink {
    let output: FileHandle
    let limit: UInt64
    let name: String
    private(set) var written: UInt64 = 0
    private(set) var crc: UInt32 = 0
    private var buffer = Data()

    init(output: FileHandle, limit: UInt64, name: String) {
        self.output = output
        self.limit = limit
        self.name = name
    }

    static func truncated(_ name: String) -> ImportInputError {
        ImportInputError(message: "\(name) in the ZIP file is cut short")
    }

    mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
        written += UInt64(bytes.count)
        guard written <= limit else {
            throw ImportInputError(message: "\(name) in the ZIP file holds more than its stated size")
        }
        crc = UInt32(crc32(UInt(crc), bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt32(bytes.count)))
        buffer.append(contentsOf: bytes)
        if buffer.count >= 4 << 20 { try flush() }
    }

    mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        try output.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}

extension [UInt8] {
    fileprivate func le16(_ at: Int) -> UInt16 { UInt16(self[at]) | UInt16(self[at + 1]) << 8 }
    fileprivate func le32(_ at: Int) -> UInt32 { UInt32(le16(at)) | UInt32(le16(at + 2)) << 16 }
    fileprivate func le64(_ at: Int) -> UInt64 { UInt64(le32(at)) | UInt64(le32(at + 4)) << 32 }
}
