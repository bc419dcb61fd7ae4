import CZlib

/// gzip through zlib's `inflate`, which checks each member's CRC and length.
final class GzipStep: DecompressionStep {
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    let format = "gzip"

    init() throws {
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

    func step(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, inputEnded: Bool,
        pendingOutput: Bool
    ) -> DecompressionResult {
        // Without input, only output left inside the decoder by a full buffer can still come.
        if inputEnded, !pendingOutput { return DecompressionResult(consumed: 0, produced: 0, status: .truncated) }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: UInt8.self))
        stream.pointee.avail_in = UInt32(input.count)
        stream.pointee.next_out = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
        stream.pointee.avail_out = UInt32(output.count)
        let code = inflate(stream, Z_NO_FLUSH)
        let status: DecompressionResult.Status
        switch code {
        case Z_OK, Z_BUF_ERROR: status = .running
        case Z_STREAM_END: status = .streamEnded
        default: status = .corrupt
        }
        return DecompressionResult(
            consumed: input.count - Int(stream.pointee.avail_in),
            produced: output.count - Int(stream.pointee.avail_out), status: status)
    }

    /// Another member may follow; anything else after the last member is ignored, as gzip(1) does.
    func continuesAfterStreamEnd(_ input: CompressedInput) throws -> Bool {
        guard try input.peek(2) == [0x1F, 0x8B] else { return false }
        inflateReset(stream)
        return true
    }
}
