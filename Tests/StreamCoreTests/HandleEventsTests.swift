import StreamCore
import StreamTesting
import XCTest

/// Collects the order in which closures and subscriber events happen.
private final class EventLog: @unchecked Sendable {
    var entries: [String] = []
}

final class HandleEventsTests: XCTestCase {
    private func observed(
        _ upstream: ManualPublisher<Int, S4Error>,
        log: EventLog
    ) -> Publishers.HandleEvents<ManualPublisher<Int, S4Error>> {
        upstream.handleEvents(
            receiveSubscription: { _ in log.entries.append("subscription") },
            receiveOutput: { log.entries.append("output \($0)") },
            receiveCompletion: { log.entries.append("completion \($0)") },
            receiveCancel: { log.entries.append("cancel") },
            receiveRequest: { log.entries.append("request \($0)") }
        )
    }

    func testClosuresRunBeforeEachEventIsPassedOn() {
        let log = EventLog()
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>(
            initialDemand: .max(1),
            demandAfterValue: { _ in .max(2) },
            onEvent: { event in log.entries.append("downstream \(event)") }
        )
        observed(upstream, log: log).subscribe(tracking)
        upstream.send(5)
        upstream.send(completion: .finished)
        XCTAssertEqual(
            log.entries,
            [
                "subscription", "downstream subscription", "request max(1)",
                "output 5", "downstream value(5)", "request max(2)",
                "completion finished", "downstream finished",
            ])
        XCTAssertEqual(upstream.requests, [.max(1)], "synchronous demand is reported but goes back as a return value")
    }

    func testFailureAndMaxDemandPassThrough() {
        let log = EventLog()
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: .max(3))
        observed(upstream, log: log).subscribe(tracking)
        XCTAssertEqual(upstream.requests, [.max(3)])
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(tracking.events, [.subscription, .completion(.failure(.boom))])
        XCTAssertEqual(log.entries.last, "completion failure(StreamCoreTests.S4Error.boom)")
    }

    func testCancelRunsTheClosureOnceThenCancelsUpstream() {
        let log = EventLog()
        let upstream = ManualPublisher<Int, S4Error>(keepsSubscriberAfterCancel: true)
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: nil)
        observed(upstream, log: log).subscribe(tracking)
        tracking.cancel()
        tracking.cancel()
        upstream.subscription?.send(1)
        XCTAssertEqual(log.entries, ["subscription", "cancel"], "no closure runs after the cancel")
        XCTAssertEqual(upstream.cancelCount, 1)
        XCTAssertEqual(tracking.events, [.subscription, .value(1)], "as in Combine, a late value still passes through")
    }

    func testClosuresAreReleasedWhenTheStreamEnds() {
        weak var weakToken: S4Token?
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>()
        do {
            let token = S4Token()
            weakToken = token
            upstream.handleEvents(receiveOutput: { _ in _ = token }).subscribe(tracking)
        }
        XCTAssertNotNil(weakToken)
        upstream.send(completion: .finished)
        XCTAssertNil(weakToken, "the closure's captures are freed on completion")
    }
}

/// Something to hold weakly, to see when a closure's captures are released.
final class S4Token: @unchecked Sendable {}
