import Foundation
import StreamCore
import StreamTesting
import TweetKit
import XAPI
import XCTest

@testable import TweetShell

/// The reconnecting filtered stream in virtual time: the heartbeat deadline, each documented backoff, gap recovery and
/// duplicates, driven through a scripted connector under TestScheduler.
final class ReconnectingStreamTests: XCTestCase {
    private var scheduler: TestScheduler!
    private var connector: ScriptedStreamConnector!
    private var events: [(at: Int, event: StreamEvent)] = []
    private var finished = false
    private var cancellable: AnyCancellable?
    private var script = RecoveryScript()
    private var recoveries: [(since: TweetID, until: TweetID)] { script.calls }
    private var recoveryAnswer: [StreamedTweet] {
        get { script.answer }
        set { script.answer = newValue }
    }

    override func setUp() {
        scheduler = TestScheduler()
        connector = ScriptedStreamConnector()
        events = []
        finished = false
        script = RecoveryScript()
    }

    override func tearDown() {
        cancellable?.cancel()
        cancellable = nil
    }

    private func start(recovery: Bool = true) {
        let script = self.script
        let recover: GapRecovery = { since, until in
            script.calls.append((since, until))
            return Just(script.answer).setFailureType(to: (any Error).self).eraseToAnyPublisher()
        }
        let stream = ReconnectingStream(
            connector: connector, scheduler: scheduler, recovery: recovery ? recover : nil)
        cancellable = stream.sink(
            receiveCompletion: { [unowned self] _ in finished = true },
            receiveValue: { [unowned self] in events.append((millis, $0)) })
        scheduler.advance()
    }

    private var millis: Int { scheduler.now.nanoseconds / 1_000_000 }

    /// Virtual milliseconds at which each connection attempt started.
    private var attemptTimes: [Int] {
        events.compactMap { if case .connecting = $0.event { $0.at } else { nil } }
    }

    private var tweetIDs: [UInt64] {
        events.compactMap { if case .tweet(let tweet) = $0.event { tweet.id.rawValue } else { nil } }
    }

    private var disconnects: [StreamFailure] {
        events.compactMap { if case .disconnected(let failure) = $0.event { failure } else { nil } }
    }

    private func step(_ action: () -> Void) {
        action()
        scheduler.advance()
    }

    /// Fails the current connection the same way `count` times in a row and returns the waits between attempts.
    private func waits(failing count: Int, with failure: StreamFailure) -> [Int] {
        for _ in 0..<count {
            step { connector.last.send(.ended(failure)) }
            let before = connector.connections.count
            // Run the wait out in virtual time, one second at a time, until the next attempt starts.
            var guardSteps = 0
            while connector.connections.count == before && guardSteps < 4_000 {
                scheduler.advance(by: .milliseconds(250))
                guardSteps += 1
            }
        }
        let times = attemptTimes
        return zip(times.dropFirst(), times).map { $0 - $1 }
    }

    func testAStallOf25SecondsReconnectsAtOnceAfter21AndRecoversTheGapWithoutDuplicates() {
        start()
        let early = (0..<5).map { ScriptedStreamConnector.id(atSecond: Double($0)) }
        step { connector.last.open() }
        for id in early { step { connector.last.tweet(id) } }
        // The stub goes silent; 20 s of silence is still alive, 21 s is dead.
        scheduler.advance(by: .seconds(20))
        XCTAssertEqual(connector.connections.count, 1)
        XCTAssertTrue(disconnects.isEmpty)
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(disconnects, [.stalled(seconds: 21)])
        XCTAssertTrue(connector.connections[0].isCancelled, "the dead connection is closed")
        XCTAssertEqual(connector.connections.count, 2, "an established connection that stalls is reconnected at once")
        XCTAssertEqual(attemptTimes, [0, 21_000])
        XCTAssertFalse(events.contains { if case .waiting = $0.event { true } else { false } })

        // What was posted during the 25 s the stream was silent, found by the recent search; one is a duplicate.
        let missed = (1...3).map { ScriptedStreamConnector.id(atSecond: 5 + Double($0) * 6) }
        recoveryAnswer = ([early[4]] + missed).map { ScriptedStreamConnector.tweet($0) }
        let firstNew = ScriptedStreamConnector.id(atSecond: 30)
        scheduler.advance(by: .seconds(4))
        step { connector.last.open() }
        step { connector.last.tweet(firstNew) }
        step { connector.last.tweet(firstNew) }  // The stream repeats itself: dropped by id.
        XCTAssertEqual(recoveries.map(\.since.rawValue), [early[4]])
        XCTAssertEqual(recoveries.map(\.until.rawValue), [firstNew])
        XCTAssertEqual(Set(tweetIDs), Set(early + missed + [firstNew]))
        XCTAssertEqual(tweetIDs.count, Set(tweetIDs).count, "every tweet exactly once")
        let recovered = events.compactMap { event -> (Int, Duration)? in
            if case .recovered(let count, let gap) = event.event { (count, gap) } else { nil }
        }
        XCTAssertEqual(recovered.map(\.0), [3])
        XCTAssertEqual(recovered.first?.1, .seconds(26), "the gap runs from the last tweet seen to the first new one")
        let marked = events.compactMap { if case .tweet(let t) = $0.event, t.recovered { t.id.rawValue } else { nil } }
        XCTAssertEqual(marked, missed)
    }

