import Foundation
import StreamCore
import StreamFoundation
import TweetKit
import TweetStore
import XAPI
import XAPIStub
import XCTest

@testable import TweetShell

/// The whole stream in real time with real parts: the stub's filtered stream over loopback stalls, the heartbeat
/// deadline (shortened, as only a test may) ends the connection, the stream reconnects at once, gap recovery's
/// recent search against the stub finds what the stall hid, and an SQLite store on a real file ends up with every
/// tweet the stub posted, exactly once.
final class StreamRecoveryTests: XCTestCase {
    /// The rules endpoint is not what is under test here: the one rule the stub's stream matches.
    private struct OneRule: ActiveRulesSource {
        func activeRules() async throws -> [ActiveRule] {
            let rule = StubStream.Settings().rule
            return [ActiveRule(id: rule.id, value: rule.value, tag: rule.tag)]
        }
    }

    func testAStallIsDetectedReconnectedAndItsGapRecoveredIntoTheStoreExactlyOnce() async throws {
        let stub = try StubServer()
        defer { stub.stop() }
        let total = 60
        stub.stream.configure(.init(tweetsPerSecond: 40, heartbeatInterval: 0.1, maximumTweets: total))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stream-recovery-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try TweetStore(location: .file(folder.appendingPathComponent("store.sqlite").path))
        defer { store.close() }

        let settings = XAPISettings(baseURL: stub.baseURL, requestTimeout: 10, version: "9.9.9-test")
        let client = XAPIClient(
            configuration: .init(settings: settings), token: BearerToken(StubServer.defaultBearerToken))
        let recovery = GapRecoverySearch.recovery(rules: OneRule(), source: XAPISource(client: client))
        let queue = DispatchQueue(label: "stream-recovery-test")
        let events = ReconnectingStream(
            connector: client, scheduler: queue, heartbeatTimeout: .milliseconds(600), recovery: recovery)
        let writer = StreamStoreWriter(store: store, collection: "gap")
        let viewModel = StreamViewModel(events: events, writer: writer, scheduler: queue, limit: total)
        var notices: [String] = []
        let lock = NSLock()
        let noticeSubscription = viewModel.notices.sink { text in lock.withLock { notices.append(text) } }
        defer { noticeSubscription.cancel() }

        // Stall once the first tweets are through, for longer than the heartbeat deadline.
        for _ in 0..<500 where stub.stream.sentIDs.count < 10 { try await Task.sleep(for: .milliseconds(10)) }
        stub.stream.enqueue(.stall(seconds: 1.5))
        let watchdog = Task {
            try await Task.sleep(for: .seconds(60))
            viewModel.cancel()
        }
        let final = await viewModel.finished()
        watchdog.cancel()
        viewModel.cancel()
        let summary = await writer.finish()

        XCTAssertGreaterThanOrEqual(stub.stream.connectionCount, 2, "reconnected after the stall")
        let said = lock.withLock { notices }
        XCTAssertTrue(said.contains { $0.hasPrefix("disconnected: no data or heartbeat") }, "\(said)")
        XCTAssertTrue(said.contains { $0.hasPrefix("recovered ") && $0.contains("missed during a") }, "\(said)")
        XCTAssertGreaterThan(final.recovered, 0, "the stall hid some tweets: \(said)")
        XCTAssertEqual(summary.stored, total, "every tweet once")
        XCTAssertEqual(summary.recovered, final.recovered)
        XCTAssertNil(summary.failure)

        let page = try await store.search(
            SearchRequest(query: "streamed", pageSize: 500).inCollection("gap"), cursor: nil)
        XCTAssertEqual(
            Set(page.tweets.map(\.id)), Set(stub.stream.posted.map(\.id)), "the store has what the stub posted")
        XCTAssertEqual(page.tweets.count, total)
        let marked = try await store.search(
            SearchRequest(query: "streamed", pageSize: 500).inCollection("gap-recovered"), cursor: nil)
        XCTAssertEqual(marked.tweets.count, final.recovered, "recovered tweets are marked")
    }
}

extension SearchRequest {
    fileprivate func inCollection(_ name: String) -> SearchRequest {
        var copy = self
        copy.collection = name
        return copy
    }
}
