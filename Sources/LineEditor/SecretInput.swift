import Glibc

/// Reads a secret from a terminal without echoing it.
///
/// libedit is not used: it would echo, and the line would pass through its history and kill buffer. The terminal is
/// put in a non-canonical, no-echo, no-signal mode for the duration, and restored even if the process is killed.
enum SecretInput {
    static func read(prompt: String, input: Int32, output: Int32) throws -> ReadResult {
        let result = try TerminalSignals.guardingTerminal(input) { () throws -> ReadResult in
            var settings = termios()
            guard tcgetattr(input, &settings) == 0 else {
                throw LineEditorError.input(operation: "tcgetattr", errno: errno)
            }
            settings.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
            withUnsafeMutableBytes(of: &settings.c_cc) { cc in
                cc[Int(VMIN)] = 1
                cc[Int(VTIME)] = 0
            }
            guard tcsetattr(input, TCSANOW, &settings) == 0 else {
                throw LineEditorError.input(operation: "tcsetattr", errno: errno)
            }
            // Only now, with echo off: a secret typed as soon as the prompt shows must not be echoed.
            writeAll(output, prompt)
            var editor = SecretLineEditor()
            while true {
                var byte: UInt8 = 0
                let count = Glibc.read(input, &byte, 1)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw LineEditorError.input(operation: "read", errno: errno)
                }
                if let outcome = editor.feed(count == 0 ? nil : byte) { return outcome }
            }
        }
        writeAll(output, "\n")
        return result
    }
}

/// The editing a secret prompt allows, byte by byte: backspace, ^U, Enter, ^C, ^D. Pure, so it is tested directly.
struct SecretLineEditor {
    private var bytes: [UInt8] = []

    /// Takes the next byte (nil at end of input) and returns the result once the read is over.
    mutating func feed(_ byte: UInt8?) -> ReadResult? {
        guard let byte else {
            return bytes.isEmpty ? .endOfInput : finish()
        }
        switch byte {
        case 0x0D, 0x0A:
            return finish()
        case 0x03:
            erase()
            return .interrupted
        case 0x04:
            return bytes.isEmpty ? .endOfInput : nil
        case 0x7F, 0x08:
            // Remove one whole UTF-8 character: its continuation bytes, then its lead byte.
            while let last = bytes.last, last & 0xC0 == 0x80 { bytes.removeLast() }
            if !bytes.isEmpty { bytes.removeLast() }
        case 0x15:
            erase()
        case 0x00..<0x20:
            break
        default:
            bytes.append(byte)
        }
        return nil
    }

    private mutating func finish() -> ReadResult {
        let line = String(decoding: bytes, as: UTF8.self)
        erase()
        return .line(line)
    }

    /// Overwrites the secret's bytes before dropping them.
    private mutating func erase() {
        for index in bytes.indices { bytes[index] = 0 }
        bytes.removeAll()
    }
}

/// Writes all of `text` to `fd`, retrying short writes and EINTR; errors are ignored (there is nowhere to report them).
func writeAll(_ fd: Int32, _ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if written < 0 && errno == EINTR { continue }
        if written <= 0 { return }
        offset += written
    }
    bytes.removeAll()
}
