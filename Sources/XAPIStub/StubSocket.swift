import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The POSIX socket calls the stub needs, each wrapped so errors become Swift errors with errno's text.
enum StubSocket {
    struct Failure: Error, CustomStringConvertible {
        var call: String
        var code: Int32
        var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
    }

    /// A listening TCP socket on 127.0.0.1; `port` 0 lets the kernel choose. Returns the descriptor and the port.
    static func listen(port: UInt16) throws -> (fd: Int32, port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(call: "socket", code: errno) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let code = errno
            close(fd)
            throw Failure(call: "bind", code: code)
        }
        guard Glibc.listen(fd, 64) == 0 else {
            let code = errno
            close(fd)
            throw Failure(call: "listen", code: code)
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, UInt16(bigEndian: actual.sin_port))
    }

    /// Waits up to `milliseconds` for `fd` to become readable (or hung up).
    static func waitReadable(_ fd: Int32, milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, milliseconds) > 0
    }

    /// True when the peer has closed its end: readable, yet a peek reads nothing.
    static func peerClosed(_ fd: Int32) -> Bool {
        guard waitReadable(fd, milliseconds: 0) else { return false }
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// Reads one HTTP/1.1 request: head up to the blank line, then `Content-Length` bytes of body.
    /// Nil when the peer closes first or sends something that is not HTTP; gives up after `timeout` seconds of silence.
    static func readRequest(_ fd: Int32, timeout: Int32 = 5000) -> (head: String, body: Data)? {
        var buffer = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let separator: [UInt8] = [13, 10, 13, 10]
        var headEnd: Int?
        var expected = 0
        while true {
            if let end = headEnd, buffer.count >= end + expected { break }
            guard waitReadable(fd, milliseconds: timeout) else { return nil }
            let count = recv(fd, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[0..<count])
            if headEnd == nil, let range = firstRange(of: separator, in: buffer) {
                headEnd = range
                let head = String(decoding: buffer[0..<range], as: UTF8.self)
                expected = contentLength(head)
            }
            if buffer.count > 8 * 1024 * 1024 { return nil }
        }
        guard let end = headEnd else { return nil }
        let head = String(decoding: buffer[0..<end], as: UTF8.self)
        let bodyStart = end + 4
        return (head, Data(buffer[bodyStart..<min(buffer.count, bodyStart + expected)]))
    }

    private static func firstRange(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count) where haystack[index] == needle[0] {
            if Array(haystack[index..<(index + needle.count)]) == needle { return index }
        }
        return nil
    }

    private static func contentLength(_ head: String) -> Int {
        for line in head.split(separator: "\r\n").dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "content-length" {
                return Int(parts[1].trimmingCharacters(in: .whitespaces)) ?? 0
            }
        }
        return 0
    }

    /// Writes all bytes, ignoring a peer that has gone (no SIGPIPE).
    @discardableResult
    static func writeAll(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw -> Bool in
            guard let base = raw.baseAddress else { return true }
            var offset = 0
            while offset < raw.count {
                let sent = send(fd, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent <= 0 { return false }
                offset += sent
            }
            return true
        }
    }
}
