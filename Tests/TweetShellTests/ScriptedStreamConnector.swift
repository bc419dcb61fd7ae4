import Foundation
import Synchronization
import TweetKit
import XAPI

/// A filtered-stream connector whose connections the test drives by hand: the stream under test is the reconnecting
/// logic, and the network is what is not under test here (the end-to-end tests use the stub over loopback).
final class ScriptedStreamConnector: FilteredStreamConnector, @unchecked Sendable {
    final class Connection: FilteredStreamHandle, @unchecked Sendable {
        let handler: @Sendable (StreamConnectionEvent) -> Void
        private let state = Mutex(false)
        init(handler: @escaping @Sendable (StreamConnectionEvent) -> Void) { self.handler = handler }
        var isCancelled: Bool { state.withLock { $0 } }
        func cancel() { state.withLock { $0 = true } }
        func send(_ event: StreamConnectionEvent) { handler(event) }
        func open() { send(.opened) }
        func heartbeat() { send(.message(.heartbeat)) }
        func tweet(_ id: UInt64, tag: String = "swift") {
            send(.message(.tweet(ScriptedStreamConnector.tweet(id, tag: tag))))
        }
    }

    private let lock = NSLock()
    private var made: [Connection] = []

    func connect(_ handler: @escaping @Sendable (StreamConnectionEvent) -> Void) -> any FilteredStreamHandle {
        let connection = Connection(handler: handler)
        lock.withLock { made.append(connection) }
        return connection
    }

    var connections: [Connection] { lock.withLock { made } }
    var last: Connection { connections.last! }

    /// A tweet as the stream sends it, decoded by the real line decoder.
    static func tweet(_ id: UInt64, tag: String = "swift") -> StreamedTweet {
        let line =
            #"{"data":{"id":"\#(id)","text":"streamed \#(id) #swift","author_id":"1001","#
            + #""created_at":"2026-12-01T12:00:00.000Z","edit_history_tweet_ids":["\#(id)"]},"#
            + #""includes":{"users":[{"id":"1001","name":"Alice","username":"alice"}]},"#
            + #""matching_rules":[{"id":"17","tag":"\#(tag)"}]}"#
        guard case .tweet(let tweet) = try? StreamLineDecoder.decode(Array(line.utf8)) else {
            fatalError("fixture line did not decode")
        }
        return tweet
    }

    /// A snowflake id posted `seconds` after a fixed moment, so gap lengths can be checked.
    static func id(atSecond seconds: Double, sequence: UInt64 = 0) -> UInt64 {
        let millis = UInt64(1_764_590_400_000 + seconds * 1000) - 1_288_834_974_657
        return millis << 22 | sequence
    }
}
