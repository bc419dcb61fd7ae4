import StreamCore
import StreamTesting
import XCTest

final class PrefixWhileTests: XCTestCase {
    func testPrefixWhileStopsAtTheFirstFailingElement() {
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>()
        upstream.prefix { $0 < 3 }.subscribe(tracking)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        upstream.send(1)
        XCTAssertEqual(tracking.events, [.subscription, .value(1), .value(2), .completion(.finished)])
        XCTAssertEqual(upstream.cancelCount, 1)
    }

    func testPrefixWhilePassesDemandThrough() {
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: .max(2), demandAfterValue: { _ in .max(3) })
        upstream.prefix { $0 < 10 }.subscribe(tracking)
        XCTAssertEqual(upstream.requests, [.max(2)])
        XCTAssertEqual(upstream.send(1), .max(3))
        tracking.request(.max(4))
        XCTAssertEqual(upstream.requests, [.max(2), .max(4)])
    }

    func testPrefixWhileForwardsCompletionAndCancel() {
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>()
        upstream.prefix { $0 < 10 }.subscribe(tracking)
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(tracking.events, [.subscription, .completion(.failure(.boom))])

        let second = ManualPublisher<Int, S4Error>()
        let cancelling = TrackingSubscriber<Int, S4Error>()
        second.prefix { $0 < 10 }.subscribe(cancelling)
        cancelling.cancel()
        cancelling.cancel()
        XCTAssertEqual(second.cancelCount, 1)
    }

    func testTryPrefixWhile() {
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, any Error>()
        upstream.tryPrefix { value in
            if value == 2 { throw S4Error.other }
            return true
        }.subscribe(tracking)
        upstream.send(1)
        upstream.send(2)
        XCTAssertEqual(tracking.values, [1])
        XCTAssertEqual(s4Failure(tracking), .other)
        XCTAssertEqual(upstream.cancelCount, 1)

        let finishing = TrackingSubscriber<Int, any Error>()
        [1, 2, 5, 1].publisher.tryPrefix { $0 < 3 }.subscribe(finishing)
        XCTAssertEqual(finishing.values, [1, 2])
        XCTAssertTrue(finishing.isFinished)
    }
}
