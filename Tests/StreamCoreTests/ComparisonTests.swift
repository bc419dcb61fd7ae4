import StreamCore
import StreamTesting
import XCTest

final class ComparisonTests: XCTestCase {
    func testMinAndMax() {
        s4AssertReduces({ $0.min() }, sending: [4, 2, 9, 2, 7], expect: 2)
        s4AssertReduces({ $0.max() }, sending: [4, 2, 9, 2, 7], expect: 9)
    }

    func testEmptyStreamPublishesNothingButFinishes() {
        s4AssertReduces({ $0.min() }, sending: [], expect: nil)
        s4AssertReduces({ $0.max() }, sending: [], expect: nil)
    }

    func testMinAndMaxByPredicateKeepTheFirstOfEqualElements() {
        let pairs = [(1, "a"), (0, "b"), (0, "c"), (5, "d"), (5, "e")]
        let minimum = TrackingSubscriber<String, Never>()
        pairs.publisher.min { $0.0 < $1.0 }.map { $0.1 }.subscribe(minimum)
        XCTAssertEqual(minimum.values, ["b"])
        let maximum = TrackingSubscriber<String, Never>()
        pairs.publisher.max { $0.0 < $1.0 }.map { $0.1 }.subscribe(maximum)
        XCTAssertEqual(maximum.values, ["d"])
    }

    func testComparisonForwardsFailureAndCancellation() {
        s4AssertReducerForwardsFailure { $0.max() }
        s4AssertReducerCancels { $0.min() }
    }

    func testTryMinAndTryMax() {
        s4AssertReduces({ $0.tryMin { $0 < $1 } }, sending: [3, 1, 2], expect: 1)
        s4AssertReduces({ $0.tryMax { $0 < $1 } }, sending: [3, 1, 2], expect: 3)
        s4AssertReducerForwardsFailure { $0.tryMax { $0 < $1 } }
        s4AssertReducerCancels { $0.tryMin { $0 < $1 } }
    }

    func testTryComparisonFailsWithThrownErrorAndCancelsUpstream() {
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, any Error>()
        upstream.tryMax { lhs, rhs in
            if rhs == 0 { throw S4Error.other }
            return lhs < rhs
        }.subscribe(tracking)
        upstream.send(1)
        upstream.send(0)
        XCTAssertEqual(s4Failure(tracking), .other)
        XCTAssertEqual(upstream.cancelCount, 1)
        XCTAssertEqual(tracking.values.count, 0)
    }
}
