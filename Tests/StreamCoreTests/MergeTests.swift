import StreamCore
import StreamTesting
import XCTest

final class MergeTests: XCTestCase {
    func testMergeInterleavesAndFinishesWhenAllFinish() {
        let a = PassthroughSubject<Int, S2Error>()
        let b = PassthroughSubject<Int, S2Error>()
        let tracker = TrackingSubscriber<Int, S2Error>()
        a.merge(with: b).subscribe(tracker)
        a.send(1)
        b.send(2)
        a.send(3)
        a.send(completion: .finished)
        XCTAssertNil(tracker.completion)
        b.send(4)
        b.send(completion: .finished)
        XCTAssertTrue(tracker.saw([1, 2, 3, 4], .finished))
    }

    func testMergeFailsAtFirstFailureAndCancelsOthers() {
        let a = ManualPublisher<Int, S2Error>()
        let b = ManualPublisher<Int, S2Error>()
        let tracker = TrackingSubscriber<Int, S2Error>()
        a.merge(with: b).subscribe(tracker)
        a.send(completion: .failure(S2Error(2)))
        XCTAssertTrue(tracker.saw([], .failure(S2Error(2))))
        XCTAssertEqual(b.cancelCount, 1)
        XCTAssertEqual(a.cancelCount, 0)
    }

    func testMergeOfJustsWithSynchronousCompletion() {
        let tracker = TrackingSubscriber<Int, Never>()
        Just(1).merge(with: Just(2), Just(3)).subscribe(tracker)
        XCTAssertTrue(tracker.saw([1, 2, 3], .finished))
        let eight = TrackingSubscriber<Int, Never>()
        Just(1).merge(with: Just(2), Just(3), Just(4), Just(5), Just(6), Just(7), Just(8)).subscribe(eight)
        XCTAssertTrue(eight.saw(Array(1...8), .finished))
    }

    func testMergeManyAndEmptyMergeMany() {
        let tracker = TrackingSubscriber<Int, Never>()
        Publishers.MergeMany([1, 2].publisher, [3].publisher).merge(with: [4].publisher).subscribe(tracker)
        XCTAssertTrue(tracker.saw([1, 2, 3, 4], .finished))
        let empty = TrackingSubscriber<Int, Never>()
        Publishers.MergeMany<Just<Int>>([]).subscribe(empty)
        XCTAssertTrue(empty.saw([], .finished))
    }

    func testBackpressureNeverExceedsDemandAndNothingIsLost() {
        let a = [1, 2, 3].publisher
        let b = [10, 20, 30].publisher
        let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        a.merge(with: b).subscribe(tracker)
        XCTAssertEqual(tracker.values.count, 2)
        XCTAssertNil(tracker.completion)
        tracker.request(.max(10))
        XCTAssertEqual(tracker.values.sorted(), [1, 2, 3, 10, 20, 30])
        XCTAssertEqual(tracker.completion, .finished)
    }

    func testNothingIsRequestedBeforeDownstreamDemand() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>(initialDemand: nil)
        a.merge(with: b).subscribe(tracker)
        XCTAssertEqual(a.requests, [])
        tracker.request(.unlimited)
        XCTAssertEqual(a.requests, [.max(1), .unlimited], "Combine's merge asks for one, then for unlimited")
        XCTAssertEqual(b.requests, [.max(1), .unlimited])
        XCTAssertEqual(a.send(1), .none)
    }

    func testFiniteDemandKeepsOneRequestPerUpstream() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>(initialDemand: nil)
        a.merge(with: b).subscribe(tracker)
        tracker.request(.max(1))
        XCTAssertEqual(a.requests, [.max(1)])
        XCTAssertEqual(b.requests, [.max(1)])
        XCTAssertEqual(a.send(1), .max(1), "delivered: asked again at once")
        XCTAssertEqual(b.send(2), .none, "no demand: held, not dropped")
        XCTAssertEqual(tracker.values, [1])
        tracker.request(.max(2))
        XCTAssertEqual(tracker.values, [1, 2])
        XCTAssertEqual(b.requests, [.max(1), .max(1)])
        XCTAssertEqual(a.send(3), .max(1))
        XCTAssertEqual(tracker.values, [1, 2, 3])
    }

    func testCancelCancelsEveryUpstream() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<Int, Never>()
        let c = ManualPublisher<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>()
        a.merge(with: b, c).subscribe(tracker)
        tracker.cancel()
        XCTAssertEqual([a.cancelCount, b.cancelCount, c.cancelCount], [1, 1, 1])
        a.send(1)
        XCTAssertTrue(tracker.values.isEmpty)
    }
}
