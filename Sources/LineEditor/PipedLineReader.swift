import Glibc

/// Reads lines plainly from a pipe or file: no prompt, no escape codes, no history recording.
///
/// Used when standard input is not a terminal (`tweetsh < script`, `echo search x | tweetsh`), so output stays clean
/// for whatever consumes it. A last line without a newline is still returned, and reads interrupted by a signal are
/// retried.
public final class PipedLineReader: LineReader {
    /// The history given at creation; piped input is not recorded into it.
    public let history: History?
    /// Always false: nobody is typing at a pipe.
    public var isInteractive: Bool { false }

    private let fileDescriptor: Int32
    private var buffer = LineBuffer()
    private var atEnd = false

    /// Reads from `fileDescriptor` (standard input by default), which the reader does not close.
    public init(fileDescriptor: Int32 = 0, history: History? = nil) {
        self.fileDescriptor = fileDescriptor
        self.history = history
    }

    /// Returns the next line; the prompt is not shown.
    public func readLine(prompt: String) throws -> ReadResult {
        while true {
            if let line = buffer.nextLine() { return .line(line) }
            if atEnd {
                return buffer.finish().map(ReadResult.line) ?? .endOfInput
            }
            try fill()
        }
    }

    /// Returns the next line; piped input has no echo to turn off.
    public func readSecret(prompt: String) throws -> ReadResult {
        try readLine(prompt: prompt)
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer.append(chunk[0..<count])
                return
            }
            if count == 0 {
                atEnd = true
                return
            }
            switch errno {
            case EINTR:
                continue
            case EAGAIN:
                // A non-blocking descriptor: wait until there is something to read.
                var request = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&request, 1, -1)
            default:
                throw LineEditorError.input(operation: "read", errno: errno)
            }
        }
    }
}

/// Splits a byte stream into lines. Pure, so the edge cases are tested without descriptors.
struct LineBuffer {
    private var bytes: [UInt8] = []
    private var start = 0

    mutating func append<Bytes: Sequence<UInt8>>(_ more: Bytes) {
        if start > 0 && start >= bytes.count / 2 {
            bytes.removeFirst(start)
            start = 0
        }
        bytes.append(contentsOf: more)
    }

    /// The next complete line without its `\n` (or `\r\n`), if one has arrived.
    mutating func nextLine() -> String? {
        guard let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        let line = Self.text(bytes[start..<newline])
        start = newline + 1
        return line
    }

    /// The unterminated last line at the end of input, if there is one.
    mutating func finish() -> String? {
        guard start < bytes.count else { return nil }
        let line = Self.text(bytes[start...])
        start = bytes.count
        return line
    }

    /// Decodes UTF-8, replacing invalid bytes rather than failing, and drops a carriage return before the newline.
    private static func text(_ slice: ArraySlice<UInt8>) -> String {
        var slice = slice
        if slice.last == UInt8(ascii: "\r") { slice = slice.dropLast() }
        return String(decoding: slice, as: UTF8.self)
    }
}
