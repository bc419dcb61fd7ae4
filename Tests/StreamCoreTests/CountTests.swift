import StreamCore
import StreamTesting
import XCTest

final class CountTests: XCTestCase {
    func testCountCountsOnDemand() {
        s4AssertReduces({ $0.count() }, sending: [5, 5, 5, 5], expect: 4)
        s4AssertReduces({ $0.count() }, sending: [], expect: 0)
    }

    func testCountForwardsFailureAndCancellation() {
        s4AssertReducerForwardsFailure { $0.count() }
        s4AssertReducerCancels { $0.count() }
    }

    func testCountOfASequence() {
        let tracking = TrackingSubscriber<Int, Never>()
        (0..<1000).publisher.count().subscribe(tracking)
        XCTAssertEqual(tracking.events, [.subscription, .value(1000), .completion(.finished)])
    }
}
