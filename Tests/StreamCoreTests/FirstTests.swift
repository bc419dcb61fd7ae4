import StreamCore
import StreamTesting
import XCTest

final class FirstTests: XCTestCase {
    func testFirstCancelsUpstreamAtOnceAndDeliversOnDemand() {
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: nil)
        upstream.first().subscribe(tracking)
        XCTAssertEqual(upstream.requests, [.unlimited])
        upstream.send(4)
        XCTAssertEqual(upstream.cancelCount, 1)
        XCTAssertEqual(upstream.send(5), .none)
        XCTAssertEqual(tracking.events, [.subscription])
        tracking.request(.max(1))
        XCTAssertEqual(tracking.events, [.subscription, .value(4), .completion(.finished)])
    }

    func testFirstWithDemandDeliversImmediately() {
        let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        (7...).publisher.first().subscribe(tracking)
        XCTAssertEqual(tracking.events, [.subscription, .value(7), .completion(.finished)])
    }

    func testFirstOfEmptyStreamJustFinishes() {
        s4AssertReduces({ $0.first() }, sending: [], expect: nil)
    }

    func testFirstForwardsFailureAndCancellation() {
        s4AssertReducerForwardsFailure { $0.first { $0 > 5 } }
        s4AssertReducerCancels { $0.first() }
    }

    func testFirstWhere() {
        s4AssertReduces({ $0.first { $0 > 5 } }, sending: [1, 2], expect: nil)
        let tracking = TrackingSubscriber<Int, Never>()
        [1, 6, 8].publisher.first { $0 > 5 }.subscribe(tracking)
        XCTAssertEqual(tracking.events, [.subscription, .value(6), .completion(.finished)])
        s4AssertReducerCancels { $0.first { $0 > 5 } }
    }

    func testTryFirstWhere() {
        s4AssertReduces({ $0.tryFirst { $0 > 5 } }, sending: [1, 2], expect: nil)
        s4AssertReducerForwardsFailure { $0.tryFirst { $0 > 5 } }
        s4AssertReducerCancels { $0.tryFirst { $0 > 5 } }
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, any Error>()
        upstream.tryFirst { value in
            if value == 2 { throw S4Error.other }
            return false
        }.subscribe(tracking)
        upstream.send(1)
        upstream.send(2)
        XCTAssertEqual(s4Failure(tracking), .other)
        XCTAssertEqual(upstream.cancelCount, 1)
        XCTAssertEqual(tracking.values.count, 0)
    }
}
