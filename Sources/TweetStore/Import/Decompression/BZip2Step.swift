import CBZip2

/// bzip2 through libbz2.
final class BZip2Step: DecompressionStep {
    private let stream = UnsafeMutablePointer<bz_stream>.allocate(capacity: 1)
    let format = "bzip2"

    init() throws {
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

    func step(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, inputEnded: Bool,
        pendingOutput: Bool
    ) -> DecompressionResult {
        // Without input, only output left inside the decoder by a full buffer can still come.
        if inputEnded, !pendingOutput { return DecompressionResult(consumed: 0, produced: 0, status: .truncated) }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: CChar.self))
        stream.pointee.avail_in = UInt32(input.count)
        stream.pointee.next_out = output.baseAddress!.assumingMemoryBound(to: CChar.self)
        stream.pointee.avail_out = UInt32(output.count)
        let code = BZ2_bzDecompress(stream)
        let status: DecompressionResult.Status
        switch code {
        case BZ_OK: status = .running
        case BZ_STREAM_END: status = .streamEnded
        default: status = .corrupt
        }
        return DecompressionResult(
            consumed: input.count - Int(stream.pointee.avail_in),
            produced: output.count - Int(stream.pointee.avail_out), status: status)
    }

    /// pbzip2 writes one stream per block: start again when another stream follows.
    func continuesAfterStreamEnd(_ input: CompressedInput) throws -> Bool {
        guard try input.peek(3) == [0x42, 0x5A, 0x68] else { return false }
        BZ2_bzDecompressEnd(stream)
        stream.pointee = bz_stream()
        guard BZ2_bzDecompressInit(stream, 0, 0) == BZ_OK else {
            throw ImportInputError(message: "cannot restart bzip2 decompression")
        }
        return true
    }
}
