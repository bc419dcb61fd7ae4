import StreamCore
import StreamTesting
import XCTest

final class ReplaceErrorTests: XCTestCase {
    func testFailureBecomesTheReplacementAndFinished() {
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, Never>()
        upstream.replaceError(with: 0).subscribe(tracking)
        upstream.send(1)
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(tracking.events, [.subscription, .value(1), .value(0), .completion(.finished)])
    }

    func testReplacementWaitsForDemand() {
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.replaceError(with: 0).subscribe(tracking)
        upstream.send(9)
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(tracking.events, [.subscription, .value(9)], "max(1) was used up by 9")
        tracking.request(.max(1))
        XCTAssertEqual(tracking.events, [.subscription, .value(9), .value(0), .completion(.finished)])
        tracking.request(.max(1))
        XCTAssertEqual(tracking.events.count, 4)
    }

    func testFinishedAndDemandPassThrough() {
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(2), demandAfterValue: { _ in .max(1) })
        upstream.replaceError(with: 0).subscribe(tracking)
        XCTAssertEqual(upstream.requests, [.max(2)])
        XCTAssertEqual(upstream.send(5), .max(1))
        upstream.send(completion: .finished)
        XCTAssertEqual(tracking.events, [.subscription, .value(5), .completion(.finished)])
    }

    func testCancelReachesUpstreamOnceAndSuppressesTheReplacement() {
        let upstream = ManualPublisher<Int, S4Error>(keepsSubscriberAfterCancel: true)
        let tracking = TrackingSubscriber<Int, Never>()
        upstream.replaceError(with: 0).subscribe(tracking)
        tracking.cancel()
        tracking.cancel()
        upstream.subscription?.send(completion: .failure(.boom))
        XCTAssertEqual(upstream.cancelCount, 1)
        XCTAssertEqual(tracking.events, [.subscription])
    }
}
