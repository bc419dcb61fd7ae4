import Foundation
import StreamCore
import StreamTesting
import TweetKit
import TweetStore
import XAPI
import XCTest

@testable import TweetShell

/// The stream's view model in virtual time: --limit, --for and stop end it; every tweet reaches the store; the state
/// stays bounded however many tweets pass.
final class StreamViewModelTests: XCTestCase {
    private var folder: URL!
    private var store: TweetStore!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("stream-vm-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = try TweetStore(location: .file(folder.appendingPathComponent("store.sqlite").path))
    }

    override func tearDown() {
        store.close()
        try? FileManager.default.removeItem(at: folder)
    }

    private func make(duration: Duration? = nil, limit: Int? = nil)
        -> (PassthroughSubject<StreamEvent, Never>, TestScheduler, StreamViewModel, StreamStoreWriter)
    {
        let events = PassthroughSubject<StreamEvent, Never>()
        let scheduler = TestScheduler()
        let writer = StreamStoreWriter(store: store, collection: "vm")
        let model = StreamViewModel(
            events: events, writer: writer, scheduler: scheduler, duration: duration, limit: limit)
        scheduler.advance()
        return (events, scheduler, model, writer)
    }

    func testLimitStopsAtExactlyNTweetsAndStoresThem() async throws {
        let (events, scheduler, model, writer) = make(limit: 5)
        events.send(.connecting(attempt: 1))
        events.send(.connected)
        for second in 0..<8 {
            events.send(.tweet(ScriptedStreamConnector.tweet(ScriptedStreamConnector.id(atSecond: Double(second)))))
        }
        scheduler.advance()
        let final = await model.finished()
        XCTAssertEqual(final.received, 5)
        let summary = await writer.finish()
        XCTAssertEqual(summary.stored, 5)
        XCTAssertNil(summary.failure)
    }

    func testForStopsAfterTheDurationInVirtualTime() async throws {
        let (events, scheduler, model, writer) = make(duration: .seconds(600))
        events.send(.connected)
        events.send(.tweet(ScriptedStreamConnector.tweet(ScriptedStreamConnector.id(atSecond: 1))))
        scheduler.advance(by: .seconds(599))
        events.send(.heartbeat)
        scheduler.advance()
        XCTAssertEqual(model.state.received, 1)
        if case .stopped = model.state.phase { XCTFail("stopped before its time") }
        scheduler.advance(by: .seconds(1))
        scheduler.advance()
        let final = await model.finished()
        XCTAssertEqual(final.received, 1)
        events.send(.tweet(ScriptedStreamConnector.tweet(ScriptedStreamConnector.id(atSecond: 700))))
        scheduler.advance()
        XCTAssertEqual(model.state.received, 1, "nothing after the end")
        _ = await writer.finish()
    }

    func testStopEndsItAndTheStateStaysBounded() async throws {
        let (events, scheduler, model, writer) = make()
        for index in 0..<1_000 {
            events.send(.tweet(ScriptedStreamConnector.tweet(ScriptedStreamConnector.id(atSecond: Double(index)))))
        }
        events.send(.disconnected(.stalled(seconds: 21)))
        events.send(.recovered(count: 3, gap: .seconds(120)))
        scheduler.advance()
        XCTAssertEqual(model.state.received, 1_000)
        XCTAssertEqual(model.state.recent.count, StreamState.keptTweets)
        XCTAssertEqual(
            model.state.recent.last?.id, ScriptedStreamConnector.tweet(ScriptedStreamConnector.id(atSecond: 999)).id)
        XCTAssertEqual(model.state.notices.last, "recovered 3 tweets missed during a 2 min disconnection")
        model.stop.send(())
        scheduler.advance()
        _ = await model.finished()
        let summary = await writer.finish()
        XCTAssertEqual(summary.stored, 1_000, "the screen keeps 200, the store gets all")
    }
}
