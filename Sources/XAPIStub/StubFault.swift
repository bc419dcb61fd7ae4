import Foundation

/// A scripted misbehaviour for one request, so tests can walk the client through every error in the contract.
///
/// Faults are queued on `StubServer` and each one is used up by the next request whose path it matches.
public enum StubFault: Sendable, Hashable {
    /// 401 with the API's `Unauthorized` problem body and no rate-limit headers.
    case unauthorized
    /// 403 `client-forbidden` with `reason: client-not-enrolled`.
    case clientForbidden
    /// 403 `unsupported-authentication`.
    case unsupportedAuthentication
    /// 400 `invalid-request` about `query`, with `(at position N)` in the message.
    case badRequest(position: Int)
    /// 429 for the window: `x-rate-limit-remaining: 0`, `x-rate-limit-reset` at `resetAt` (Unix seconds, rounded up).
    case windowRateLimit(resetAt: Date)
    /// 429 for the window with the v1.1 body (`code 88`), which the docs also show.
    case legacyWindowRateLimit(resetAt: Date)
    /// A window 429 whose reset is `seconds` after the stub answers, not after it was queued: a loaded machine may
    /// take seconds to start the client, and a reset fixed at queueing time could pass before the request comes.
    case windowRateLimitOnAnswer(seconds: Double, legacy: Bool)
    /// 429 `Too Many Requests` with requests left in the window: full-archive search's 1-request-a-second limit,
    /// which the headers do not show.
    case perSecondRateLimit
    /// 429 `usage-capped` with requests still left in the window: waiting does not help.
    case usageCap
    /// A 5xx problem body (503 `Service Unavailable` by default).
    case serverError(status: Int)
    /// The normal response, sent after `seconds`; abandoned early if the client hangs up.
    case slow(seconds: Double)
    /// A 200 whose `Content-Length` promises more than is sent before the connection closes.
    case truncatedBody
    /// 404 with an HTML page.
    case html404
    /// 404 with an empty body.
    case empty404
    /// The connection is closed after reading the request, without any response.
    case closeConnection
    /// `/oauth2/token` answers with a `token_type` other than `bearer`.
    case tokenTypeNotBearer

    /// A window 429 whose reset is `seconds` after the stub sends it.
    public static func windowRateLimit(after seconds: Double) -> StubFault {
        .windowRateLimitOnAnswer(seconds: seconds, legacy: false)
    }

    /// 503 Service Unavailable.
    public static var serviceUnavailable: StubFault { .serverError(status: 503) }

    /// Parses the standalone stub's `--fault` spelling: `401`, `403-client`, `403-auth`, `400@N`, `429@SECONDS`,
    /// `429-v1@SECONDS`, `429-cap`, `429-second`, `5xx` codes such as `503`, `slow@SECONDS`, `truncated`, `404-html`, `404-empty`,
    /// `close`, `not-bearer`. Nil for anything else.
    public init?(spec: String) {
        let parts = spec.split(separator: "@", maxSplits: 1).map(String.init)
        let argument = parts.count > 1 ? Double(parts[1]) : nil
        switch parts[0] {
        case "401": self = .unauthorized
        case "403-client": self = .clientForbidden
        case "403-auth": self = .unsupportedAuthentication
        case "400": self = .badRequest(position: Int(argument ?? 1))
        case "429": self = .windowRateLimit(after: argument ?? 2)
        case "429-v1": self = .windowRateLimitOnAnswer(seconds: argument ?? 2, legacy: true)
        case "429-cap": self = .usageCap
        case "429-second": self = .perSecondRateLimit
        case "slow": self = .slow(seconds: argument ?? 5)
        case "truncated": self = .truncatedBody
        case "404-html": self = .html404
        case "404-empty": self = .empty404
        case "close": self = .closeConnection
        case "not-bearer": self = .tokenTypeNotBearer
        default:
            guard let status = Int(parts[0]), (500...599).contains(status) else { return nil }
            self = .serverError(status: status)
        }
    }
}
