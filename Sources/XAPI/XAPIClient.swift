import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The HTTP layer of the X API: authorization, retries, rate-limit waits and typed errors.
///
/// One client serves the whole shell; it keeps the latest rate-limit window of every endpoint for `limits`.
/// `XAPISource` builds the endpoints on top of `get(_:endpoint:query:)`.
public final class XAPIClient: Sendable, CustomStringConvertible, CustomReflectable {
    /// Hooks and policies a client is created with.
    public struct Configuration: Sendable {
        /// Base URL, timeouts, User-Agent.
        public var settings: XAPISettings
        /// Retry and wait policy.
        public var retry: RetryPolicy
        /// Time source; tests inject a virtual one.
        public var clock: XAPIClock
        /// Called about once a second during every wait (rate limit or backoff), from the waiting task.
        public var onWait: (@Sendable (RateLimitWait) -> Void)?
        /// One line per request and per decision (`GET /2/... -> 200`); never holds a token.
        public var log: (@Sendable (String) -> Void)?

        /// Creates a configuration.
        public init(
            settings: XAPISettings = XAPISettings(), retry: RetryPolicy = RetryPolicy(), clock: XAPIClock = .system,
            onWait: (@Sendable (RateLimitWait) -> Void)? = nil, log: (@Sendable (String) -> Void)? = nil
        ) {
            self.settings = settings
            self.retry = retry
            self.clock = clock
            self.onWait = onWait
            self.log = log
        }
    }

    /// How a request authorizes itself.
    enum Authorization {
        /// The client's bearer token (every `/2/` endpoint).
        case bearer
        /// Consumer key and secret (`/oauth2/token`, `/oauth2/invalidate_token`).
        case basic(key: String, secret: String)
    }

    /// The configuration the client was created with.
    public let configuration: Configuration
    private let transport: HTTPTransport
    private let book = RateLimitBook()
    private let token: Mutex<BearerToken?>

    /// Creates a client; `token` may be set later with `setToken(_:)` (after `auth`).
    public init(configuration: Configuration = Configuration(), token: BearerToken? = nil) {
        self.configuration = configuration
        self.transport = HTTPTransport(settings: configuration.settings)
        self.token = Mutex(token)
    }

    /// Replaces (or with nil, forgets) the bearer token used from the next request on.
    public func setToken(_ newToken: BearerToken?) { token.withLock { $0 = newToken } }

    /// The current token, masked for display (`AAAA…`); nil when signed out.
    public var maskedToken: String? { token.withLock { $0?.masked } }

    func currentToken() -> BearerToken? { token.withLock { $0 } }

    /// Whether `word` is the client's token, holds it, or is a long enough prefix of it (see `BearerToken.isHeld(in:)`),
    /// so the shell can refuse to send or record it without ever seeing the value.
    public func tokenIsHeld(in word: String) -> Bool { token.withLock { $0?.isHeld(in: word) ?? false } }

    /// Whether a token is set.
    public var hasToken: Bool { token.withLock { $0 != nil } }

    /// The base URL and the masked token, never the token itself.
    public var description: String {
        "XAPIClient(\(configuration.settings.baseURL), token: \(maskedToken ?? "none"))"
    }

