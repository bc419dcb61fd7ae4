import CLZMA

/// xz through liblzma, which reads concatenated streams by itself.
final class XZStep: DecompressionStep {
    /// `LZMA_CONCATENATED` from lzma.h, whose `UINT32_C` form Swift does not import: read stream after stream.
    private static let concatenated: UInt32 = 0x08
    private let stream = UnsafeMutablePointer<lzma_stream>.allocate(capacity: 1)
    let format = "xz"

    init() throws {
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

    func step(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, inputEnded: Bool,
        pendingOutput: Bool
    ) -> DecompressionResult {
        stream.pointee.next_in = input.baseAddress?.assumingMemoryBound(to: UInt8.self)
        stream.pointee.avail_in = input.count
        stream.pointee.next_out = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
        stream.pointee.avail_out = output.count
        // With concatenated streams, only LZMA_FINISH tells the decoder that no further stream follows.
        let code = lzma_code(stream, inputEnded ? LZMA_FINISH : LZMA_RUN)
        let produced = output.count - stream.pointee.avail_out
        let status: DecompressionResult.Status
        switch code {
        case LZMA_OK: status = inputEnded && produced == 0 ? .truncated : .running
        case LZMA_STREAM_END: status = .finished
        case LZMA_BUF_ERROR: status = .truncated
        default: status = .corrupt
        }
        return DecompressionResult(consumed: input.count - stream.pointee.avail_in, produced: produced, status: status)
    }

    /// liblzma reports the end only after the last stream, so nothing follows it.
    func continuesAfterStreamEnd(_ input: CompressedInput) throws -> Bool { false }
}
