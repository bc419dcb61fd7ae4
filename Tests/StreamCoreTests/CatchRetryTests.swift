import StreamCore
import StreamTesting
import XCTest

final class CatchRetryTests: XCTestCase {
    func testCatchReplacesFailedUpstream() {
        let upstream = PassthroughSubject<Int, S2Error>()
        let tracker = TrackingSubscriber<Int, Never>()
        upstream.catch { error in Just(error.code) }.subscribe(tracker)
        upstream.send(1)
        upstream.send(completion: .failure(S2Error(9)))
        XCTAssertTrue(tracker.saw([1, 9], .finished))
    }

    func testCatchPassesOutstandingDemandToReplacement() {
        let upstream = ManualPublisher<Int, S2Error>()
        let replacement = ManualPublisher<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(3))
        upstream.catch { _ in replacement }.subscribe(tracker)
        XCTAssertEqual(upstream.requests, [.max(3)])
        _ = upstream.send(1)
        upstream.send(completion: .failure(S2Error()))
        XCTAssertEqual(replacement.requests, [.max(2)])
        tracker.cancel()
        XCTAssertEqual(replacement.cancelCount, 1)
    }

    func testTryCatchThrowingFails() {
        let tracker = TrackingSubscriber<Int, any Error>()
        Fail<Int, S2Error>(error: S2Error(1)).tryCatch { _ -> Just<Int> in throw S2Error(2) }.subscribe(tracker)
        XCTAssertEqual(tracker.failure as? S2Error, S2Error(2))
        let recovered = TrackingSubscriber<Int, any Error>()
        Fail<Int, S2Error>(error: S2Error(1)).tryCatch { _ in Just(5) }.subscribe(recovered)
        XCTAssertEqual(recovered.values, [5])
        XCTAssertTrue(recovered.isFinished)
    }

    func testRetryResubscribesUpToTheLimit() {
        let upstream = ManualPublisher<Int, S2Error>()
        let tracker = TrackingSubscriber<Int, S2Error>()
        upstream.retry(2).subscribe(tracker)
        for code in 1...3 {
            XCTAssertEqual(upstream.subscriptions.count, code)
            upstream.send(completion: .failure(S2Error(code)))
        }
        XCTAssertEqual(upstream.subscriptions.count, 3)
        XCTAssertEqual(tracker.completion, .failure(S2Error(3)))
    }

    func testRetryStopsAtSuccessAndKeepsValues() {
        let upstream = ManualPublisher<Int, S2Error>()
        let tracker = TrackingSubscriber<Int, S2Error>()
        upstream.retry(1).subscribe(tracker)
        _ = upstream.send(1)
        upstream.send(completion: .failure(S2Error()))
        XCTAssertEqual(upstream.subscriptions.count, 2)
        _ = upstream.send(2)
        upstream.send(completion: .finished)
        XCTAssertTrue(tracker.saw([1, 2], .finished))
    }

    func testRetryPreservesDemandAndRequestsExtraDemand() {
        let upstream = ManualPublisher<Int, S2Error>()
        let tracker = TrackingSubscriber<Int, S2Error>(initialDemand: .max(3), demandAfterValue: { .max($0) })
        upstream.retry(5).subscribe(tracker)
        XCTAssertEqual(upstream.send(5), .none, "extra demand is requested, not returned")
        XCTAssertEqual(upstream.requests, [.max(3), .max(5)])
        upstream.send(completion: .failure(S2Error()))
        XCTAssertEqual(upstream.subscriptions.last?.requests, [.max(7)], "the new subscription gets what is owed")
    }

    func testNegativeRetryCountRetriesWithoutLimit() {
        let upstream = ManualPublisher<Int, S2Error>()
        let tracker = TrackingSubscriber<Int, S2Error>()
        upstream.retry(-1).subscribe(tracker)
        for _ in 0..<20 { upstream.send(completion: .failure(S2Error())) }
        XCTAssertEqual(upstream.subscriptions.count, 21)
        XCTAssertNil(tracker.completion)
    }

    func testAppendAndPrepend() {
        let tracker = TrackingSubscriber<Int, Never>()
        [2, 3].publisher.append(4, 5).prepend(1).subscribe(tracker)
        XCTAssertTrue(tracker.saw([1, 2, 3, 4, 5], .finished))
        let failing = TrackingSubscriber<Int, S2Error>()
        Fail<Int, S2Error>(error: S2Error()).append(Just(1).setFailureType(to: S2Error.self)).subscribe(failing)
        XCTAssertTrue(failing.saw([], .failure(S2Error())))
    }

    func testConcatenateHonoursDemandAcrossTheSwitch() {
        let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(3))
        [1, 2].publisher.append([3, 4]).subscribe(tracker)
        XCTAssertTrue(tracker.saw([1, 2, 3], nil))
        tracker.request(.max(1))
        XCTAssertTrue(tracker.saw([1, 2, 3, 4], .finished))
    }

    func testPrefixUntilOutput() {
        let upstream = PassthroughSubject<Int, Never>()
        let trigger = PassthroughSubject<Void, Never>()
        let tracker = TrackingSubscriber<Int, Never>()
        upstream.prefix(untilOutputFrom: trigger).subscribe(tracker)
        upstream.send(1)
        trigger.send()
        upstream.send(2)
        XCTAssertTrue(tracker.saw([1], .finished))
    }

    func testDropUntilOutputDropsWithoutReplacingDemand() {
        let upstream = ManualPublisher<Int, Never>()
        let trigger = PassthroughSubject<Void, Never>()
        let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        upstream.drop(untilOutputFrom: trigger).subscribe(tracker)
        XCTAssertEqual(upstream.requests, [.max(2)])
        XCTAssertEqual(upstream.send(1), .none, "dropped, and not replaced by a request (as in Combine)")
        trigger.send()
        _ = upstream.send(2)
        XCTAssertEqual(tracker.values, [2])
        upstream.send(completion: .finished)
        XCTAssertEqual(tracker.completion, .finished)
    }
}
