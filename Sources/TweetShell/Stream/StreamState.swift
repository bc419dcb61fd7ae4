import Foundation
import TweetKit
import XAPI

/// What the stream screen and the summary show.
public struct StreamState: Hashable, Sendable {
    /// Where the connection stands.
    public enum Phase: Hashable, Sendable {
        /// Connecting (attempt n).
        case connecting(attempt: Int)
        /// Receiving.
        case connected
        /// Waiting before the next attempt.
        case waiting(StreamWaitNotice)
        /// Ended, with the reason when it was not the user's choice.
        case stopped(String?)
    }

    /// The connection's phase.
    public var phase = Phase.connecting(attempt: 1)
    /// Tweets received, from the stream and from gap recovery.
    public var received = 0
    /// Of those, found by gap recovery.
    public var recovered = 0
    /// Reconnections so far.
    public var reconnects = 0
    /// Tweets in the last minute.
    public var tweetsPerMinute = 0
    /// When the last byte (tweet or heartbeat) arrived.
    public var lastHeartbeat: Date?
    /// The newest tweets, oldest first; at most `StreamState.keptTweets`, so memory stays bounded.
    public var recent: [StreamedTweet] = []
    /// Notices for the user (disconnections, waits, recoveries), newest last; at most 20.
    public var notices: [String] = []

    /// How many tweets the state keeps for drawing.
    public static let keptTweets = 200

    /// Creates an empty state.
    public init() {}

    mutating func keep(_ tweet: StreamedTweet) {
        recent.append(tweet)
        if recent.count > Self.keptTweets { recent.removeFirst(recent.count - Self.keptTweets) }
    }

    mutating func note(_ text: String) {
        notices.append(text)
        if notices.count > 20 { notices.removeFirst(notices.count - 20) }
    }

    /// "2 min", "45 s": how long a gap lasted, for the recovery notice.
    static func describe(_ duration: Duration) -> String {
        let seconds = Int(duration.components.seconds)
        if seconds >= 90 { return "\(Int((Double(seconds) / 60).rounded())) min" }
        return "\(max(1, seconds)) s"
    }

    /// The recovery notice: "recovered 12 tweets missed during a 2 min disconnection".
    static func recoveryNotice(count: Int, gap: Duration) -> String {
        "recovered \(count) tweet\(count == 1 ? "" : "s") missed during a \(describe(gap)) disconnection"
    }
}
