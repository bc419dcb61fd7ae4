import StreamCore
import StreamTesting
import XCTest

final class RemoveDuplicatesTests: XCTestCase {
    func testRemoveDuplicatesDropsConsecutiveRepeats() {
        let tracking = TrackingSubscriber<Int, Never>()
        [1, 1, 2, 2, 2, 1, 3, 3].publisher.removeDuplicates().subscribe(tracking)
        XCTAssertEqual(
            tracking.events, [.subscription, .value(1), .value(2), .value(1), .value(3), .completion(.finished)])
    }

    func testDuplicatesAreReplacedByARequestForOneMore() {
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: .max(1))
        upstream.removeDuplicates().subscribe(tracking)
        XCTAssertEqual(upstream.send(1), .none)
        XCTAssertEqual(upstream.send(1), .max(1))
        XCTAssertEqual(tracking.values, [1])
    }

    func testMaxDemandIsNeverExceeded() {
        let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        // Erased: on a Publishers.Sequence itself, Combine's specialization removes the duplicates up front.
        [1, 1, 2, 2, 3, 3].publisher.eraseToAnyPublisher().removeDuplicates().subscribe(tracking)
        XCTAssertEqual(tracking.values, [1, 2])
        tracking.request(.max(1))
        XCTAssertEqual(tracking.values, [1, 2, 3])
        XCTAssertNil(tracking.completion, "the sequence's last 3 waits for demand before it can be dropped")
        tracking.request(.max(1))
        XCTAssertEqual(tracking.events, [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    func testByPredicateComparesWithThePreviousUpstreamElement() {
        let tracking = TrackingSubscriber<Int, Never>()
        [1, 2, 3, 10, 11].publisher.removeDuplicates { $1 - $0 == 1 }.subscribe(tracking)
        XCTAssertEqual(tracking.values, [1, 10])
    }

    func testForwardsFailureAndCancel() {
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>()
        upstream.removeDuplicates().subscribe(tracking)
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(tracking.events, [.subscription, .completion(.failure(.boom))])

        let second = ManualPublisher<Int, S4Error>()
        let cancelling = TrackingSubscriber<Int, S4Error>()
        second.removeDuplicates().subscribe(cancelling)
        cancelling.cancel()
        cancelling.cancel()
        XCTAssertEqual(second.cancelCount, 1)
    }

    func testTryRemoveDuplicatesFailsWithThrownErrorAndCancelsUpstream() {
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, any Error>()
        upstream.tryRemoveDuplicates { previous, current in
            if current == 9 { throw S4Error.other }
            return previous == current
        }.subscribe(tracking)
        upstream.send(1)
        upstream.send(1)
        upstream.send(2)
        upstream.send(9)
        upstream.send(3)
        XCTAssertEqual(tracking.values, [1, 2])
        XCTAssertEqual(s4Failure(tracking), .other)
        XCTAssertEqual(upstream.cancelCount, 1)
    }
}
