import CBZip2
import CLZMA
import CZlib
import CZstd

/// The compressed formats an import reads, detected by their first bytes (never by the file's name).
public enum Compression: String, CaseIterable, Hashable, Sendable {
    /// gzip (RFC 1952), including files of several members (`cat a.gz b.gz`).
    case gzip
    /// bzip2, including multi-stream files (pbzip2).
    case bzip2
    /// xz, including concatenated streams.
    case xz
    /// Zstandard, including several frames.
    case zstd

    /// The compression whose magic number starts `bytes`, if any.
    static func detect(_ bytes: [UInt8]) -> Compression? {
        if bytes.starts(with: [0x1F, 0x8B]) { return .gzip }
        if bytes.count >= 4, bytes.starts(with: [0x42, 0x5A, 0x68]), (0x31...0x39).contains(bytes[3]) { return .bzip2 }
        if bytes.starts(with: [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) { return .xz }
        if bytes.starts(with: [0x28, 0xB5, 0x2F, 0xFD]) { return .zstd }
        return nil
    }

    /// A source that decompresses `inner` as it is read, in constant memory.
    func decompressor(over inner: ByteSource) throws -> ByteSource {
        switch self {
        case .gzip: return try GzipSource(inner)
        case .bzip2: return try BZip2Source(inner)
        case .xz: return try XZSource(inner)
        case .zstd: return try ZstdSource(inner)
        }
    }
}

/// The compressed bytes waiting to be decompressed: a fixed buffer refilled from the inner source when used up.
final class CompressedInput {
    static let capacity = 256 << 10
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
    var start = 0
    var end = 0
    private(set) var ended = false
    let inner: ByteSource

    init(_ inner: ByteSource) { self.inner = inner }

    deinit { buffer.deallocate() }

    var available: Int { end - start }
    var pointer: UnsafeMutablePointer<UInt8> { buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) + start }

    /// Reads more when everything read so far is used; false once the inner source has ended and nothing is left.
    func refillIfEmpty() throws -> Bool {
        if start < end { return true }
        if ended { return false }
        start = 0
        end = try inner.read(into: buffer)
        if end == 0 { ended = true }
        return end > 0
    }

    /// Makes sure at least `count` bytes are buffered, when the source has them (to look at the next member's magic).
    func peek(_ count: Int) throws -> [UInt8] {
        if available < count, !ended {
            if start > 0 {
                buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: available)
                end -= start
                start = 0
            }
            while end < count, !ended {
                let got = try inner.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[end...]))
                if got == 0 { ended = true } else { end += got }
            }
        }
        return Array(UnsafeRawBufferPointer(rebasing: buffer[start..<min(end, start + count)]))
    }
}

/// gzip through zlib's `inflate`, which checks each member's CRC and length.
final class GzipSource: ByteSource {
    private let input: CompressedInput
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private var finished = false
    private var outputWasFull = false
    private(set) var problem: String?
    var position: UInt64 { input.inner.position }

    init(_ inner: ByteSource) throws {
        input = CompressedInput(inner)
        stream.initialize(to: z_stream())
        // 15 + 16: a gzip wrapper and the largest window.
        guard inflateInit2_(stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            stream.deallocate()
            throw ImportInputError(message: "cannot start gzip decompression")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while !finished {
            // A full output buffer may have left output inside the decoder, which needs no more input.
            guard try input.refillIfEmpty() || outputWasFull else {
                problem = "the gzip data ends early: the file is truncated"
                finished = true
                break
            }
            stream.pointee.next_in = input.pointer
            stream.pointee.avail_in = UInt32(input.available)
            stream.pointee.next_out = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            stream.pointee.avail_out = UInt32(buffer.count)
            let status = inflate(stream, Z_NO_FLUSH)
            input.start = input.end - Int(stream.pointee.avail_in)
            let produced = buffer.count - Int(stream.pointee.avail_out)
            outputWasFull = produced == buffer.count
            switch status {
            case Z_OK, Z_BUF_ERROR:
                break
            case Z_STREAM_END:
                // Another member may follow; anything else after the last member is ignored, as gzip(1) does.
                if try input.peek(2) == [0x1F, 0x8B] { inflateReset(stream) } else { finished = true }
            default:
                problem = "the gzip data is corrupt after \(position) bytes of the file"
                finished = true
            }
            if produced > 0 { return produced }
        }
        return 0
    }
}

/// bzip2 through libbz2.
final class BZip2Source: ByteSource {
    private let input: CompressedInput
    private let stream = UnsafeMutablePointer<bz_stream>.allocate(capacity: 1)
    private var finished = false
    private var outputWasFull = false
    private(set) var problem: String?
    var position: UInt64 { input.inner.position }

    init(_ inner: ByteSource) throws {
        input = CompressedInput(inner)
        stream.initialize(to: bz_stream())
        guard BZ2_bzDecompressInit(stream, 0, 0) == BZ_OK else {
            stream.deallocate()
            throw ImportInputError(message: "cannot start bzip2 decompression")
        }
    }

