import Foundation
import Synchronization
import TweetKit

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback HTTP/1.1 server that speaks the X API v2 contract over a fixture corpus.
///
/// It binds 127.0.0.1 on a port the kernel picks, so tests run in parallel without clashes, checks the bearer token
/// on every `/2/` request, performs the `/oauth2/token` exchange, sends rate-limit headers, records every request it
/// received, and plays scripted faults. One thread accepts; each connection gets its own thread and is closed after
/// one response (`Connection: close`), which keeps faults like a dropped connection exact.
public final class StubServer: Sendable {
    /// The app and world the stub pretends to be.
    public struct Configuration: Sendable {
        /// The bearer token `/2/` requests must carry, and the one the token exchange issues.
        public var bearerToken: String
        /// The consumer key the token exchange accepts.
        public var consumerKey: String
        /// The consumer secret the token exchange accepts.
        public var consumerSecret: String
        /// What the endpoints serve.
        public var corpus: StubCorpus
        /// `x-rate-limit-limit` for every endpoint; a window runs out after this many requests.
        public var rateLimit: Int
        /// 0 picks a free port.
        public var port: UInt16

        /// Creates a configuration; the defaults suit most tests.
        public init(
            bearerToken: String = StubServer.defaultBearerToken, consumerKey: String = StubServer.defaultConsumerKey,
            consumerSecret: String = StubServer.defaultConsumerSecret, corpus: StubCorpus = .standard(),
            rateLimit: Int = 450, port: UInt16 = 0
        ) {
            self.bearerToken = bearerToken
            self.consumerKey = consumerKey
            self.consumerSecret = consumerSecret
            self.corpus = corpus
            self.rateLimit = rateLimit
            self.port = port
        }
    }

    /// A token shaped like X's, with the `%2B`/`%3D` escapes clients must send verbatim.
    public static let defaultBearerToken = "AAAAAAAAAAAAAAAAAAAAAStubTokenForTests%2Bq7x%3DZp4LmN0vR8sT2uW6yB"
    /// The consumer key the default stub accepts.
    public static let defaultConsumerKey = "stub-consumer-key"
    /// The consumer secret the default stub accepts; the `+` and `/` test the client's form encoding.
    public static let defaultConsumerSecret = "stub+secret/with=odd&chars"

    private struct State {
        var faults: [(path: String?, fault: StubFault)] = []
        var requests: [RecordedRequest] = []
        var abandoned: [RecordedRequest] = []
        var acceptedTokens: Set<String>
        var remaining: [String: Int] = [:]
        var windowReset: [String: Date] = [:]
        var stopped = false
    }

    /// The port the server listens on.
    public let port: UInt16
    /// The configuration it was started with.
    public let configuration: Configuration
    private let listenFD: Int32
    private let state: Mutex<State>
    let routes: StubRoutes
    private let acceptLoopDone = DispatchSemaphore(value: 0)
    /// The filtered stream (`GET /2/tweets/search/stream`) and the tweets it has posted.
    public let stream = StubStream()
    /// The filtered stream's rules (`/2/tweets/search/stream/rules`), with X's validation and a settable cap.
    public let streamRules = StubStreamRules()
    /// Tweets lookup for hydration: any id answered, chosen ids missing by reason (off by default).
    public let lookupWorld = StubLookupWorld()

    /// Binds and starts serving at once.
    public init(configuration: Configuration = Configuration()) throws {
        self.configuration = configuration
        let (fd, port) = try StubSocket.listen(port: configuration.port)
        self.listenFD = fd
        self.port = port
        self.state = Mutex(State(acceptedTokens: [configuration.bearerToken]))
        self.routes = StubRoutes(corpus: configuration.corpus)
        // The loop holds the server weakly, so a server a test forgets to stop is freed (and its socket closed) when the
        // test drops it.
        let thread = Thread { [weak self, listenFD, acceptLoopDone] in
            Self.acceptLoop(server: { self }, listenFD: listenFD, done: acceptLoopDone)
        }
        thread.name = "XAPIStub accept"
        thread.start()
    }

    deinit {
        // Not `stop()`: the last reference may be dropped on the accept thread itself, which must not wait for itself.
        // The loop sees the server gone within 50 ms and closes the socket.
    }

    /// `http://127.0.0.1:<port>`, to use as the client's base URL.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Stops accepting and closes the listening socket; connections in progress finish or are dropped.
    public func stop() {
        let wasRunning = state.withLock { state -> Bool in
            defer { state.stopped = true }
            return !state.stopped
        }
        if wasRunning { acceptLoopDone.wait() }
    }

