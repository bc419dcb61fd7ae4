import Foundation

/// How many times and how long the client retries.
///
/// Transient failures (5xx, dropped connections, timeouts) back off exponentially with jitter, capped, for at most
/// `maxAttempts` tries in all. Window rate limits are not failures: the client waits for the reset (plus a margin,
/// because the server's clock and ours differ) and those waits do not use up tries.
public struct RetryPolicy: Sendable, Hashable {
    /// Tries in all for transient failures, the first included.
    public var maxAttempts: Int
    /// Seconds before the second try; doubled for each later one.
    public var baseDelay: Double
    /// No single backoff is longer than this.
    public var maxDelay: Double
    /// Seconds added to `x-rate-limit-reset` before retrying.
    public var rateLimitMargin: Double
    /// Seconds to wait on a window 429 that carries no reset header.
    public var rateLimitFallbackWait: Double
    /// A reset further away than this is reported as an error instead of waited for.
    public var maxRateLimitWait: Double
    /// How many window waits one request may do before giving up.
    public var maxRateLimitWaits: Int
    /// False makes a window 429 an immediate `XAPIError.rateLimited`.
    public var waitForRateLimits: Bool

    /// Creates a policy; the defaults suit the real API (a window is 15 minutes).
    public init(
        maxAttempts: Int = 5, baseDelay: Double = 1, maxDelay: Double = 30, rateLimitMargin: Double = 2,
        rateLimitFallbackWait: Double = 60, maxRateLimitWait: Double = 16 * 60, maxRateLimitWaits: Int = 3,
        waitForRateLimits: Bool = true
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.rateLimitMargin = rateLimitMargin
        self.rateLimitFallbackWait = rateLimitFallbackWait
        self.maxRateLimitWait = maxRateLimitWait
        self.maxRateLimitWaits = maxRateLimitWaits
        self.waitForRateLimits = waitForRateLimits
    }

    /// The delay after failed try number `attempt` (1-based): `min(maxDelay, baseDelay·2^(attempt-1))`, scaled into
    /// its upper half by `jitter` in 0..<1 so that many clients do not retry in lockstep while each still backs off.
    public func backoff(afterAttempt attempt: Int, jitter: Double) -> Double {
        let exponent = Double(max(0, attempt - 1))
        let capped = min(maxDelay, baseDelay * pow(2, exponent))
        return capped * (0.5 + 0.5 * min(max(jitter, 0), 1))
    }
}
