import CBZip2
import CLZMA
import CZlib
import CZstd

@testable import TweetStore

/// Compresses test fixtures in-process with the same Debian libraries the importer decompresses with, so the tests
/// need no command-line tools.
enum FixtureCompressor {
    static func compress(_ bytes: [UInt8], as format: Compression) -> [UInt8] {
        switch format {
        case .gzip: return gzip(bytes)
        case .bzip2: return bzip2(bytes)
        case .xz: return xz(bytes)
        case .zstd: return zstd(bytes)
        }
    }

    private static func gzip(_ bytes: [UInt8]) -> [UInt8] { deflate(bytes, windowBits: 15 + 16) }

    /// Raw deflate, without a header or trailer, as a ZIP entry holds it.
    static func deflateRaw(_ bytes: [UInt8]) -> [UInt8] { deflate(bytes, windowBits: -15) }

    private static func deflate(_ bytes: [UInt8], windowBits: Int32) -> [UInt8] {
        var input = bytes
        var output = [UInt8](repeating: 0, count: bytes.count + bytes.count / 100 + 1024)
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        defer { stream.deallocate() }
        stream.initialize(to: z_stream())
        // 15 + 16: the largest window, with a gzip header and trailer; -15: the largest window, raw.
        let started = deflateInit2_(
            stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
            Int32(MemoryLayout<z_stream>.size))
        precondition(started == Z_OK)
        let written = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.pointee.next_in = source.baseAddress
                stream.pointee.avail_in = UInt32(source.count)
                stream.pointee.next_out = target.baseAddress
                stream.pointee.avail_out = UInt32(target.count)
                precondition(CZlib.deflate(stream, Z_FINISH) == Z_STREAM_END)
                return target.count - Int(stream.pointee.avail_out)
            }
        }
        deflateEnd(stream)
        return Array(output[..<written])
    }

    private static func bzip2(_ bytes: [UInt8]) -> [UInt8] {
        var input = bytes
        var output = [UInt8](repeating: 0, count: bytes.count + bytes.count / 100 + 1024)
        var length = UInt32(output.count)
        let status = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                source.withMemoryRebound(to: CChar.self) { source in
                    target.withMemoryRebound(to: CChar.self) { target in
                        BZ2_bzBuffToBuffCompress(
                            target.baseAddress, &length, source.baseAddress, UInt32(source.count), 9, 0, 0)
                    }
                }
            }
        }
        precondition(status == BZ_OK)
        return Array(output[..<Int(length)])
    }

    private static func xz(_ bytes: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: bytes.count + bytes.count / 100 + 1024)
        var written = 0
        let status = bytes.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                lzma_easy_buffer_encode(
                    6, LZMA_CHECK_CRC64, nil, source.baseAddress, source.count, target.baseAddress, &written,
                    target.count)
            }
        }
        precondition(status == LZMA_OK)
        return Array(output[..<written])
    }

    private static func zstd(_ bytes: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: ZSTD_compressBound(bytes.count))
        let written = bytes.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { target in
                ZSTD_compress(target.baseAddress, target.count, source.baseAddress, source.count, 3)
            }
        }
        precondition(ZSTD_isError(written) == 0)
        return Array(output[..<written])
    }
}
