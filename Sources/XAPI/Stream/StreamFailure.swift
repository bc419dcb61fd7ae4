import Foundation
import TweetKit

/// Why a filtered-stream connection ended or could not be made, sorted by what X's documentation says to do next.
public enum StreamFailure: Error, Hashable, Sendable {
    /// The connection could not be made or broke at the TCP/TLS level before it was established.
    case network(reason: String)
    /// An established connection (a 200 that delivered data) ended.
    case dropped(reason: String)
    /// No byte, not even a heartbeat, arrived for this many seconds on an established connection.
    case stalled(seconds: Int)
    /// An HTTP error X says to retry with exponential backoff (5xx, and statuses not listed below).
    case http(status: Int, title: String?)
    /// A plain 429: the app connected too often.
    case rateLimited
    /// A 429 `TooManyConnections`: another client holds the app's one stream connection.
    case tooManyConnections
    /// X ended the stream for its own reasons (`operational-disconnect`), usually maintenance or a deploy.
    case operationalDisconnect(detail: String?)
    /// The monthly tweet cap is used up; no wait within reason helps.
    case usageCapExceeded
    /// A request error that a retry cannot fix (401, 403, 400, 404): the message says what to do.
    case refused(status: Int, message: String)

    /// What the failure means and what tweetsh does about it, for the status line and the wait notice.
    public var explanation: String {
        switch self {
        case .network(let reason): return "could not connect (\(reason))"
        case .dropped(let reason): return "the connection dropped (\(reason))"
        case .stalled(let seconds):
            return "no data or heartbeat for \(seconds) s: X sends a heartbeat every 20 s, so the connection is dead"
        case .http(let status, let title): return "the stream answered \(status)" + (title.map { " \($0)" } ?? "")
        case .rateLimited: return "429 Too Many Requests: the app reconnected too often"
        case .tooManyConnections:
            return
                "429 TooManyConnections: another client is connected with this app's token (X allows one stream "
                + "connection per app); stop it, or wait"
        case .operationalDisconnect(let detail):
            return "X closed the stream for operational reasons" + (detail.map { " (\($0))" } ?? "")
                + "; the rules stay in place"
        case .usageCapExceeded:
            return "UsageCapExceeded: the app's monthly tweet cap is used up; waiting does not help until it resets"
        case .refused(_, let message): return message
        }
    }

    /// True when reconnecting cannot help: the stream stops and says why.
    public var isFinal: Bool {
        switch self {
        case .usageCapExceeded, .refused: return true
        default: return false
        }
    }

    /// Sorts an HTTP answer other than 200 (its status and body) into a failure.
    public static func classify(status: Int, body: Data) -> StreamFailure {
        let problem = (try? JSONParser.parse(body)).map { root in root["errors"]?.array?.first ?? root }
        if let problem, let named = classify(problem: problem, status: status) { return named }
        switch status {
        case 429: return .rateLimited
        case 401: return .refused(status: 401, message: "401 Unauthorized: the bearer token was refused; run auth")
        case 403:
            return .refused(
                status: 403,
                message:
                    "403 Forbidden: the app needs a Project with filtered-stream access (an app-only bearer token of a "
                    + "Project app)")
        case 400, 404, 406, 409, 413, 422:
            let detail = problem?["detail"]?.string ?? problem?["message"]?.string
            return .refused(
                status: status, message: "the stream request was refused (\(status)\(detail.map { ": \($0)" } ?? ""))")
        default:
            return .http(status: status, title: problem?["title"]?.string)
        }
    }

    /// Sorts a problem object (an HTTP error body, or an error line inside the stream) by its title, type and
    /// `connection_issue`; nil when it names nothing the stream treats specially.
    static func classify(problem: JSONValue, status: Int?) -> StreamFailure? {
        let title = problem["title"]?.string ?? ""
        let type = problem["type"]?.string.map { $0.split(separator: "/").last.map(String.init) ?? $0 } ?? ""
        let issue = problem["connection_issue"]?.string ?? ""
        let disconnect = problem["disconnect_type"]?.string ?? ""
        let detail = problem["detail"]?.string
        if issue == "TooManyConnections" || title == "TooManyConnections" { return .tooManyConnections }
        if title == "UsageCapExceeded" || type == "usage-capped" { return .usageCapExceeded }
        if type == "operational-disconnect" || title == "operational-disconnect"
            || disconnect == "OperationalDisconnect"
        {
            return .operationalDisconnect(detail: detail)
        }
        if status == nil, !title.isEmpty || !type.isEmpty {
            // Another error inside the stream: the connection is about to end; retry as for an HTTP error.
            return .http(status: 200, title: [title, detail ?? ""].filter { !$0.isEmpty }.joined(separator: ": "))
        }
        return nil
    }
}
