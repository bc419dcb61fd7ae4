import Foundation
import Synchronization
import TweetKit

#if canImport(Glibc)
    import Glibc
#endif

/// The stub's filtered stream, `GET /2/tweets/search/stream`: it posts tweets at a set rate and sends each as a line
/// with its `matching_rules`, sends `\r\n` heartbeats when no tweet is due, and can be told to stall, drop the
/// connection, send `operational-disconnect`, or answer 429 (`TooManyConnections` or plain).
///
/// Tweets are posted while a connection is open, also while it stalls (those are the ones a client misses), and every
/// posted tweet is searchable through `/2/tweets/search/recent`, so gap recovery can find what the stream did not send.
public final class StubStream: Sendable {
    /// How the stream behaves.
    public struct Settings: Sendable, Hashable {
        /// Tweets posted per second while a connection is open.
        public var tweetsPerSecond: Double
        /// Seconds without a tweet before a heartbeat (X sends one every 20 s).
        public var heartbeatInterval: Double
        /// Stop posting after this many tweets in all (heartbeats go on); nil for no end.
        public var maximumTweets: Int?
        /// The rule every tweet matches: its id, value and tag.
        public var rule: (id: String, value: String, tag: String) {
            get { (ruleID, ruleValue, ruleTag) }
            set { (ruleID, ruleValue, ruleTag) = newValue }
        }
        private var ruleID = "1700000000000000001"
        private var ruleValue = "#swift"
        private var ruleTag = "swift"

        /// Creates settings; the defaults post 5 tweets a second.
        public init(tweetsPerSecond: Double = 5, heartbeatInterval: Double = 20, maximumTweets: Int? = nil) {
            self.tweetsPerSecond = tweetsPerSecond
            self.heartbeatInterval = heartbeatInterval
            self.maximumTweets = maximumTweets
        }
    }

    /// Something to do to the current connection (or, for the 429s, to the next one).
    public enum Command: Sendable, Hashable {
        /// Send nothing for this many seconds, while tweets go on being posted.
        case stall(seconds: Double)
        /// Close the connection without a word.
        case drop
        /// Send X's `operational-disconnect` error line, then close.
        case operationalDisconnect
        /// Answer the next connection with 429 `TooManyConnections`.
        case tooManyConnections
        /// Answer the next connection with a plain 429.
        case rateLimited

        /// Parses `stall@25`, `drop`, `operational-disconnect`, `too-many-connections`, `429`.
        public init?(spec: String) {
            switch spec {
            case "drop": self = .drop
            case "operational-disconnect": self = .operationalDisconnect
            case "too-many-connections": self = .tooManyConnections
            case "429": self = .rateLimited
            default:
                guard spec.hasPrefix("stall@"), let seconds = Double(spec.dropFirst(6)), seconds >= 0 else {
                    return nil
                }
                self = .stall(seconds: seconds)
            }
        }
    }

    private struct State {
        var settings = Settings()
        var commands: [Command] = []
        var posted: [Tweet] = []
        var sent: Set<TweetID> = []
        var connections = 0
        var lastMillis: UInt64 = 0
        var sequence: UInt64 = 0
    }

    private let state = Mutex(State())
    /// The author of every streamed tweet.
    static let author = User(id: 1_900_000_000, username: "streamposter", name: "Stream Poster")

    init() {}

    /// Changes the settings; an open connection follows them from its next tweet.
    public func configure(_ settings: Settings) { state.withLock { $0.settings = settings } }

    /// The settings in force.
    public var settings: Settings { state.withLock { $0.settings } }

    /// Queues a command.
    public func enqueue(_ command: Command) { state.withLock { $0.commands.append(command) } }

    /// Every tweet posted so far, oldest first.
    public var posted: [Tweet] { state.withLock { $0.posted } }

    /// The ids of posted tweets that were sent on a connection (the others were missed during stalls).
    public var sentIDs: Set<TweetID> { state.withLock { $0.sent } }

    /// How many connections were accepted (answered 200 or 429).
    public var connectionCount: Int { state.withLock { $0.connections } }

    /// Forgets posted tweets and queued commands.
    public func reset() {
        state.withLock { state in
            state.posted.removeAll()
            state.sent.removeAll()
            state.commands.removeAll()
        }
    }

    // MARK: Serving

