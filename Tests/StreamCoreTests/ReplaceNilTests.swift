import StreamCore
import StreamTesting
import XCTest

final class ReplaceNilTests: XCTestCase {
    func testNilsAreReplaced() {
        let tracking = TrackingSubscriber<Int, Never>()
        let publisher: Publishers.Map<Publishers.Sequence<[Int?], Never>, Int> = [1, nil, 3].publisher.replaceNil(
            with: 0)
        publisher.subscribe(tracking)
        XCTAssertEqual(tracking.events, [.subscription, .value(1), .value(0), .value(3), .completion(.finished)])
    }

    func testDemandFailureAndCancelPassThrough() {
        let upstream = ManualPublisher<Int?, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: .max(1), demandAfterValue: { _ in .max(2) })
        upstream.replaceNil(with: -1).subscribe(tracking)
        XCTAssertEqual(upstream.requests, [.max(1)])
        XCTAssertEqual(upstream.send(nil), .max(2))
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(tracking.events, [.subscription, .value(-1), .completion(.failure(.boom))])

        let second = ManualPublisher<Int?, S4Error>()
        let cancelling = TrackingSubscriber<Int, S4Error>()
        second.replaceNil(with: 0).subscribe(cancelling)
        cancelling.cancel()
        XCTAssertEqual(second.cancelCount, 1)
    }
}
