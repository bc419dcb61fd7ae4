import StreamCore
import StreamTesting
import XCTest

final class FlatMapTests: XCTestCase {
    func testMergesInnerPublishersAndFinishesWhenAllHave() {
        let subject = PassthroughSubject<Int, S2Error>()
        let inners = [ManualPublisher<Int, S2Error>(), ManualPublisher<Int, S2Error>()]
        let tracker = TrackingSubscriber<Int, S2Error>()
        subject.flatMap { inners[$0] }.subscribe(tracker)
        subject.send(0)
        subject.send(1)
        inners[0].send(10)
        inners[1].send(20)
        inners[0].send(11)
        subject.send(completion: .finished)
        inners[0].send(completion: .finished)
        XCTAssertNil(tracker.completion, "must wait for every inner publisher")
        inners[1].send(completion: .finished)
        XCTAssertTrue(tracker.saw([10, 20, 11], .finished))
    }

    /// As in Combine, an inner failure cancels the other inner publishers but leaves upstream alone.
    func testInnerFailureFailsAndCancelsTheOtherInners() {
        let subject = ManualPublisher<Int, S2Error>()
        let inners = [ManualPublisher<Int, S2Error>(), ManualPublisher<Int, S2Error>()]
        let tracker = TrackingSubscriber<Int, S2Error>()
        subject.flatMap { inners[$0] }.subscribe(tracker)
        _ = subject.send(0)
        _ = subject.send(1)
        inners[1].send(completion: .failure(S2Error(7)))
        XCTAssertTrue(tracker.saw([], .failure(S2Error(7))))
        XCTAssertEqual(inners[0].cancelCount, 1)
        XCTAssertEqual(subject.cancelCount, 0, "upstream is not cancelled")
        XCTAssertEqual(inners[1].cancelCount, 0, "the failed publisher is not cancelled")
    }

    func testMaxPublishersLimitsUpstreamDemand() {
        let upstream = ManualPublisher<Int, Never>()
        let inners = (0..<3).map { _ in ManualPublisher<Int, Never>() }
        let tracker = TrackingSubscriber<Int, Never>()
        upstream.flatMap(maxPublishers: .max(2)) { inners[$0] }.subscribe(tracker)
        XCTAssertEqual(upstream.requests, [.max(2)])
        _ = upstream.send(0)
        _ = upstream.send(1)
        inners[0].send(completion: .finished)
        XCTAssertEqual(upstream.requests, [.max(2), .max(1)], "one more publisher after one finishes")
        _ = upstream.send(2)
        inners[2].send(5)
        XCTAssertEqual(tracker.values, [5])
    }

    func testBackpressureBuffersOneValuePerInnerAndAsksAgainAfterDelivery() {
        let upstream = PassthroughSubject<Int, Never>()
        let inners = [ManualPublisher<Int, Never>(), ManualPublisher<Int, Never>()]
        let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.flatMap { inners[$0] }.subscribe(tracker)
        upstream.send(0)
        upstream.send(1)
        XCTAssertEqual(inners[0].requests, [.max(1)])
        XCTAssertEqual(inners[1].requests, [.max(1)])
        XCTAssertEqual(inners[0].send(1), .max(1), "one outstanding request per inner publisher, as Combine keeps")
        XCTAssertEqual(inners[1].send(2), .none)
        XCTAssertEqual(tracker.values, [1], "never more than requested")
        tracker.request(.max(1))
        XCTAssertEqual(tracker.values, [1, 2], "the buffered value is delivered on demand, not dropped")
        XCTAssertEqual(inners[1].requests, [.max(1), .max(1)], "its publisher is asked again once it was delivered")
    }

    func testDemandAsCombineRecordsIt() {
        let upstream = PassthroughSubject<ManualPublisher<Int, Never>, Never>()
        let first = ManualPublisher<Int, Never>()
        let second = ManualPublisher<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        upstream.flatMap { $0 }.subscribe(tracker)
        upstream.send(first)
        upstream.send(second)
        XCTAssertEqual(first.requests, [.max(1)])
        XCTAssertEqual(first.send(666), .max(1))
        XCTAssertEqual(first.send(777), .max(1), "asked again even with no demand left: one value may wait")
        XCTAssertEqual(first.send(888), .none)
        XCTAssertEqual(first.send(999), .none)
        XCTAssertEqual(tracker.values, [666, 777])
        tracker.request(.max(10))
        XCTAssertEqual(tracker.values, [666, 777, 888, 999])
        XCTAssertEqual(first.requests, [.max(1), .max(1), .max(1)], "one more for each queued value delivered")
        XCTAssertEqual(second.requests, [.max(1)])
        tracker.request(.unlimited)
        XCTAssertEqual(first.requests.last, .unlimited, "downstream went unlimited, so does every child")
        XCTAssertEqual(second.requests.last, .unlimited)
    }

    func testCancelCancelsUpstreamAndInnersAndStopsValues() {
        let upstream = ManualPublisher<Int, Never>()
        let inner = ManualPublisher<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>()
        upstream.flatMap { _ in inner }.subscribe(tracker)
        _ = upstream.send(0)
        tracker.cancel()
        XCTAssertEqual(upstream.cancelCount, 1)
        XCTAssertEqual(inner.cancelCount, 1)
        XCTAssertTrue(tracker.values.isEmpty)
    }

    func testFlatMapWithJustDeliversEverything() {
        let tracker = TrackingSubscriber<Int, Never>()
        [1, 2, 3].publisher.flatMap { Just($0 * 10) }.subscribe(tracker)
        XCTAssertTrue(tracker.saw([10, 20, 30], .finished))
    }

    func testReentrantSendFromDownstreamDoesNotDeadlock() {
        let subject = PassthroughSubject<Int, Never>()
        var seen: [Int] = []
        let cancellable = subject.flatMap { Just($0) }.sink { value in
            seen.append(value)
            if value < 3 { subject.send(value + 1) }
        }
        subject.send(1)
        XCTAssertEqual(seen, [1, 2, 3])
        cancellable.cancel()
    }
}
