/// The waits before reconnecting to the filtered stream, as X's documentation gives them.
///
/// - An established connection that drops (or stalls) is reconnected at once.
/// - Network errors back off linearly: 250 ms, 500 ms, 750 ms, … up to 16 s.
/// - HTTP errors back off exponentially: 5 s, 10 s, 20 s, … up to 320 s. `operational-disconnect` takes this
///   schedule too, so a maintenance window is not hammered.
/// - 429s (`TooManyConnections` among them) back off exponentially from 1 minute: 1, 2, 4, 8 min. X names no cap;
///   tweetsh stops doubling at 16 minutes, as it does for rate-limit waits.
/// - A final failure (usage cap, refused request) has no wait: the stream stops.
///
/// Each schedule counts its own attempts; a connection that is established (answers 200) resets them all.
public struct StreamBackoff: Hashable, Sendable {
    private var networkAttempts = 0
    private var httpAttempts = 0
    private var rateLimitAttempts = 0
    /// A drop right after an immediate reconnect is not reconnected at once again: that would spin.
    private var reconnectedAtOnce = false

    /// The first wait of each schedule and its cap.
    public static let networkStep: Duration = .milliseconds(250)
    /// The longest network-error wait.
    public static let networkCap: Duration = .seconds(16)
    /// The first HTTP-error wait.
    public static let httpFirst: Duration = .seconds(5)
    /// The longest HTTP-error wait.
    public static let httpCap: Duration = .seconds(320)
    /// The first 429 wait.
    public static let rateLimitFirst: Duration = .seconds(60)
    /// The longest 429 wait.
    public static let rateLimitCap: Duration = .seconds(960)

    /// A schedule with no failures yet.
    public init() {}

    /// Call when a connection is established (a 200 with data): every schedule starts again.
    public mutating func connected() {
        networkAttempts = 0
        httpAttempts = 0
        rateLimitAttempts = 0
        reconnectedAtOnce = false
    }

    /// The wait before the next attempt after `failure`, or nil when the stream should stop.
    public mutating func delay(after failure: StreamFailure) -> Duration? {
        switch failure {
        case .dropped, .stalled:
            if !reconnectedAtOnce {
                reconnectedAtOnce = true
                return .zero
            }
            return nextNetworkDelay()
        case .network:
            return nextNetworkDelay()
        case .http, .operationalDisconnect:
            httpAttempts += 1
            return Self.doubling(Self.httpFirst, times: httpAttempts - 1, cap: Self.httpCap)
        case .rateLimited, .tooManyConnections:
            rateLimitAttempts += 1
            return Self.doubling(Self.rateLimitFirst, times: rateLimitAttempts - 1, cap: Self.rateLimitCap)
        case .usageCapExceeded, .refused:
            return nil
        }
    }

    private mutating func nextNetworkDelay() -> Duration {
        networkAttempts += 1
        return min(Self.networkStep * networkAttempts, Self.networkCap)
    }

    private static func doubling(_ first: Duration, times: Int, cap: Duration) -> Duration {
        var value = first
        for _ in 0..<max(0, times) {
            value *= 2
            if value >= cap { return cap }
        }
        return min(value, cap)
    }
}
