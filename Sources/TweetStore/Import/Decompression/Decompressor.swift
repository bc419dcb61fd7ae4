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
        let step: DecompressionStep
        switch self {
        case .gzip: step = try GzipStep()
        case .bzip2: step = try BZip2Step()
        case .xz: step = try XZStep()
        case .zstd: step = try ZstdStep()
        }
        return DecompressingSource(inner, step: step)
    }
}

/// What one call into a decompression library did.
struct DecompressionResult {
    /// How the decoder stands after the call.
    enum Status {
        /// More input or output room will let it go on.
        case running
        /// A stream (gzip member, bzip2 stream) ended; another may follow.
        case streamEnded
        /// The data ended where it may end: nothing more comes.
        case finished
        /// The input ended inside a stream.
        case truncated
        /// The decoder rejected the data.
        case corrupt
    }

    /// Input bytes the call used.
    var consumed: Int
    /// Output bytes the call wrote.
    var produced: Int
    var status: Status
}

/// One library's decoder, driven by `DecompressingSource`: feed it input, take its output, hear whether it is done.
///
/// Steps are classes because they own the library's C state, which they free exactly once in `deinit`.
protocol DecompressionStep: AnyObject {
    /// The format's name, for messages (`the gzip data ends early`).
    var format: String { get }

    /// Decodes from `input` into `output` once.
    ///
    /// - Parameters:
    ///   - inputEnded: no more input will come than `input` holds (which is then empty).
    ///   - pendingOutput: the last call filled its output, so the decoder may hold output that needs no more input.
    func step(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, inputEnded: Bool,
        pendingOutput: Bool
    ) -> DecompressionResult

    /// After `.streamEnded`: whether another stream starts at `input`'s next bytes; if so the decoder is ready for it.
    func continuesAfterStreamEnd(_ input: CompressedInput) throws -> Bool
}

/// A `ByteSource` that decompresses another as it is read, through one library's `DecompressionStep`.
///
/// A truncated or corrupt file ends the stream after the last bytes that decoded, and `problem` says why; everything
/// decoded before that point is still read.
final class DecompressingSource: ByteSource {
    private let input: CompressedInput
    private let decoder: DecompressionStep
    private var finished = false
    private var outputWasFull = false
    private(set) var problem: String?
    var position: UInt64 { input.inner.position }

    init(_ inner: ByteSource, step: DecompressionStep) {
        input = CompressedInput(inner)
        decoder = step
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while !finished {
            let more = try input.refillIfEmpty()
            let result = decoder.step(
                UnsafeRawBufferPointer(start: input.pointer, count: input.available), into: buffer, inputEnded: !more,
                pendingOutput: outputWasFull)
            input.start += result.consumed
            outputWasFull = result.produced == buffer.count
            switch result.status {
            case .running:
                break
            case .streamEnded:
                if try !decoder.continuesAfterStreamEnd(input) { finished = true }
            case .finished:
                finished = true
            case .truncated:
                problem = "the \(decoder.format) data ends early: the file is truncated"
                finished = true
            case .corrupt:
                problem = "the \(decoder.format) data is corrupt after \(position) bytes of the file"
                finished = true
            }
            if result.produced > 0 { return result.produced }
        }
        return 0
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