    /// Serves one connection until the client leaves, the server stops, or a command ends it.
    func serve(_ fd: Int32, stopped: () -> Bool) {
        let refusal = state.withLock { state -> Command? in
            state.connections += 1
            guard let index = state.commands.firstIndex(where: { $0 == .tooManyConnections || $0 == .rateLimited })
            else { return nil }
            return state.commands.remove(at: index)
        }
        if let refusal {
            let body: [String: Any] =
                refusal == .tooManyConnections
                ? [
                    "title": "ConnectionException", "connection_issue": "TooManyConnections",
                    "detail": "This stream is currently at the maximum allowed connection limit.",
                    "type": "https://api.twitter.com/2/problems/streaming-connection",
                ] : ["title": "Too Many Requests", "detail": "Too Many Requests", "type": "about:blank", "status": 429]
            let data = StubJSON.encode(body)
            let head =
                "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nContent-Length: \(data.count)\r\n"
                + "Connection: close\r\n\r\n"
            _ = StubSocket.writeAll(fd, Data(head.utf8) + data)
            return
        }
        let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n"
        guard StubSocket.writeAll(fd, Data(head.utf8)) else { return }
        var started = Date()
        var postedHere = 0
        var lastWrite = Date()
        var stallUntil: Date?
        while !stopped() {
            if StubSocket.peerClosed(fd) { return }
            let now = Date()
            var command: Command?
            let settings = state.withLock { state -> Settings in
                if stallUntil == nil,
                    let index = state.commands.firstIndex(where: {
                        $0 != .tooManyConnections && $0 != .rateLimited
                    })
                {
                    command = state.commands.remove(at: index)
                }
                return state.settings
            }
            switch command {
            case .drop?: return
            case .operationalDisconnect?:
                let line = StubJSON.encode([
                    "errors": [
                        [
                            "title": "operational-disconnect", "disconnect_type": "OperationalDisconnect",
                            "detail": "This stream has been disconnected for operational reasons.",
                            "type": "https://api.twitter.com/2/problems/operational-disconnect",
                        ]
                    ]
                ])
                _ = StubSocket.writeAll(fd, line + Data("\r\n".utf8))
                return
            case .stall(let seconds)?: stallUntil = now.addingTimeInterval(seconds)
            default: break
            }
            if let until = stallUntil, now >= until { stallUntil = nil }
            // Post what is due at the rate since the connection opened.
            let due = Int(now.timeIntervalSince(started) * settings.tweetsPerSecond) - postedHere
            let fresh = due > 0 ? post(count: due, settings: settings) : []
            postedHere += max(0, due)
            if postedHere > 1_000_000 {
                started = now
                postedHere = 0
            }
            guard stallUntil == nil else {
                usleep(5_000)
                continue
            }
            var chunk = Data()
            for tweet in fresh { chunk += line(for: tweet, settings: settings) }
            if chunk.isEmpty, now.timeIntervalSince(lastWrite) >= settings.heartbeatInterval {
                chunk = Data("\r\n".utf8)
            }
            if !chunk.isEmpty {
                guard StubSocket.writeAll(fd, chunk) else { return }
                lastWrite = now
                if !fresh.isEmpty { state.withLock { $0.sent.formUnion(fresh.map(\.id)) } }
            }
            usleep(settings.tweetsPerSecond >= 200 ? 1_000 : 5_000)
        }
    }

    /// Posts `count` tweets with snowflake ids of the current time, within the maximum.
    private func post(count: Int, settings: Settings) -> [Tweet] {
        state.withLock { state in
            var made: [Tweet] = []
            let allowed = settings.maximumTweets.map { max(0, $0 - state.posted.count) } ?? count
            let now = Date()
            for _ in 0..<min(count, allowed) {
                var millis = UInt64(now.timeIntervalSince1970 * 1000) - 1_288_834_974_657
                if millis <= state.lastMillis {
                    millis = state.lastMillis
                    state.sequence += 1
                    if state.sequence >= 4096 {
                        millis += 1
                        state.sequence = 0
                    }
                } else {
                    state.sequence = 0
                }
                state.lastMillis = millis
                let id = TweetID(millis << 22 | state.sequence)
                let number = state.posted.count + 1
                let tweet = Tweet(
                    id: id, text: "streamed tweet \(number) about #swift", authorID: Self.author.id,
                    createdAt: Date(timeIntervalSince1970: Double(millis + 1_288_834_974_657) / 1000), lang: "en",
                    conversationID: id,
                    entities: TweetEntities(hashtags: [Hashtag(start: 28, end: 34, tag: "swift")]),
                    source: "xapi-stub stream")
                state.posted.append(tweet)
                made.append(tweet)
            }
            return made
        }
    }

    /// `2026-12-01T14:13:59.571Z`, without a DateFormatter per tweet.
    static func timestamp(_ date: Date) -> String {
        let millis = Int((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = time_t(millis / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(millis % 1000), 3))Z"
    }

    /// The tweet as a stream line. Written by hand, not through JSONSerialization: at 2,000 tweets a second the stub
    /// must not be what limits the rate, and every value here is plain ASCII that needs no escaping.
    private func line(for tweet: Tweet, settings: Settings) -> Data {
        let id = tweet.id.description
        let created = tweet.createdAt.map(Self.timestamp) ?? ""
        let author = Self.author
        let text =
            #"{"data":{"author_id":"\#(author.id)","conversation_id":"\#(id)","created_at":"\#(created)","#
            + #""edit_history_tweet_ids":["\#(id)"],"entities":{"hashtags":[{"end":34,"start":28,"tag":"swift"}]},"#
            + #""id":"\#(id)","lang":"en","public_metrics":{"like_count":0,"quote_count":0,"reply_count":0,"#
            + #""retweet_count":0},"source":"xapi-stub stream","text":"\#(tweet.text)"},"#
            + #""includes":{"users":[{"id":"\#(author.id)","name":"\#(author.name)","username":"\#(author.username)"}]},"#
            + #""matching_rules":[{"id":"\#(settings.rule.id)","tag":"\#(settings.rule.tag)"}]}"# + "\r\n"
        return Data(text.utf8)
    }
}
