import Foundation

/// One tick of a wait the client is doing before it retries, so the shell can show a countdown instead of a silent
/// pause that looks like a hang. Emitted about once a second while waiting, and once with `secondsLeft == 0` when the
/// wait is over (or was cancelled).
public struct RateLimitWait: Sendable, Hashable, CustomStringConvertible {
    /// Why the client is waiting.
    public enum Reason: Sendable, Hashable {
        /// The endpoint's rate-limit window is used up; the request is retried when it resets.
        case rateLimit
        /// A transient failure (5xx, network); `attempt` of `maxAttempts` is next.
        case retry(attempt: Int, maxAttempts: Int, cause: String)
    }

    /// Method and path template being waited for.
    public var endpoint: String
    /// Whole seconds left, rounded up; 0 when the wait has ended.
    public var secondsLeft: Int
    /// When the wait ends.
    public var until: Date
    /// Why.
    public var reason: Reason

    /// Creates an event.
    public init(endpoint: String, secondsLeft: Int, until: Date, reason: Reason) {
        self.endpoint = endpoint
        self.secondsLeft = secondsLeft
        self.until = until
        self.reason = reason
    }

    /// A status line such as `rate limit on GET /2/tweets/search/recent: retrying in 42 s`.
    public var description: String {
        switch reason {
        case .rateLimit:
            return secondsLeft > 0
                ? "rate limit on \(endpoint): waiting for the window to reset, retrying in \(secondsLeft) s"
                : "rate limit on \(endpoint): retrying now"
        case .retry(let attempt, let maxAttempts, let cause):
            return secondsLeft > 0
                ? "\(endpoint) failed (\(cause)): try \(attempt) of \(maxAttempts) in \(secondsLeft) s"
                : "\(endpoint) failed (\(cause)): try \(attempt) of \(maxAttempts) now"
        }
    }
}

extension RateLimitWait {
    /// An `AsyncStream` of wait events and the `onWait` hook that feeds it, for a consumer that prefers iterating to a
    /// callback. Events are buffered (newest 64) so a slow reader never blocks the waiting request.
    public static func makeStream() -> (events: AsyncStream<RateLimitWait>, onWait: @Sendable (RateLimitWait) -> Void) {
        let (stream, continuation) = AsyncStream.makeStream(
            of: RateLimitWait.self, bufferingPolicy: .bufferingNewest(64))
        return (stream, { continuation.yield($0) })
    }
}
