import StreamCore
import StreamTesting
import XCTest

final class CollectTests: XCTestCase {
    func testCollectGathersEverythingIntoOneArray() {
        s4AssertReduces({ $0.collect() }, sending: [3, 1, 2], expect: [3, 1, 2])
        s4AssertReduces({ $0.collect() }, sending: [], expect: [])
    }

    func testCollectForwardsFailureAndCancellation() {
        s4AssertReducerForwardsFailure { $0.collect() }
        s4AssertReducerCancels { $0.collect() }
    }

    func testCollectByCountBatchesAndFlushesTheRemainderOnFinish() {
        let tracking = TrackingSubscriber<[Int], Never>()
        (1...7).publisher.collect(3).subscribe(tracking)
        XCTAssertEqual(
            tracking.events,
            [.subscription, .value([1, 2, 3]), .value([4, 5, 6]), .value([7]), .completion(.finished)])
    }

    func testCollectByCountScalesDemandByTheCount() {
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<[Int], S4Error>(initialDemand: .max(2), demandAfterValue: { _ in .max(1) })
        upstream.collect(2).subscribe(tracking)
        XCTAssertEqual(upstream.requests, [.max(4)])
        upstream.send(1)
        XCTAssertEqual(upstream.send(2), .max(2), "one more array is two more elements")
        XCTAssertEqual(tracking.values, [[1, 2]])
        tracking.request(.max(3))
        XCTAssertEqual(upstream.requests, [.max(4), .max(6)])
    }

    func testCollectByCountHonoursMaxDemandFromASequence() {
        let tracking = TrackingSubscriber<[Int], Never>(initialDemand: .max(1))
        (1...10).publisher.collect(2).subscribe(tracking)
        XCTAssertEqual(tracking.values, [[1, 2]])
        tracking.request(.max(2))
        XCTAssertEqual(tracking.values, [[1, 2], [3, 4], [5, 6]])
        XCTAssertNil(tracking.completion)
    }

    func testCollectByCountDropsThePartialBatchOnFailure() {
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<[Int], S4Error>()
        upstream.collect(2).subscribe(tracking)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(tracking.events, [.subscription, .value([1, 2]), .completion(.failure(.boom))])
    }

    func testCollectByCountCancelsUpstream() {
        let upstream = ManualPublisher<Int, S4Error>(keepsSubscriberAfterCancel: true)
        let tracking = TrackingSubscriber<[Int], S4Error>()
        upstream.collect(2).subscribe(tracking)
        upstream.send(1)
        tracking.cancel()
        XCTAssertEqual(upstream.cancelCount, 1)
        upstream.subscription?.send(2)
        upstream.subscription?.send(completion: .finished)
        XCTAssertEqual(
            tracking.events, [.subscription, .completion(.finished)], "as in Combine: no group, but the finish")
    }
}
