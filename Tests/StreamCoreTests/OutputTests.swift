import StreamCore
import StreamTesting
import XCTest

final class OutputTests: XCTestCase {
    func testRangesTranslateAsCombineDoes() {
        let publisher = ManualPublisher<Int, Never>()
        XCTAssertEqual(publisher.prefix(3).range, 0..<3)
        XCTAssertEqual(publisher.prefix(0).range, 0..<0)
        XCTAssertEqual(publisher.output(at: 4).range, 4..<5)
        XCTAssertEqual(publisher.output(in: 2...3).range, 2..<4)
        XCTAssertEqual(publisher.output(in: 5...).range, 5..<Int.max)
        XCTAssertEqual(publisher.output(in: ..<8).range, 0..<8)
    }

    func testOutputInRangeSkipsWithReplacementDemandThenFinishesAfterTheRange() {
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: .max(2), demandAfterValue: { _ in .max(1) })
        upstream.output(in: 2..<4).subscribe(tracking)
        XCTAssertEqual(upstream.requests, [.max(2)], "downstream demand goes upstream unchanged")
        XCTAssertEqual(upstream.send(0), .max(1), "a skipped element is replaced")
        XCTAssertEqual(upstream.send(1), .max(1))
        XCTAssertEqual(upstream.send(2), .max(1), "in range: the downstream's own demand")
        XCTAssertEqual(tracking.events, [.subscription, .value(2)])
        upstream.send(3)
        XCTAssertEqual(
            tracking.events, [.subscription, .value(2), .value(3), .completion(.finished)],
            "finishes right after the last element of the range")
        XCTAssertEqual(upstream.cancelCount, 1)
    }

    func testOutputAtPublishesOneElement() {
        let tracking = TrackingSubscriber<String, Never>()
        ["a", "b", "c", "d"].publisher.output(at: 2).subscribe(tracking)
        XCTAssertEqual(tracking.events, [.subscription, .value("c"), .completion(.finished)])
    }

    func testPrefixFinishesWithoutWaitingForAnotherValue() {
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>()
        upstream.prefix(2).subscribe(tracking)
        upstream.send(1)
        XCTAssertNil(tracking.completion)
        upstream.send(2)
        XCTAssertEqual(tracking.events, [.subscription, .value(1), .value(2), .completion(.finished)])
        XCTAssertEqual(upstream.cancelCount, 1)
    }

    func testPrefixHonoursMaxDemand() {
        let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        (1...).publisher.prefix(3).subscribe(tracking)
        XCTAssertEqual(tracking.values, [1])
        tracking.request(.max(1))
        XCTAssertEqual(tracking.values, [1, 2])
        tracking.request(.max(5))
        XCTAssertEqual(tracking.events, [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    func testPrefixZeroFinishesOnTheFirstElement() {
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>()
        upstream.prefix(0).subscribe(tracking)
        upstream.send(1)
        XCTAssertEqual(tracking.events, [.subscription, .completion(.finished)])
        XCTAssertEqual(upstream.cancelCount, 1)
    }

    func testOutputForwardsFailureBeforeTheRangeEnds() {
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>()
        upstream.prefix(5).subscribe(tracking)
        upstream.send(1)
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(tracking.events, [.subscription, .value(1), .completion(.failure(.boom))])
        XCTAssertEqual(upstream.cancelCount, 0)
    }

    func testOutputCancelReachesUpstreamOnce() {
        let upstream = ManualPublisher<Int, S4Error>(keepsSubscriberAfterCancel: true)
        let tracking = TrackingSubscriber<Int, S4Error>()
        upstream.prefix(5).subscribe(tracking)
        tracking.cancel()
        tracking.cancel()
        XCTAssertEqual(upstream.subscription?.send(1), Subscribers.Demand.none)
        XCTAssertEqual(upstream.cancelCount, 1)
        XCTAssertEqual(
            tracking.events, [.subscription, .value(1)], "as in Combine, a value sent after a cancel still goes through"
        )
    }
}