    /// Reflection (`dump`, debuggers) sees the same masked summary instead of the stored token.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "baseURL": configuration.settings.baseURL, "token": maskedToken ?? "none", "rateLimits": book.all(),
            ])
    }

    /// The latest rate-limit window of every endpoint called so far, sorted by endpoint.
    public func rateLimits() -> [RateLimitStatus] { book.all() }

    /// GETs an API path (`/2/tweets/search/recent`) with the bearer token and returns the 2xx body.
    ///
    /// `endpoint` names the path template (`GET /2/tweets/:id`) for rate limits, wait events and errors.
    /// Throws `XAPIError` (redacted) or `CancellationError`.
    public func get(_ path: String, endpoint: String, query: [URLQueryItem] = []) async throws -> Data {
        try await perform(method: "GET", path: path, endpoint: endpoint, query: query, authorization: .bearer).body
    }

    /// Sends one request with retries; returns the first 2xx response.
    func perform(
        method: String, path: String, endpoint: String, query: [URLQueryItem] = [], form: [(String, String)]? = nil,
        json: Data? = nil, authorization: Authorization
    ) async throws -> HTTPResponse {
        let currentToken = token.withLock { $0 }
        do {
            var request = try makeRequest(
                method: method, path: path, query: query, form: form, authorization: authorization, token: currentToken)
            if let json {
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                request.httpBody = json
            }
            return try await sendWithRetries(request, endpoint: endpoint)
        } catch let error as XAPIError {
            throw Self.redacted(error, token: currentToken, authorization: authorization)
        }
    }

    private func makeRequest(
        method: String, path: String, query: [URLQueryItem], form: [(String, String)]?, authorization: Authorization,
        token: BearerToken?
    ) throws(XAPIError) -> URLRequest {
        let settings = configuration.settings
        guard let url = settings.url(path: path, query: query) else {
            throw .invalidSetting("Cannot build a URL from base \(settings.baseURL) and path \(path).")
        }
        var request = URLRequest(url: url, timeoutInterval: settings.effectiveRequestTimeout)
        request.httpMethod = method
        request.setValue(settings.userAgent, forHTTPHeaderField: "User-Agent")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        switch authorization {
        case .bearer:
            guard let token else { throw .missingCredentials }
            // Sent verbatim: tokens contain `%2B`/`%3D`, which must not be decoded or re-encoded.
            request.setValue("Bearer \(token.revealForAuthorizationHeader())", forHTTPHeaderField: "Authorization")
        case .basic(let key, let secret):
            let pair = XAPISettings.formEncode(key) + ":" + XAPISettings.formEncode(secret)
            request.setValue("Basic \(Data(pair.utf8).base64EncodedString())", forHTTPHeaderField: "Authorization")
        }
        if let form {
            request.setValue("application/x-www-form-urlencoded;charset=UTF-8", forHTTPHeaderField: "Content-Type")
            let body = form.map { "\(XAPISettings.formEncode($0.0))=\(XAPISettings.formEncode($0.1))" }.joined(
                separator: "&")
            request.httpBody = Data(body.utf8)
        }
        return request
    }

    private func sendWithRetries(_ request: URLRequest, endpoint: String) async throws -> HTTPResponse {
        let policy = configuration.retry
        var attempt = 0
        var windowWaits = 0
        while true {
            try Task.checkCancellation()
            attempt += 1
            let started = configuration.clock.now()
            let response: HTTPResponse
            do {
                response = try await transport.send(request)
            } catch {
                if Task.isCancelled { throw CancellationError() }
                let failure = NetworkFailure(error)
                log("\(endpoint) -> \(failure.reason) (try \(attempt) of \(policy.maxAttempts))")
                guard failure.isRetryable, attempt < policy.maxAttempts else {
                    throw failure.isTimeout
                        ? XAPIError.timedOut(endpoint: endpoint, attempts: attempt)
                        : XAPIError.network(endpoint: endpoint, reason: failure.reason, attempts: attempt)
                }
                try await backoff(after: attempt, endpoint: endpoint, cause: failure.reason)
                continue
            }
            let now = configuration.clock.now()
            if let status = RateLimitStatus(endpoint: endpoint, headers: response.headers, observedAt: now) {
                book.record(status)
            }
            let millis = Int((now.timeIntervalSince(started) * 1000).rounded())
            log("\(endpoint) -> \(response.status) in \(millis) ms" + remainingNote(endpoint))
            if (200..<300).contains(response.status) { return response }

            let verdict = ResponseClassifier.classify(
                status: response.status, headers: response.headers, body: response.body, endpoint: endpoint)
            switch verdict {
            case .fail(let error):
                throw error
            case .retry(let status, let title):
                guard attempt < policy.maxAttempts else {
                    throw XAPIError.server(endpoint: endpoint, status: status, title: title, attempts: attempt)
                }
                try await backoff(
                    after: attempt, endpoint: endpoint, cause: "\(status)" + (title.map { " \($0)" } ?? ""))
            case .waitForWindow, .waitBriefly:
                var resetAt: Date?
                var until = now.addingTimeInterval(policy.rateLimitFallbackWait)
                if case .waitForWindow(let reset?) = verdict {
                    resetAt = reset
                    until = reset.addingTimeInterval(policy.rateLimitMargin)
                } else if case .waitBriefly = verdict {
                    until = now.addingTimeInterval(1 + policy.rateLimitMargin)
                }
                let seconds = until.timeIntervalSince(now)
                guard policy.waitForRateLimits, windowWaits < policy.maxRateLimitWaits,
                    seconds <= policy.maxRateLimitWait
                else {
                    throw XAPIError.rateLimited(endpoint: endpoint, resetAt: resetAt)
                }
                windowWaits += 1
                // A window wait is not a failed try: the request was fine, the window was not.
                attempt -= 1
                log("\(endpoint) -> rate limited; waiting \(Int(seconds.rounded(.up))) s for the window to reset")
                try await wait(until: until, endpoint: endpoint, reason: .rateLimit)
            }
        }
    }

    private func backoff(after attempt: Int, endpoint: String, cause: String) async throws {
        let policy = configuration.retry
        let delay = policy.backoff(afterAttempt: attempt, jitter: Double.random(in: 0..<1))
        let until = configuration.clock.now().addingTimeInterval(delay)
        try await wait(
            until: until, endpoint: endpoint,
            reason: .retry(attempt: attempt + 1, maxAttempts: policy.maxAttempts, cause: cause))
    }

    /// Sleeps until `until` in steps of at most a second, emitting a countdown event before each step and a final
    /// zero event; a cancelled task ends the wait at once (the clock's sleep throws).
    func wait(until: Date, endpoint: String, reason: RateLimitWait.Reason) async throws {
        let clock = configuration.clock
        defer { configuration.onWait?(RateLimitWait(endpoint: endpoint, secondsLeft: 0, until: until, reason: reason)) }
        while true {
            try Task.checkCancellation()
            let left = until.timeIntervalSince(clock.now())
            if left <= 0 { return }
            configuration.onWait?(
                RateLimitWait(
                    endpoint: endpoint, secondsLeft: Int(left.rounded(.up)), until: until, reason: reason))
            let step = min(left, 1.0)
            try await clock.sleep(.milliseconds(Int64((step * 1000).rounded(.up))))
        }
    }

    private func remainingNote(_ endpoint: String) -> String {
        guard let status = book.status(for: endpoint), let remaining = status.remaining else { return "" }
        return " (\(remaining)" + (status.limit.map { "/\($0)" } ?? "") + " left)"
    }

    private func log(_ line: String) {
        guard let sink = configuration.log else { return }
        sink(token.withLock { $0 }.map { $0.redact(line) } ?? line)
    }

    /// Errors carry server text (a 400's message, a 403's detail); never let a token echoed there escape.
    static func redacted(_ error: XAPIError, token: BearerToken?, authorization: Authorization) -> XAPIError {
        var secrets: [String] = token.map { [$0.revealForAuthorizationHeader()] } ?? []
        if case .basic(_, let secret) = authorization { secrets.append(secret) }
        guard secrets.contains(where: { !$0.isEmpty && error.description.contains($0) }) else { return error }
        return error.mappingText { text in
            var clean = text
            for secret in secrets where !secret.isEmpty {
                clean = clean.replacingOccurrences(of: secret, with: BearerToken.mask(secret))
            }
            return clean
        }
    }
}

