import Foundation
import Synchronization

/// The last rate-limit window the API reported for one endpoint, as the `limits` command shows it.
public struct RateLimitStatus: Sendable, Hashable {
    /// Method and path template, e.g. `GET /2/tweets/search/recent`.
    public var endpoint: String
    /// Requests allowed per window (`x-rate-limit-limit`).
    public var limit: Int?
    /// Requests left in this window (`x-rate-limit-remaining`).
    public var remaining: Int?
    /// When the window resets (`x-rate-limit-reset`, Unix seconds).
    public var resetAt: Date?
    /// When the client saw these headers, so the shell can tell stale figures from fresh ones.
    public var observedAt: Date

    /// Creates a status.
    public init(endpoint: String, limit: Int?, remaining: Int?, resetAt: Date?, observedAt: Date) {
        self.endpoint = endpoint
        self.limit = limit
        self.remaining = remaining
        self.resetAt = resetAt
        self.observedAt = observedAt
    }

    /// Reads the three headers; nil when the response carried none of them (401s often do not).
    init?(endpoint: String, headers: [String: String], observedAt: Date) {
        let limit = headers["x-rate-limit-limit"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        let remaining = headers["x-rate-limit-remaining"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        let reset = headers["x-rate-limit-reset"].flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard limit != nil || remaining != nil || reset != nil else { return nil }
        self.init(
            endpoint: endpoint, limit: limit, remaining: remaining,
            resetAt: reset.map { Date(timeIntervalSince1970: $0) }, observedAt: observedAt)
    }
}

/// The latest status per endpoint. Shared by every request of one client.
final class RateLimitBook: Sendable {
    private let statuses = Mutex<[String: RateLimitStatus]>([:])

    func record(_ status: RateLimitStatus) {
        statuses.withLock { $0[status.endpoint] = status }
    }

    func all() -> [RateLimitStatus] {
        statuses.withLock { Array($0.values) }.sorted { $0.endpoint < $1.endpoint }
    }

    func status(for endpoint: String) -> RateLimitStatus? {
        statuses.withLock { $0[endpoint] }
    }
}
