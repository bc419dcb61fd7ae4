import Foundation

/// Reads a file line by line in fixed-size chunks, so memory stays flat however large the file is.
struct LineReader {
    /// A line longer than this is reported and skipped rather than held in memory.
    static let maximumLineLength = 64 << 20

    private let handle: FileHandle
    private let chunkSize: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var endOfFile = false
    /// Byte offset in the file just past the last line returned.
    private(set) var offset: UInt64

    init(handle: FileHandle, offset: UInt64, chunkSize: Int = 1 << 20) throws {
        self.handle = handle
        self.offset = offset
        self.chunkSize = chunkSize
        try handle.seek(toOffset: offset)
    }

    enum Line {
        case text(Data)
        case tooLong(Int)
    }

    /// The next line without its newline (and without a trailing CR), or nil at the end of the file.
    mutating func next() throws -> Line? {
        var skipped = 0
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                var end = newline
                if end > start, buffer[end - 1] == 0x0D { end -= 1 }
                let line = Data(buffer[start..<end])
                offset += UInt64(newline + 1 - start)
                start = newline + 1
                if skipped > 0 { return .tooLong(skipped + line.count) }
                return .text(line)
            }
            if endOfFile {
                guard start < buffer.count || skipped > 0 else { return nil }
                let line = Data(buffer[start...])
                offset += UInt64(buffer.count - start)
                buffer.removeAll(keepingCapacity: true)
                start = 0
                return skipped > 0 ? .tooLong(skipped + line.count) : .text(line)
            }
            if buffer.count - start > Self.maximumLineLength {
                skipped += buffer.count - start
                offset += UInt64(buffer.count - start)
                buffer.removeAll(keepingCapacity: true)
                start = 0
            }
            // Keep only the unfinished line, then read more.
            if start > 0 {
                buffer.removeSubrange(0..<start)
                start = 0
            }
            let chunk = try handle.read(upToCount: chunkSize) ?? Data()
            if chunk.isEmpty { endOfFile = true } else { buffer.append(contentsOf: chunk) }
        }
    }
}
