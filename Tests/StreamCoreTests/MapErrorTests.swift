import StreamCore
import StreamTesting
import XCTest

private struct Wrapped: Error, Equatable {
    var inner: S4Error
}

final class MapErrorTests: XCTestCase {
    func testFailureIsConverted() {
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, Wrapped>()
        upstream.mapError { Wrapped(inner: $0) }.subscribe(tracking)
        upstream.send(1)
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(tracking.events, [.subscription, .value(1), .completion(.failure(Wrapped(inner: .boom)))])
    }

    func testValuesFinishedAndDemandPassThrough() {
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, Wrapped>(initialDemand: .max(2), demandAfterValue: { _ in .max(1) })
        upstream.mapError { Wrapped(inner: $0) }.subscribe(tracking)
        XCTAssertEqual(upstream.requests, [.max(2)])
        XCTAssertEqual(upstream.send(3), .max(1))
        upstream.send(completion: .finished)
        XCTAssertEqual(tracking.events, [.subscription, .value(3), .completion(.finished)])
    }

    func testMaxDemandOnASequence() {
        let tracking = TrackingSubscriber<Int, Wrapped>(initialDemand: .max(2))
        (1...5).publisher.setFailureType(to: S4Error.self).mapError { Wrapped(inner: $0) }.subscribe(tracking)
        XCTAssertEqual(tracking.values, [1, 2])
    }

    func testCancelReachesUpstream() {
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, Wrapped>()
        upstream.mapError { Wrapped(inner: $0) }.subscribe(tracking)
        tracking.cancel()
        XCTAssertEqual(upstream.cancelCount, 1)
    }
}
