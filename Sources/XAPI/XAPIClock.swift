import Foundation

/// The client's sense of time: what time it is and how to wait.
///
/// Injected so tests can exercise a 15-minute rate-limit wait with a virtual clock, and make backoff instant,
/// without real minutes passing. A sleep must throw `CancellationError` as soon as its task is cancelled.
public struct XAPIClock: Sendable {
    /// The current wall-clock time (rate-limit resets are Unix timestamps).
    public var now: @Sendable () -> Date
    /// Suspends for the duration, throwing at once when the task is cancelled.
    public var sleep: @Sendable (Duration) async throws -> Void

    /// Creates a clock from its two functions.
    public init(now: @escaping @Sendable () -> Date, sleep: @escaping @Sendable (Duration) async throws -> Void) {
        self.now = now
        self.sleep = sleep
    }

    /// Real time; `Task.sleep` already ends at once with `CancellationError` when the task is cancelled.
    public static let system = XAPIClock(now: { Date() }, sleep: { try await Task.sleep(for: $0) })
}

extension Duration {
    /// Seconds as a Double, for arithmetic with `Date`.
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
