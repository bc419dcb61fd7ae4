import CZstd

/// Zstandard through libzstd's streaming decoder, which reads frame after frame by itself.
final class ZstdStep: DecompressionStep {
    private let stream: OpaquePointer
    /// What `ZSTD_decompressStream` returned last: 0 exactly when a frame has just ended.
    private var lastHint = 1
    let format = "zstd"

    init() throws {
        guard let stream = ZSTD_createDStream() else {
            throw ImportInputError(message: "cannot start zstd decompression")
        }
        self.stream = stream
        ZSTD_initDStream(stream)
    }

    deinit { ZSTD_freeDStream(stream) }

    func step(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, inputEnded: Bool,
        pendingOutput: Bool
    ) -> DecompressionResult {
        // Without input and output held back, the data ends here: at a frame's end, or inside one.
        if inputEnded, !pendingOutput {
            return DecompressionResult(consumed: 0, produced: 0, status: lastHint == 0 ? .finished : .truncated)
        }
        var source = ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: 0)
        var target = ZSTD_outBuffer(dst: output.baseAddress, size: output.count, pos: 0)
        let hint = ZSTD_decompressStream(stream, &target, &source)
        let failed = ZSTD_isError(hint) != 0
        if !failed { lastHint = hint }
        return DecompressionResult(consumed: source.pos, produced: target.pos, status: failed ? .corrupt : .running)
    }

    /// Frames follow one another inside the decoder, so it never reports a stream's end.
    func continuesAfterStreamEnd(_ input: CompressedInput) throws -> Bool { false }
}