    /// Queues a fault for the next request whose path starts with `path` (any request when nil).
    public func enqueue(_ fault: StubFault, path: String? = nil) {
        state.withLock { $0.faults.append((path, fault)) }
    }

    /// Queues faults in order, e.g. `[.serviceUnavailable, .serviceUnavailable]` before a success.
    public func enqueue(_ faults: [StubFault], path: String? = nil) {
        state.withLock { state in state.faults += faults.map { (path, $0) } }
    }

    /// True once `stop()` was called; open streams end then.
    var isStopped: Bool { state.withLock { $0.stopped } }

    /// Faults not yet used.
    public var pendingFaults: Int { state.withLock { $0.faults.count } }

    /// Every request received so far, in arrival order.
    public var requests: [RecordedRequest] { state.withLock { $0.requests } }

    /// Requests received on `path` exactly.
    public func requests(path: String) -> [RecordedRequest] { requests.filter { $0.path == path } }

    /// Requests whose client hung up while the stub was holding the response back (a cancelled slow request).
    public var abandonedRequests: [RecordedRequest] { state.withLock { $0.abandoned } }

    /// Forgets recorded requests (not faults or tokens).
    public func clearRecording() {
        state.withLock { state in
            state.requests.removeAll()
            state.abandoned.removeAll()
        }
    }

    /// Drops every queued fault.
    public func clearFaults() { state.withLock { $0.faults.removeAll() } }

    /// Whether `token` is still accepted (false after `/oauth2/invalidate_token`).
    public func accepts(token: String) -> Bool { state.withLock { $0.acceptedTokens.contains(token) } }

    // MARK: Serving

    private static func acceptLoop(server: () -> StubServer?, listenFD: Int32, done: DispatchSemaphore) {
        defer {
            close(listenFD)
            done.signal()
        }
        while true {
            guard let current = server(), !current.state.withLock({ $0.stopped }) else { return }
            guard StubSocket.waitReadable(listenFD, milliseconds: 50) else { continue }
            let client = accept(listenFD, nil, nil)
            guard client >= 0 else { continue }
            let connection = Thread { current.serve(client) }
            connection.name = "XAPIStub connection"
            connection.start()
        }
    }

    private func serve(_ fd: Int32) {
        defer { close(fd) }
        guard let (head, body) = StubSocket.readRequest(fd), let request = Self.parse(head: head, body: body) else {
            return
        }
        if !request.path.hasPrefix(StubServer.controlPrefix) { state.withLock { $0.requests.append(request) } }
        if serveStream(fd, request) { return }
        let response = respond(to: request)
        if response.closeWithoutResponse { return }
        if response.delay > 0 {
            let deadline = Date().addingTimeInterval(response.delay)
            while Date() < deadline {
                if state.withLock({ $0.stopped }) { return }
                if StubSocket.peerClosed(fd) {
                    state.withLock { $0.abandoned.append(request) }
                    return
                }
                usleep(10_000)
            }
        }
        var responseHead = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
        for (name, value) in response.headers { responseHead += "\(name): \(value)\r\n" }
        responseHead += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
        var bytes = Data(responseHead.utf8)
        bytes.append(response.truncate ? response.body.prefix(response.body.count / 2) : response.body)
        StubSocket.writeAll(fd, bytes)
        shutdown(fd, Int32(SHUT_WR))
    }

