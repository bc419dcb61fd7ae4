import StreamCore
import StreamTesting
import XCTest

final class ReduceTests: XCTestCase {
    func testReduceFoldsEveryValueAndDeliversOnDemand() {
        s4AssertReduces({ $0.reduce(1, *) }, sending: [1, 2, 3, 4, 5], expect: 120)
    }

    func testReduceOfEmptyStreamPublishesTheInitialValue() {
        s4AssertReduces({ $0.reduce(7, +) }, sending: [], expect: 7)
    }

    func testReduceOverASequence() {
        let tracking = TrackingSubscriber<String, Never>()
        ["a", "b", "c"].publisher.reduce("", +).subscribe(tracking)
        XCTAssertEqual(tracking.events, [.subscription, .value("abc"), .completion(.finished)])
    }

    func testReduceForwardsFailureAndCancellation() {
        s4AssertReducerForwardsFailure { $0.reduce(0, +) }
        s4AssertReducerCancels { $0.reduce(0, +) }
    }

    func testReduceWaitsForDemandWithMaxBackpressure() {
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: .max(1))
        upstream.reduce(0, +).subscribe(tracking)
        upstream.send(2)
        upstream.send(3)
        XCTAssertEqual(tracking.values, [])
        upstream.send(completion: .finished)
        XCTAssertEqual(tracking.events, [.subscription, .value(5), .completion(.finished)])
    }

    func testTryReduceFoldsLikeReduce() {
        s4AssertReduces({ $0.tryReduce(0) { $0 + $1 } }, sending: [1, 2, 3], expect: 6)
        s4AssertReducerForwardsFailure { $0.tryReduce(0) { $0 + $1 } }
        s4AssertReducerCancels { $0.tryReduce(0) { $0 + $1 } }
    }

    func testTryReduceFailsWithThrownErrorAndCancelsUpstreamFirst() {
        let upstream = ManualPublisher<Int, S4Error>()
        var cancelledBeforeFailure = false
        let tracking = TrackingSubscriber<Int, any Error>(
            initialDemand: nil,
            onEvent: { event in
                if case .completion = event { cancelledBeforeFailure = upstream.cancelCount == 1 }
            })
        upstream.tryReduce(0) { sum, value in
            if value == 3 { throw S4Error.other }
            return sum + value
        }.subscribe(tracking)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        XCTAssertEqual(s4Failure(tracking), .other)
        XCTAssertTrue(cancelledBeforeFailure)
        upstream.send(4)
        tracking.request(.max(1))
        XCTAssertEqual(tracking.values, [])
        XCTAssertEqual(tracking.events.count, 2)
    }

    func testASynchronousFailureNeverOvertakesTheSubscription() {
        let failing = TrackingSubscriber<Int, S4Error>(initialDemand: nil)
        Record<Int, S4Error>(output: [1, 2], completion: .failure(.boom)).reduce(0, +).subscribe(failing)
        XCTAssertEqual(failing.events, [.subscription, .completion(.failure(.boom))])

        let throwing = TrackingSubscriber<Int, any Error>(initialDemand: nil)
        [1, 2].publisher.tryReduce(0) { _, _ in throw S4Error.other }.subscribe(throwing)
        XCTAssertEqual(throwing.events.count, 2)
        if case .subscription? = throwing.events.first {} else { XCTFail("subscription must come first: \(throwing)") }
        XCTAssertEqual(s4Failure(throwing), .other)
    }
}
