import StreamCore
import StreamTesting
import XCTest

final class LastTests: XCTestCase {
    func testLastWaitsForTheEnd() {
        s4AssertReduces({ $0.last() }, sending: [1, 2, 3], expect: 3)
        s4AssertReduces({ $0.last() }, sending: [], expect: nil)
    }

    func testLastForwardsFailureAndCancellation() {
        s4AssertReducerForwardsFailure { $0.last() }
        s4AssertReducerCancels { $0.last() }
    }

    func testLastWhere() {
        s4AssertReduces({ $0.last { $0.isMultiple(of: 2) } }, sending: [2, 4, 5], expect: 4)
        s4AssertReduces({ $0.last { $0 > 100 } }, sending: [2, 4, 5], expect: nil)
        s4AssertReducerForwardsFailure { $0.last { $0 > 1 } }
        s4AssertReducerCancels { $0.last { $0 > 1 } }
    }

    func testTryLastWhere() {
        s4AssertReduces({ $0.tryLast { $0 < 5 } }, sending: [2, 4, 5], expect: 4)
        s4AssertReducerForwardsFailure { $0.tryLast { $0 > 1 } }
        s4AssertReducerCancels { $0.tryLast { $0 > 1 } }
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, any Error>()
        upstream.tryLast { value in
            if value == 3 { throw S4Error.other }
            return true
        }.subscribe(tracking)
        upstream.send(1)
        upstream.send(3)
        upstream.send(completion: .finished)
        XCTAssertEqual(s4Failure(tracking), .other)
        XCTAssertEqual(tracking.values.count, 0)
        XCTAssertEqual(upstream.cancelCount, 1)
    }
}