/// A transport failure, sorted into retryable or not, with a short reason free of URLs and tokens.
struct NetworkFailure {
    var reason: String
    var isRetryable: Bool
    var isTimeout: Bool

    init(_ error: any Error) {
        guard let urlError = error as? URLError else {
            reason = "connection failed"
            isRetryable = true
            isTimeout = false
            return
        }
        isTimeout = urlError.code == .timedOut
        switch urlError.code {
        case .timedOut: reason = "timed out"
        case .cannotConnectToHost: reason = "connection refused"
        case .networkConnectionLost: reason = "connection lost"
        case .cannotFindHost, .dnsLookupFailed: reason = "host not found"
        case .notConnectedToInternet: reason = "not connected to the internet"
        case .badServerResponse, .cannotParseResponse: reason = "malformed or truncated response"
        case .zeroByteResource: reason = "empty response"
        // FoundationNetworking reports a body that ends before its Content-Length (curl's partial transfer) as
        // `.unknown`; a bare "-1" told the user nothing.
        case .unknown: reason = "connection failed or response cut short"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            reason = "TLS failure"
        default: reason = "network error \(urlError.code.rawValue)"
        }
        switch urlError.code {
        case .badURL, .unsupportedURL, .secureConnectionFailed, .serverCertificateUntrusted,
            .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected,
            .userAuthenticationRequired, .userCancelledAuthentication, .cancelled:
            isRetryable = false
        default:
            isRetryable = true
        }
    }
}
