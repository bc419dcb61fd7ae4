import Foundation
import TweetKit
import XAPI

/// A wait before the stream reconnects, announced when it starts and then once a second down to zero.
public struct StreamWaitNotice: Hashable, Sendable {
    /// What went wrong.
    public var failure: StreamFailure
    /// The whole wait.
    public var total: Duration
    /// Seconds still to wait (rounded up); 0 when the wait is over.
    public var secondsLeft: Int

    /// Creates a notice.
    public init(failure: StreamFailure, total: Duration, secondsLeft: Int) {
        self.failure = failure
        self.total = total
        self.secondsLeft = secondsLeft
    }
}

/// What the reconnecting filtered stream tells its subscriber.
public enum StreamEvent: Hashable, Sendable {
    /// A connection attempt starts (1 for the first).
    case connecting(attempt: Int)
    /// The stream answered 200.
    case connected
    /// A keep-alive line arrived.
    case heartbeat
    /// A tweet, from the stream or (marked `recovered`) from gap recovery; never the same id twice.
    case tweet(StreamedTweet)
    /// A line that could not be read; the stream goes on.
    case unreadable(String)
    /// The connection ended.
    case disconnected(StreamFailure)
    /// Waiting before the next attempt; cancelling the subscription ends the wait at once.
    case waiting(StreamWaitNotice)
    /// Gap recovery starts: a recent search for the active rules between these ids (both exclusive).
    case recovering(since: TweetID, until: TweetID)
    /// Gap recovery found `count` tweets the stream missed during a disconnection of about `gap`.
    case recovered(count: Int, gap: Duration)
    /// Gap recovery failed; the stream goes on.
    case recoveryFailed(String)
    /// The stream stopped for good: reconnecting cannot help.
    case stopped(StreamFailure)
}

extension SnowflakeID {
    /// The time a snowflake id encodes (milliseconds since X's epoch in the bits above the 22 low ones), or nil for
    /// an id too small to be one.
    public var snowflakeDate: Date? {
        guard rawValue >> 22 > 0 else { return nil }
        let millis = Double(rawValue >> 22) + 1_288_834_974_657
        return Date(timeIntervalSince1970: millis / 1000)
    }
}
