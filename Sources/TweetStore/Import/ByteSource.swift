import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A stream of bytes an import reads: a file, standard input, or a decompressor over one of those.
///
/// Sources are classes because the decompressors own C state that must be freed exactly once.
package protocol ByteSource: AnyObject {
    /// Fills the start of `buffer` with the next bytes and returns how many; 0 only at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
    /// Bytes of the underlying file consumed so far (compressed bytes under a decompressor), for progress.
    var position: UInt64 { get }
    /// Why the stream ended before its data did (a truncated or corrupt compressed file), once it has ended.
    var problem: String? { get }
}

/// Reads a file descriptor with `read(2)`, retrying interruptions.
package final class DescriptorSource: ByteSource {
    private let descriptor: Int32
    private let closesDescriptor: Bool
    package private(set) var position: UInt64
    package var problem: String? { nil }

    /// Opens `path` for reading, at `offset`.
    package init(path: String, offset: UInt64 = 0) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ImportInputError(message: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        if offset > 0, lseek(descriptor, off_t(offset), SEEK_SET) < 0 {
            close(descriptor)
            throw ImportInputError(message: "cannot seek in \(path)")
        }
        self.descriptor = descriptor
        self.closesDescriptor = true
        self.position = offset
    }

    /// Reads standard input, which stays open afterwards.
    init(standardInput: Void) {
        descriptor = STDIN_FILENO
        closesDescriptor = false
        position = 0
    }

    deinit {
        if closesDescriptor { close(descriptor) }
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            let count = Glibc.read(descriptor, base, buffer.count)
            if count >= 0 {
                position += UInt64(count)
                return count
            }
            if errno == EINTR { continue }
            throw ImportInputError(message: "reading failed: \(String(cString: strerror(errno)))")
        }
    }
}

/// Returns bytes already read (to look at a file's first bytes) before reading on from the source they came from.
final class PushbackSource: ByteSource {
    private var pending: [UInt8]
    private var start = 0
    private let inner: ByteSource

    init(_ pending: [UInt8], before inner: ByteSource) {
        self.pending = pending
        self.inner = inner
    }

    var position: UInt64 { inner.position }
    var problem: String? { inner.problem }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard start < pending.count else { return try inner.read(into: buffer) }
        let count = min(buffer.count, pending.count - start)
        pending.withUnsafeBytes { bytes in
            buffer.baseAddress?.copyMemory(from: bytes.baseAddress! + start, byteCount: count)
        }
        start += count
        if start == pending.count { pending = [] }
        return count
    }
}

extension ByteSource {
    /// Reads until `count` bytes are gathered or the source ends (a pipe or decompressor may return less per call).
    func readPrefix(_ count: Int) throws -> [UInt8] {
        var prefix = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = try prefix.withUnsafeMutableBytes {
                try read(into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...]))
            }
            if got == 0 { break }
            filled += got
        }
        prefix.removeLast(count - filled)
        return prefix
    }
}

/// A file or stream that cannot be imported, or could not be read; the message is meant for the user as it is.
public struct ImportInputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, in one line (`not JSON text: looks like a PNG image`).
    public var message: String

    /// Creates an error.
    public init(message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