    static func parse(head: String, body: Data) -> RecordedRequest? {
        let lines = head.components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1.") else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        let target = String(requestLine[1])
        let pieces = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = RecordedRequest.decode(String(pieces[0]))
        let query = pieces.count > 1 ? RecordedRequest.decodeForm(String(pieces[1])) : [:]
        return RecordedRequest(
            method: String(requestLine[0]), path: path, target: target, query: query, headers: headers, body: body)
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Status"
        }
    }

    private func respond(to request: RecordedRequest) -> StubResponse {
        if request.path.hasPrefix(StubServer.controlPrefix) { return control(request) }
        let fault = state.withLock { state -> StubFault? in
            guard let index = state.faults.firstIndex(where: { $0.path.map { request.path.hasPrefix($0) } ?? true })
            else { return nil }
            return state.faults.remove(at: index).fault
        }
        let endpoint = StubRoutes.endpoint(method: request.method, path: request.path)
        if let fault {
            return StubFaults.response(
                for: fault, normal: { normalResponse(request, endpoint: endpoint) }, rateHeaders: rateHeaders(endpoint))
        }
        return normalResponse(request, endpoint: endpoint)
    }

    private func normalResponse(_ request: RecordedRequest, endpoint: String?) -> StubResponse {
        guard let endpoint else { return StubResponse(status: 404) }
        switch endpoint {
        case "POST /oauth2/token": return exchangeToken(request)
        case "POST /oauth2/invalidate_token": return invalidateToken(request)
        default: break
        }
        let authorization = request.headers["authorization"] ?? ""
        let authorized = state.withLock { state in
            authorization.hasPrefix("Bearer ") && state.acceptedTokens.contains(String(authorization.dropFirst(7)))
        }
        guard authorized else {
            return StubFaults.response(for: .unauthorized, normal: { StubResponse(status: 500) }, rateHeaders: [])
        }
        let (headers, exhausted) = countRequest(endpoint)
        if exhausted {
            var response = StubResponse.problem(429, title: "Too Many Requests", detail: "Too Many Requests")
            response.headers += headers
            return response
        }
        var response =
            collectResponse(request, endpoint: endpoint) ?? routesIncludingStream().handle(request, endpoint: endpoint)
        response.headers += headers
        return response
    }

    /// Counts a request against its endpoint's window; returns the headers to send and whether the window was empty.
    private func countRequest(_ endpoint: String) -> ([(String, String)], Bool) {
        let limit = configuration.rateLimit
        return state.withLock { state in
            let now = Date()
            if let reset = state.windowReset[endpoint], reset > now {
            } else {
                state.windowReset[endpoint] = now.addingTimeInterval(900)
                state.remaining[endpoint] = limit
            }
            let left = state.remaining[endpoint] ?? limit
            let exhausted = left <= 0
            if !exhausted { state.remaining[endpoint] = left - 1 }
            let reset = Int(state.windowReset[endpoint]!.timeIntervalSince1970.rounded(.up))
            return (
                [
                    ("x-rate-limit-limit", "\(limit)"), ("x-rate-limit-remaining", "\(max(0, left - 1))"),
                    ("x-rate-limit-reset", "\(reset)"),
                ], exhausted
            )
        }
    }

    private func rateHeaders(_ endpoint: String?) -> [(String, String)] {
        guard let endpoint, endpoint.hasPrefix("GET") else { return [] }
        return state.withLock { state in
            let reset = state.windowReset[endpoint] ?? Date().addingTimeInterval(900)
            return [
                ("x-rate-limit-limit", "\(configuration.rateLimit)"),
                ("x-rate-limit-remaining", "\(state.remaining[endpoint] ?? configuration.rateLimit)"),
                ("x-rate-limit-reset", "\(Int(reset.timeIntervalSince1970.rounded(.up)))"),
            ]
        }
    }

    // MARK: OAuth 2 app-only

    private func basicCredentialsMatch(_ request: RecordedRequest) -> Bool {
        guard let header = request.headers["authorization"], header.hasPrefix("Basic "),
            let decoded = Data(base64Encoded: String(header.dropFirst(6))).map({ String(decoding: $0, as: UTF8.self) }),
            let colon = decoded.firstIndex(of: ":")
        else { return false }
        let key = String(decoded[..<colon]).removingPercentEncoding
        let secret = String(decoded[decoded.index(after: colon)...]).removingPercentEncoding
        return key == configuration.consumerKey && secret == configuration.consumerSecret
    }

    private static let credentialsRefused = StubResponse.json(
        403,
        [
            "errors": [
                ["code": 99, "label": "authenticity_token_error", "message": "Unable to verify your credentials"]
            ]
        ])

    private func exchangeToken(_ request: RecordedRequest) -> StubResponse {
        guard basicCredentialsMatch(request),
            request.headers["content-type"]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true
        else { return Self.credentialsRefused }
        guard request.form["grant_type"] == "client_credentials" else {
            return .json(
                400,
                [
                    "errors": [
                        [
                            "code": 170, "label": "forbidden_missing_parameter",
                            "message": "Missing required parameter: grant_type",
                        ]
                    ]
                ])
        }
        state.withLock { _ = $0.acceptedTokens.insert(configuration.bearerToken) }
        return .json(200, ["token_type": "bearer", "access_token": configuration.bearerToken])
    }

    private func invalidateToken(_ request: RecordedRequest) -> StubResponse {
        guard basicCredentialsMatch(request) else { return Self.credentialsRefused }
        let token = request.form["access_token"] ?? ""
        let removed = state.withLock { $0.acceptedTokens.remove(token) != nil }
        guard removed else {
            return .json(
                403,
                ["errors": [["code": 348, "message": "Client application is not permitted to invalidate this token."]]])
        }
        return .json(200, ["access_token": token])
    }
}
