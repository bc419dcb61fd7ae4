import StreamCore
import StreamTesting
import XCTest

final class SetFailureTypeTests: XCTestCase {
    func testValuesAndCompletionPassThroughWithTheNewType() {
        let tracking = TrackingSubscriber<Int, S4Error>()
        let publisher: Publishers.SetFailureType<Publishers.Sequence<[Int], Never>, S4Error> =
            [1, 2].publisher.setFailureType(to: S4Error.self)
        publisher.subscribe(tracking)
        XCTAssertEqual(tracking.events, [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    func testSettingTheTypeAgainDoesNotNest() {
        // Erased, so the generic operator applies (on a Publishers.Sequence, Combine's specialization does instead).
        let upstream = [1].publisher.eraseToAnyPublisher()
        let publisher = upstream.setFailureType(to: S4Error.self).setFailureType(to: (any Error).self)
        let _: Publishers.SetFailureType<AnyPublisher<Int, Never>, any Error> = publisher
        let tracking = TrackingSubscriber<Int, any Error>()
        publisher.subscribe(tracking)
        XCTAssertEqual(tracking.values, [1])
    }

    func testDemandAndCancelPassThrough() {
        let upstream = ManualPublisher<Int, Never>()
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: .max(3), demandAfterValue: { _ in .max(1) })
        upstream.setFailureType(to: S4Error.self).subscribe(tracking)
        XCTAssertEqual(upstream.requests, [.max(3)])
        XCTAssertEqual(upstream.send(1), .max(1))
        tracking.cancel()
        XCTAssertEqual(upstream.cancelCount, 1)
    }
}