    deinit {
        BZ2_bzDecompressEnd(stream)
        stream.deallocate()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while !finished {
            // A full output buffer may have left output inside the decoder, which needs no more input.
            guard try input.refillIfEmpty() || outputWasFull else {
                problem = "the bzip2 data ends early: the file is truncated"
                finished = true
                break
            }
            stream.pointee.next_in = UnsafeMutableRawPointer(input.pointer).assumingMemoryBound(to: CChar.self)
            stream.pointee.avail_in = UInt32(input.available)
            stream.pointee.next_out = buffer.baseAddress!.assumingMemoryBound(to: CChar.self)
            stream.pointee.avail_out = UInt32(buffer.count)
            let status = BZ2_bzDecompress(stream)
            input.start = input.end - Int(stream.pointee.avail_in)
            let produced = buffer.count - Int(stream.pointee.avail_out)
            outputWasFull = produced == buffer.count
            switch status {
            case BZ_OK:
                break
            case BZ_STREAM_END:
                // pbzip2 writes one stream per block: start again when another stream follows.
                if try input.peek(3) == [0x42, 0x5A, 0x68] {
                    BZ2_bzDecompressEnd(stream)
                    stream.pointee = bz_stream()
                    guard BZ2_bzDecompressInit(stream, 0, 0) == BZ_OK else {
                        throw ImportInputError(message: "cannot restart bzip2 decompression")
                    }
                } else {
                    finished = true
                }
            default:
                problem = "the bzip2 data is corrupt after \(position) bytes of the file"
                finished = true
            }
            if produced > 0 { return produced }
        }
        return 0
    }
}

/// xz through liblzma, with concatenated streams.
final class XZSource: ByteSource {
    /// `LZMA_CONCATENATED` from lzma.h, whose `UINT32_C` form Swift does not import: read stream after stream.
    private static let concatenated: UInt32 = 0x08
    private let input: CompressedInput
    private let stream = UnsafeMutablePointer<lzma_stream>.allocate(capacity: 1)
    private var finished = false
    private(set) var problem: String?
    var position: UInt64 { input.inner.position }

    init(_ inner: ByteSource) throws {
        input = CompressedInput(inner)
        stream.initialize(to: lzma_stream())
        guard lzma_stream_decoder(stream, UInt64.max, Self.concatenated) == LZMA_OK else {
            stream.deallocate()
            throw ImportInputError(message: "cannot start xz decompression")
        }
    }

    deinit {
        lzma_end(stream)
        stream.deallocate()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while !finished {
            let more = try input.refillIfEmpty()
            stream.pointee.next_in = UnsafePointer(input.pointer)
            stream.pointee.avail_in = input.available
            stream.pointee.next_out = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            stream.pointee.avail_out = buffer.count
            // With concatenated streams, only LZMA_FINISH tells the decoder that no further stream follows.
            let status = lzma_code(stream, more ? LZMA_RUN : LZMA_FINISH)
            input.start = input.end - stream.pointee.avail_in
            let produced = buffer.count - stream.pointee.avail_out
            switch status {
            case LZMA_OK:
                if !more, produced == 0 {
                    problem = "the xz data ends early: the file is truncated"
                    finished = true
                }
            case LZMA_STREAM_END:
                finished = true
            case LZMA_BUF_ERROR:
                problem = "the xz data ends early: the file is truncated"
                finished = true
            default:
                problem = "the xz data is corrupt after \(position) bytes of the file"
                finished = true
            }
            if produced > 0 { return produced }
        }
        return 0
    }
}

/// Zstandard through libzstd's streaming decoder, which reads frame after frame by itself.
final class ZstdSource: ByteSource {
    private let input: CompressedInput
    private let stream: OpaquePointer
    private var finished = false
    private var outputWasFull = false
    /// What `ZSTD_decompressStream` returned last: 0 exactly when a frame has just ended.
    private var lastHint = 1
    private(set) var problem: String?
    var position: UInt64 { input.inner.position }

    init(_ inner: ByteSource) throws {
        input = CompressedInput(inner)
        guard let stream = ZSTD_createDStream() else {
            throw ImportInputError(message: "cannot start zstd decompression")
        }
        self.stream = stream
        ZSTD_initDStream(stream)
    }

    deinit { ZSTD_freeDStream(stream) }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while !finished {
            guard try input.refillIfEmpty() || outputWasFull else {
                if lastHint != 0 { problem = "the zstd data ends early: the file is truncated" }
                finished = true
                break
            }
            var source = ZSTD_inBuffer(src: UnsafeRawPointer(input.pointer), size: input.available, pos: 0)
            var target = ZSTD_outBuffer(dst: buffer.baseAddress, size: buffer.count, pos: 0)
            let hint = ZSTD_decompressStream(stream, &target, &source)
            input.start += source.pos
            outputWasFull = target.pos == buffer.count
            if ZSTD_isError(hint) != 0 {
                problem = "the zstd data is corrupt after \(position) bytes of the file"
                finished = true
            } else {
                lastHint = hint
            }
            if target.pos > 0 { return target.pos }
        }
        return 0
    }
}