    func testADroppedConnectionIsReconnectedAtOnceThenNetworkErrorsBackOffLinearlyTo16Seconds() {
        start()
        step { connector.last.open() }
        step { connector.last.heartbeat() }
        step { connector.last.send(.ended(.dropped(reason: "reset"))) }
        XCTAssertEqual(attemptTimes, [0, 0], "reconnected at once")
        // The new connection cannot be made: 250 ms, 500 ms, … by 250 ms up to 16 s.
        let gaps = waits(failing: 66, with: .network(reason: "connection refused"))
        XCTAssertEqual(Array(gaps.prefix(5)), [0, 250, 500, 750, 1_000])
        XCTAssertEqual(gaps[64], 16_000)
        XCTAssertEqual(gaps[65], 16_000, "capped at 16 s")
        // Once a connection works again, a drop is reconnected at once again.
        step { connector.last.open() }
        step { connector.last.heartbeat() }
        let before = attemptTimes.count
        step { connector.last.send(.ended(.dropped(reason: "reset"))) }
        XCTAssertEqual(attemptTimes.count, before + 1)
        XCTAssertEqual(attemptTimes.last, millis)
    }

    func testOperationalDisconnectIsExplainedAndBacksOffAsAnHTTPError() {
        start()
        step { connector.last.open() }
        step { connector.last.tweet(ScriptedStreamConnector.id(atSecond: 0)) }
        step { connector.last.send(.message(.disconnect(.operationalDisconnect(detail: "maintenance")))) }
        XCTAssertEqual(disconnects, [.operationalDisconnect(detail: "maintenance")])
        XCTAssertTrue(disconnects[0].explanation.contains("operational reasons"))
        scheduler.advance(by: .milliseconds(4_999))
        XCTAssertEqual(connector.connections.count, 1, "not retried blindly: it waits 5 s")
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(attemptTimes, [0, 5_000])
        let notices = events.compactMap { if case .waiting(let n) = $0.event { n.secondsLeft } else { nil } }
        XCTAssertEqual(notices, [5, 4, 3, 2, 1, 0], "the wait counts down once a second")
    }

    func testHTTPErrorsBackOffExponentiallyFrom5To320Seconds() {
        start()
        let gaps = waits(failing: 8, with: .http(status: 503, title: "Service Unavailable"))
        XCTAssertEqual(gaps, [5, 10, 20, 40, 80, 160, 320, 320].map { $0 * 1000 })
    }

    func testA429BacksOffExponentiallyFromAMinute() {
        start()
        let gaps = waits(failing: 4, with: .rateLimited)
        XCTAssertEqual(gaps, [60, 120, 240, 480].map { $0 * 1000 })
    }

    func testTooManyConnectionsIsExplainedAndWaitsAsA429() {
        start()
        let gaps = waits(failing: 3, with: .tooManyConnections)
        XCTAssertEqual(gaps, [60_000, 120_000, 240_000])
        XCTAssertTrue(StreamFailure.tooManyConnections.explanation.contains("another client"))
        let notice = events.compactMap { if case .waiting(let n) = $0.event { n } else { nil } }.first
        XCTAssertEqual(notice?.failure, .tooManyConnections)
        XCTAssertEqual(notice?.secondsLeft, 60)
    }

    func testTheUsageCapStopsTheStreamInsteadOfRetrying() {
        start()
        step { connector.last.send(.ended(.usageCapExceeded)) }
        scheduler.advance(by: .seconds(3_600))
        XCTAssertEqual(connector.connections.count, 1)
        XCTAssertTrue(finished)
        XCTAssertTrue(events.contains { $0.event == .stopped(.usageCapExceeded) })
    }

    func testCancellingDuringAWaitEndsItAndConnectsNoMore() {
        start()
        step { connector.last.send(.ended(.rateLimited)) }
        scheduler.advance(by: .seconds(10))
        cancellable?.cancel()
        scheduler.advance(by: .seconds(600))
        XCTAssertEqual(connector.connections.count, 1)
        XCTAssertEqual(scheduler.pendingActionCount, 0, "the countdown stopped too")
    }

    func testEventsOfAClosedConnectionAreIgnored() {
        start()
        let first = connector.last
        step { first.open() }
        step { first.heartbeat() }
        step { first.send(.ended(.dropped(reason: "reset"))) }
        step { first.tweet(ScriptedStreamConnector.id(atSecond: 1)) }
        XCTAssertTrue(tweetIDs.isEmpty)
    }
}

/// The recent search gap recovery would run, answering what the test set (the scheduler runs everything on the test's
/// thread, so no lock is needed).
private final class RecoveryScript: @unchecked Sendable {
    var calls: [(since: TweetID, until: TweetID)] = []
    var answer: [StreamedTweet] = []
}
