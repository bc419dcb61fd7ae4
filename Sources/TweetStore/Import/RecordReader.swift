import Foundation

/// Follows one JSON value byte by byte, far enough to know where it ends: nesting, strings and escapes. Syntax is left
/// to the decoder, which reports errors with a message; this only has to find the value's last byte.
struct ValueScanner {
    enum Event: Equatable {
        /// The byte belongs to the value, which goes on.
        case inside
        /// The byte closed the value.
        case closed
        /// The value (a bare number or word) ended just before this byte, which is not part of it.
        case endedBefore
    }

    private var depth = 0
    private var inString = false
    private var escaped = false
    private var scalar = false
    private var started = false

    @inline(__always)
    mutating func consume(_ byte: UInt8) -> Event {
        if inString {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
                if depth == 0 { return .closed }
            }
            return .inside
        }
        if scalar {
            switch byte {
            case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: "{"),
                UInt8(ascii: "["), UInt8(ascii: "\""):
                return .endedBefore
            default: return .inside
            }
        }
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            depth -= 1
            if depth <= 0 { return .closed }
        case UInt8(ascii: "\""):
            inString = true
        case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ","), UInt8(ascii: ":"):
            break
        default:
            if depth == 0, !started { scalar = true }
        }
        started = true
        return .inside
    }
}

/// Splits a decoded byte stream into records for the decoder: lines of a JSON Lines file, or the values of a JSON
/// document (each element of a top-level array on its own), in constant memory.
package final class RecordReader {
    /// A record longer than this is reported and skipped rather than held in memory.
    package static let maximumRecordLength = 64 << 20

    package enum Record {
        /// A record's bytes, and the line it starts on.
        case text(Data, line: Int)
        /// A record too long to hold, with its length and first line.
        case tooLong(Int, line: Int)
    }

    package let framing: JSONFraming
    private let source: ByteSource
    /// Where each read lands before it joins `buffer`.
    private let scratch: UnsafeMutableRawBufferPointer
    private var buffer: [UInt8] = []
    /// Where the unread part of `buffer` starts.
    private var start = 0
    /// Where scanning stopped inside an unfinished record: a value, or a line whose newline is not in `buffer` yet.
    private var scanIndex = 0
    private var endOfData = false
    /// Decoded bytes before `buffer[0]`.
    private var bufferOffset: UInt64
    /// Decoded bytes consumed through the end of the last record returned.
    package private(set) var offset: UInt64
    /// Lines: the number of the line last returned. Values: the line the scan has reached.
    package private(set) var line: Int
    /// Values: how many records have been returned.
    package private(set) var records = 0

    // Values-only state between calls.
    private var insideArray = false
    private var scanner = ValueScanner()
    private var recordStart: Int?
    private var recordLine = 0
    private var skippedBytes = 0

    /// Bytes of the file consumed (compressed ones under a decompressor).
    package var position: UInt64 { source.position }
    /// Why the data ended early, if it did.
    package var problem: String? { source.problem }

    package init(source: ByteSource, framing: JSONFraming, offset: UInt64 = 0, line: Int = 0, chunkSize: Int = 1 << 20)
    {
        self.source = source
        self.framing = framing
        self.offset = offset
        self.bufferOffset = offset
        self.line = framing == .lines ? line : 1
        self.scratch = .allocate(byteCount: chunkSize, alignment: 16)
    }

    deinit { scratch.deallocate() }

    /// The next record, or nil at the end of the data.
    package func next() throws -> Record? {
        framing == .lines ? try nextLine() : try nextValue()
    }

    /// Reads another chunk onto the end of the buffer, first dropping what has been consumed; false at the end.
    private func fill(keepingFrom keep: Int) throws -> Bool {
        if keep > 0 {
            buffer.removeSubrange(0..<keep)
            bufferOffset += UInt64(keep)
            start -= keep
            scanIndex = max(0, scanIndex - keep)
            if let begin = recordStart { recordStart = begin - keep }
        }
        let got = try source.read(into: scratch)
        buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[..<got]))
        if got == 0 { endOfData = true }
        return got > 0
    }

    private func nextLine() throws -> Record? {
        var skipped = 0
        while true {
            if let newline = nextNewline() {
                var end = newline
                if end > start, buffer[end - 1] == 0x0D { end -= 1 }
                let data = Data(buffer[start..<end])
                start = newline + 1
                offset = bufferOffset + UInt64(start)
                line += 1
                return skipped > 0 ? .tooLong(skipped + data.count, line: line) : .text(data, line: line)
            }
            if endOfData {
                guard start < buffer.count || skipped > 0 else { return nil }
                let data = Data(buffer[start...])
                start = buffer.count
                offset = bufferOffset + UInt64(start)
                line += 1
                return skipped > 0 ? .tooLong(skipped + data.count, line: line) : .text(data, line: line)
            }
            if buffer.count - start > Self.maximumRecordLength {
                skipped += buffer.count - start
                start = buffer.count
            }
            _ = try fill(keepingFrom: start)
        }
    }

    /// The index of the first line feed at or after `start`, found with `memchr` (vectorized, where a generic search
    /// stepped through the bytes one by one at 4% of an import), resuming where the last search of this line stopped.
    private func nextNewline() -> Int? {
        let from = max(start, scanIndex)
        guard from < buffer.count else { return nil }
        let found = buffer.withUnsafeBytes { raw -> Int? in
            guard let hit = memchr(raw.baseAddress! + from, 0x0A, raw.count - from) else { return nil }
            return raw.baseAddress!.distance(to: UnsafeRawPointer(hit))
        }
        scanIndex = found.map { $0 + 1 } ?? buffer.count
        return found
    }

    private func nextValue() throws -> Record? {
        while true {
            while scanIndex < buffer.count {
                let byte = buffer[scanIndex]
                guard let begin = recordStart else {
                    // Between records: whitespace, and the brackets and commas of a top-level array.
                    scanIndex += 1
                    switch byte {
                    case 0x0A: line += 1
                    case 0x20, 0x0D, 0x09, UInt8(ascii: ","): break
                    case UInt8(ascii: "[") where !insideArray: insideArray = true
                    case UInt8(ascii: "]") where insideArray: insideArray = false
                    default:
                        recordStart = scanIndex - 1
                        recordLine = line
                        scanner = ValueScanner()
                        if scanner.consume(byte) == .closed { return finishValue(through: scanIndex) }
                    }
                    start = scanIndex
                    if recordStart != nil { start = scanIndex - 1 }
                    continue
                }
                let event = scanner.consume(byte)
                if event == .endedBefore { return finishValue(through: scanIndex) }
                if byte == 0x0A { line += 1 }
                scanIndex += 1
                if event == .closed { return finishValue(through: scanIndex) }
                if scanIndex - begin > Self.maximumRecordLength {
                    skippedBytes += scanIndex - begin
                    recordStart = scanIndex
                    start = scanIndex
                }
            }
            if endOfData {
                if recordStart != nil { return finishValue(through: buffer.count) }
                offset = bufferOffset + UInt64(buffer.count)
                return nil
            }
            _ = try fill(keepingFrom: recordStart ?? scanIndex)
        }
    }

    /// Returns the record from `recordStart` up to `end` (exclusive) and moves past it.
    private func finishValue(through end: Int) -> Record {
        let begin = recordStart ?? end
        recordStart = nil
        start = end
        scanIndex = end
        offset = bufferOffset + UInt64(end)
        records += 1
        defer { skippedBytes = 0 }
        if skippedBytes > 0 { return .tooLong(skippedBytes + end - begin, line: recordLine) }
        return .text(Data(buffer[begin..<end]), line: recordLine)
    }
}
