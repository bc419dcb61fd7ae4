import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A minimal HTTP/1.1 server on 127.0.0.1 and a kernel-chosen port, so URLSession is tested over a real socket.
///
/// Each connection is read up to the end of the request head; then the server either answers with a fixed response and
/// closes, or holds the connection open and reports when the client closes it (which is how a cancelled task shows).
final class LoopbackHTTPServer: @unchecked Sendable {
    enum Behaviour {
        case respond(status: Int, body: String)
        case hold
    }

    let port: UInt16
    private let listener: Int32
    private let behaviour: Behaviour
    private let lock = NSLock()
    private var requestHeads: [String] = []
    private var closedByClient = 0
    private let onClientClose: (@Sendable () -> Void)?

    init(behaviour: Behaviour, onClientClose: (@Sendable () -> Void)? = nil) throws {
        self.behaviour = behaviour
        self.onClientClose = onClientClose
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 8) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// The URL of `path` on this server.
    func url(_ path: String = "/") -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// The request heads received so far.
    var requests: [String] {
        lock.withLock { requestHeads }
    }

    /// Stops accepting connections. Only shuts the socket down: the accept thread closes it on its way out, so the
    /// descriptor number cannot be reused by another server while that thread still uses it.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                close(listener)
                return
            }
            let head = readHead(connection)
            lock.withLock { requestHeads.append(head) }
            switch behaviour {
            case .respond(let status, let body):
                let bytes = Array(body.utf8)
                let response =
                    "HTTP/1.1 \(status) Status\r\nContent-Length: \(bytes.count)\r\n"
                    + "Content-Type: text/plain\r\nConnection: close\r\n\r\n" + body
                let data = Array(response.utf8)
                _ = data.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                close(connection)
            case .hold:
                Thread { [self] in
                    var byte: UInt8 = 0
                    while recv(connection, &byte, 1, 0) > 0 {}
                    close(connection)
                    lock.withLock { closedByClient += 1 }
                    onClientClose?()
                }.start()
            }
        }
    }

    private func readHead(_ connection: Int32) -> String {
        var received: [UInt8] = []
        var byte: UInt8 = 0
        while recv(connection, &byte, 1, 0) == 1 {
            received.append(byte)
            if received.count >= 4, received.suffix(4) == [13, 10, 13, 10] { break }
        }
        return String(decoding: received, as: UTF8.self)
    }
}
