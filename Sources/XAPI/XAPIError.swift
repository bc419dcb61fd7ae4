import Foundation

/// Everything that can go wrong talking to the X API, each case carrying what the message needs to tell the user what
/// to do next. `endpoint` is the method and path template, e.g. `GET /2/tweets/search/recent`.
///
/// No case carries a token, and messages built from server text are redacted by the client before they are thrown.
public enum XAPIError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// How a 404's body looked: the API sends an HTML page or nothing, never a JSON problem.
    public enum NotFoundBody: String, Sendable, Hashable {
        /// An HTML page (the 2021 behaviour).
        case html
        /// An empty body (the 2026 behaviour).
        case empty
        /// Anything else.
        case other
    }

    /// No bearer token in the environment or the credentials file.
    case missingCredentials
    /// A setting (base URL, credentials file) is unusable; the text says which and why.
    case invalidSetting(String)
    /// The request was refused before sending (an id list too long, a malformed username).
    case invalidRequest(String)
    /// 400: the API's own message, the parameter it concerns, and the query position when the API gave one.
    case badRequest(endpoint: String, message: String, parameter: String?, position: Int?)
    /// 401: the token was not accepted.
    case unauthorized(endpoint: String)
    /// 403 `client-forbidden`: the app is not attached to a Project (`reason` is usually `client-not-enrolled`).
    case clientForbidden(endpoint: String, reason: String?)
    /// 403 `unsupported-authentication`: the endpoint needs a user-context token, not an app-only bearer.
    case unsupportedAuthentication(endpoint: String, detail: String?)
    /// Any other 403.
    case forbidden(endpoint: String, detail: String?)
    /// 403 code 99 at `/oauth2/token`: the key and secret were refused (or asked for a token too often).
    case invalidConsumerCredentials
    /// The token exchange answered, but not with a usable bearer token.
    case tokenExchangeFailed(String)
    /// 404: a wrong path or base URL.
    case notFound(endpoint: String, body: NotFoundBody)
    /// A window rate limit the client was told not to wait for (or that did not clear after waiting).
    case rateLimited(endpoint: String, resetAt: Date?)
    /// 429 with a usage cap: waiting for the window does not help.
    case usageCapExceeded(endpoint: String, period: String?, detail: String?)
    /// 5xx after every retry.
    case server(endpoint: String, status: Int, title: String?, attempts: Int)
    /// The connection failed after every retry (refused, dropped, truncated).
    case network(endpoint: String, reason: String, attempts: Int)
    /// No answer within the timeout after every retry.
    case timedOut(endpoint: String, attempts: Int)
    /// A 200 whose body could not be read as the contract's shape.
    case malformedResponse(endpoint: String, reason: String)
    /// A status the contract does not describe.
    case unexpectedStatus(endpoint: String, status: Int, detail: String?)

    /// Whether the same request might succeed later without the user changing anything.
    public var isTransient: Bool {
        switch self {
        case .server, .network, .timedOut, .rateLimited: true
        default: false
        }
    }

    /// What went wrong and what to do about it, in one or two sentences.
    public var description: String {
        switch self {
        case .missingCredentials:
            return "No X API bearer token found. Set X_BEARER_TOKEN, or run `auth` to enter one "
                + "(or a consumer key and secret) and store it."
        case .invalidSetting(let text):
            return text
        case .invalidRequest(let text):
            return text
        case .badRequest(let endpoint, let message, let parameter, let position):
            var text = "The API rejected the request (\(endpoint), 400)"
            if let parameter { text += " because of parameter `\(parameter)`" }
            text += ": \(message)"
            if let position, !message.contains("(at position") { text += " (at position \(position))" }
            text +=
                parameter == "query"
                ? ". Fix the query there and run it again." : ". Fix the request and run it again."
            return text
        case .unauthorized(let endpoint):
            return
                "The API did not accept the bearer token (\(endpoint), 401). It is wrong, expired or was invalidated: "
                + "run `auth` to sign in again."
        case .clientForbidden(let endpoint, let reason):
            return "The API refused this app (\(endpoint), 403 client-forbidden"
                + (reason.map { ", \($0)" } ?? "")
                + "): the app is not attached to a Project. In the X developer portal, add the app to a Project, "
                + "then run `auth` again with its keys."
        case .unsupportedAuthentication(let endpoint, let detail):
            return "This endpoint does not accept an app-only bearer token (\(endpoint), 403 unsupported-authentication"
                + (detail.map { ": \($0)" } ?? "")
                + "). tweetsh signs in app-only, so this command cannot be used; use search or lookup instead."
        case .forbidden(let endpoint, let detail):
            return "The API refused the request (\(endpoint), 403)" + (detail.map { ": \($0)" } ?? "")
                + ". Check the app's access level in the X developer portal."
        case .invalidConsumerCredentials:
            return "X refused the consumer key and secret (403, code 99: unable to verify your credentials). "
                + "Check both values in the developer portal and run `auth` again; if they are right, wait a few "
                + "minutes, as asking for tokens too often is refused the same way."
        case .tokenExchangeFailed(let text):
            return "The token exchange did not return an app-only bearer token: \(text). Run `auth` again."
        case .notFound(let endpoint, let body):
            let shape =
                switch body {
                case .html: "an HTML page"
                case .empty: "an empty body"
                case .other: "a body that is not an API error"
                }
            return "The API has no such endpoint (\(endpoint), 404 with \(shape)). Check the base URL "
                + "(config key `api_base` or TWEETSH_API_BASE); it should be https://api.x.com."
        case .rateLimited(let endpoint, let resetAt):
            let when = resetAt.map { " The window resets at \(Self.clockTime($0))." } ?? ""
            return "Rate limit reached for \(endpoint) (429).\(when) Try again then; `limits` shows every window."
        case .usageCapExceeded(let endpoint, let period, let detail):
            let periodText = period.map { " \($0.lowercased())" } ?? ""
            return "The app's\(periodText) usage cap is used up (\(endpoint), 429"
                + (detail.map { ": \($0)" } ?? "")
                + "). Waiting for the rate-limit window does not help: wait for the cap to renew, or raise the plan "
                + "in the X developer portal. Cached results still work offline."
        case .server(let endpoint, let status, let title, let attempts):
            return "The X API kept failing (\(endpoint), \(status)" + (title.map { " \($0)" } ?? "")
                + ") after \(attempts) tries. It is X's side; try again in a few minutes."
        case .network(let endpoint, let reason, let attempts):
            return "Could not reach the X API (\(endpoint)): \(reason), after \(attempts) tries. "
                + "Check the network connection and the base URL, then try again."
        case .timedOut(let endpoint, let attempts):
            return "The X API did not answer in time (\(endpoint)) after \(attempts) tries. Try again, "
                + "perhaps with a smaller page size."
        case .malformedResponse(let endpoint, let reason):
            return "The X API sent a response tweetsh cannot read (\(endpoint)): \(reason). Try again; "
                + "if it persists, report it with the query."
        case .unexpectedStatus(let endpoint, let status, let detail):
            return "The X API answered \(status) to \(endpoint)" + (detail.map { ": \($0)" } ?? "")
                + ". Try again later."
        }
    }

    /// Same as `description`, for APIs that ask Foundation errors for a message.
    public var errorDescription: String? { description }

    /// The same error with `transform` applied to every piece of text it carries (used to mask secrets).
    func mappingText(_ transform: (String) -> String) -> XAPIError {
        switch self {
        case .missingCredentials, .invalidConsumerCredentials, .unauthorized, .notFound, .rateLimited, .timedOut:
            return self
        case .invalidSetting(let text): return .invalidSetting(transform(text))
        case .invalidRequest(let text): return .invalidRequest(transform(text))
        case .tokenExchangeFailed(let text): return .tokenExchangeFailed(transform(text))
        case .badRequest(let endpoint, let message, let parameter, let position):
            return .badRequest(
                endpoint: endpoint, message: transform(message), parameter: parameter.map(transform), position: position
            )
        case .clientForbidden(let endpoint, let reason):
            return .clientForbidden(endpoint: endpoint, reason: reason.map(transform))
        case .unsupportedAuthentication(let endpoint, let detail):
            return .unsupportedAuthentication(endpoint: endpoint, detail: detail.map(transform))
        case .forbidden(let endpoint, let detail): return .forbidden(endpoint: endpoint, detail: detail.map(transform))
        case .usageCapExceeded(let endpoint, let period, let detail):
            return .usageCapExceeded(endpoint: endpoint, period: period.map(transform), detail: detail.map(transform))
        case .server(let endpoint, let status, let title, let attempts):
            return .server(endpoint: endpoint, status: status, title: title.map(transform), attempts: attempts)
        case .network(let endpoint, let reason, let attempts):
            return .network(endpoint: endpoint, reason: transform(reason), attempts: attempts)
        case .malformedResponse(let endpoint, let reason):
            return .malformedResponse(endpoint: endpoint, reason: transform(reason))
        case .unexpectedStatus(let endpoint, let status, let detail):
            return .unexpectedStatus(endpoint: endpoint, status: status, detail: detail.map(transform))
        }
    }

    private static func clockTime(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "HH:mm:ss"
        return formatter.string(from: date)
    }
}
