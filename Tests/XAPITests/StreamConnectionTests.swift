import Foundation
import Testing
import TweetKit
import XAPIStub

@testable import XAPI

/// The filtered-stream connection over URLSession against the stub's streaming endpoint on loopback, and the
/// decoding and classification it relies on.
@Suite struct StreamConnectionTests {
    private func connect(_ harness: Harness) -> (Recorder<StreamConnectionEvent>, any FilteredStreamHandle) {
        let events = Recorder<StreamConnectionEvent>()
        let handle = harness.client.connect { events.append($0) }
        return (events, handle)
    }

    private func tweets(_ events: Recorder<StreamConnectionEvent>) -> [StreamedTweet] {
        events.all.compactMap { if case .message(.tweet(let tweet)) = $0 { tweet } else { nil } }
    }

    private func ending(_ events: Recorder<StreamConnectionEvent>) -> StreamFailure?? {
        for event in events.all { if case .ended(let failure) = event { return .some(failure) } }
        return nil
    }

    @Test func tweetsArriveAsTheyArePostedWithTheirRuleTagsAndHeartbeatsFillTheSilence() async throws {
        let harness = try Harness()
        defer { harness.stub.stop() }
        harness.stub.stream.configure(.init(tweetsPerSecond: 50, heartbeatInterval: 0.05, maximumTweets: 10))
        let (events, handle) = connect(harness)
        defer { handle.cancel() }
        let heartbeat = { events.all.contains { if case .message(.heartbeat) = $0 { true } else { false } } }
        try await eventually { tweets(events).count == 10 && heartbeat() }
        #expect(heartbeat())
        let received = tweets(events)
        #expect(received.map(\.id) == harness.stub.stream.posted.map(\.id))
        #expect(received.allSatisfy { $0.tags == ["swift"] && $0.page.users.first?.username == "streamposter" })
        #expect(received.allSatisfy { $0.page.originals.tweets[$0.id] != nil }, "the JSON as sent is kept")
        if case .opened = try #require(events.all.first) {} else { Issue.record("first event: \(events.all[0])") }
        let request = try #require(harness.stub.requests(path: XAPIClient.filteredStreamPath).first)
        #expect(request.query["tweet.fields"]?.contains("note_tweet") == true, "the full field sets")
    }

    @Test func aDroppedConnectionEndsAsDroppedAndOperationalDisconnectIsReadFromTheStream() async throws {
        let harness = try Harness()
        defer { harness.stub.stop() }
        harness.stub.stream.configure(.init(tweetsPerSecond: 100))
        let (events, handle) = connect(harness)
        try await eventually { tweets(events).count >= 3 }
        harness.stub.stream.enqueue(.drop)
        try await eventually { ending(events) != nil }
        handle.cancel()
        guard case .dropped? = ending(events) ?? nil else {
            Issue.record("expected a drop, got \(String(describing: ending(events)))")
            return
        }

        let (second, secondHandle) = connect(harness)
        defer { secondHandle.cancel() }
        try await eventually { !tweets(second).isEmpty }
        harness.stub.stream.enqueue(.operationalDisconnect)
        try await eventually { ending(second) != nil }
        #expect(
            second.all.contains { event in
                if case .message(.disconnect(.operationalDisconnect)) = event { true } else { false }
            })
    }

    @Test func tooManyConnectionsAndA429AreClassifiedFromTheAnswer() async throws {
        let harness = try Harness()
        defer { harness.stub.stop() }
        harness.stub.stream.enqueue(.tooManyConnections)
        harness.stub.stream.enqueue(.rateLimited)
        let (first, h1) = connect(harness)
        try await eventually { ending(first) != nil }
        h1.cancel()
        #expect(ending(first) == .some(.tooManyConnections))
        let (second, h2) = connect(harness)
        try await eventually { ending(second) != nil }
        h2.cancel()
        #expect(ending(second) == .some(.rateLimited))
    }

    @Test func aRefusedTokenStopsWithAMessageThatNamesAuth() async throws {
        let harness = try Harness(token: "AAAAnot-the-stub-token-at-all-0000000000000")
        defer { harness.stub.stop() }
        let (events, handle) = connect(harness)
        defer { handle.cancel() }
        try await eventually { ending(events) != nil }
        let failure = try #require(ending(events) ?? nil)
        #expect(failure.isFinal)
        #expect(failure.explanation.contains("auth"))
    }

    @Test func linesSplitAcrossChunksAndBadLinesAreReported() throws {
        var splitter = StreamLineSplitter()
        #expect(splitter.feed(Array("{\"a\":".utf8)).isEmpty)
        let lines = splitter.feed(Array("1}\r\n\r\nxy".utf8))
        #expect(lines.map { String(decoding: $0, as: UTF8.self) } == ["{\"a\":1}\r", "\r"])
        #expect(splitter.pendingCount == 2)
        #expect(try StreamLineDecoder.decode(Array("\r".utf8)) == .heartbeat)
        #expect(throws: (any Error).self) { try StreamLineDecoder.decode(Array("{\"a\":1}".utf8)) }
        let usage = #"{"title":"UsageCapExceeded","detail":"Usage cap exceeded: Monthly product cap","type":"x"}"#
        #expect(StreamFailure.classify(status: 429, body: Data(usage.utf8)) == .usageCapExceeded)
        #expect(StreamFailure.classify(status: 503, body: Data()) == .http(status: 503, title: nil))
    }

    @Test func theSplitterReadsDataSlicesAndOtherCollectionsAndCutsOverlongLines() {
        var splitter = StreamLineSplitter(maximumLineLength: 8)
        // Data, as URLSession hands it over; a line cut at 8 bytes; a line spread over three chunks.
        #expect(
            splitter.feed(Data("ab\n0123456789\ncd".utf8)).map { String(decoding: $0, as: UTF8.self) } == [
                "ab", "01234567",
            ])
        #expect(splitter.feed(Array("ef".utf8)[...]).isEmpty)
        // A collection without contiguous storage takes the copying path.
        let lines = splitter.feed(Array("g\nh\n".utf8).lazy.map { $0 })
        #expect(lines.map { String(decoding: $0, as: UTF8.self) } == ["cdefg", "h"])
        #expect(splitter.pendingCount == 0)
        #expect(splitter.feed([UInt8]()).isEmpty)
    }

    @Test func theBackoffTableIsXsDocumentedOne() {
        var backoff = StreamBackoff()
        #expect(backoff.delay(after: .dropped(reason: "x")) == .zero)
        #expect(backoff.delay(after: .network(reason: "x")) == .milliseconds(250))
        #expect(backoff.delay(after: .network(reason: "x")) == .milliseconds(500))
        #expect(backoff.delay(after: .http(status: 500, title: nil)) == .seconds(5))
        #expect(backoff.delay(after: .operationalDisconnect(detail: nil)) == .seconds(10))
        #expect(backoff.delay(after: .rateLimited) == .seconds(60))
        #expect(backoff.delay(after: .tooManyConnections) == .seconds(120))
        #expect(backoff.delay(after: .usageCapExceeded) == nil)
        backoff.connected()
        #expect(backoff.delay(after: .http(status: 500, title: nil)) == .seconds(5), "a working connection resets it")
    }
}
