import StreamCore
import StreamTesting
import XCTest

final class BufferTests: XCTestCase {
    func testKeepFullPrefetchesAndRefills() {
        let upstream = ManualPublisher<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>(initialDemand: nil)
        upstream.buffer(size: 3, prefetch: .keepFull, whenFull: .dropNewest).subscribe(tracker)
        XCTAssertEqual(upstream.requests, [.max(3)])
        _ = upstream.send(1)
        _ = upstream.send(2)
        XCTAssertEqual(tracker.values, [])
        tracker.request(.max(1))
        XCTAssertEqual(tracker.values, [1])
        XCTAssertEqual(upstream.requests, [.max(3), .max(1)])
    }

    func testByRequestAsksUnlimitedAndDropsPerStrategy() {
        let newest = ManualPublisher<Int, Never>()
        let keepOld = TrackingSubscriber<Int, Never>(initialDemand: nil)
        newest.buffer(size: 2, prefetch: .byRequest, whenFull: .dropNewest).subscribe(keepOld)
        XCTAssertEqual(newest.requests, [.unlimited])
        for value in 1...4 { _ = newest.send(value) }
        keepOld.request(.unlimited)
        XCTAssertEqual(keepOld.values, [1, 2])

        let oldest = ManualPublisher<Int, Never>()
        let keepNew = TrackingSubscriber<Int, Never>(initialDemand: nil)
        oldest.buffer(size: 2, prefetch: .byRequest, whenFull: .dropOldest).subscribe(keepNew)
        for value in 1...4 { _ = oldest.send(value) }
        keepNew.request(.unlimited)
        XCTAssertEqual(keepNew.values, [3, 4])
    }

    func testCustomErrorFailsWhenFull() {
        let upstream = ManualPublisher<Int, S2Error>()
        let tracker = TrackingSubscriber<Int, S2Error>(initialDemand: nil)
        upstream.buffer(size: 1, prefetch: .byRequest, whenFull: .customError { S2Error(5) }).subscribe(tracker)
        _ = upstream.send(1)
        _ = upstream.send(2)
        XCTAssertEqual(upstream.cancelCount, 1)
        XCTAssertNil(tracker.completion, "as in Combine, the failure waits behind the buffered value")
        tracker.request(.max(1))
        XCTAssertEqual(tracker.events, [.subscription, .value(1), .completion(.failure(S2Error(5)))])
    }

    func testFinishWaitsForBufferedValues() {
        let upstream = ManualPublisher<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>(initialDemand: nil)
        upstream.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest).subscribe(tracker)
        _ = upstream.send(1)
        _ = upstream.send(2)
        upstream.send(completion: .finished)
        XCTAssertNil(tracker.completion)
        tracker.request(.max(2))
        XCTAssertEqual(tracker.values, [1, 2])
        XCTAssertNil(
            tracker.completion, "as in Combine, the finish goes out on the next request after the buffer emptied")
        tracker.request(.max(1))
        XCTAssertTrue(tracker.saw([1, 2], .finished))
    }
}

final class CollectByTimeTests: XCTestCase {
    func testGroupsByTime() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let tracker = TrackingSubscriber<[Int], Never>()
        subject.collect(.byTime(scheduler, .seconds(1))).subscribe(tracker)
        subject.send(1)
        subject.send(2)
        scheduler.advance(by: .seconds(1))
        scheduler.advance(by: .seconds(1))
        subject.send(3)
        subject.send(completion: .finished)
        XCTAssertEqual(tracker.values, [[1, 2], [3]], "an empty interval publishes nothing; finish flushes")
        XCTAssertTrue(tracker.isFinished)
        XCTAssertEqual(scheduler.pendingActionCount, 0, "the timer stops with the stream")
    }

    func testGroupsByTimeOrCount() {
        let scheduler = TestScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let tracker = TrackingSubscriber<[Int], Never>(initialDemand: .max(2))
        upstream.collect(.byTimeOrCount(scheduler, .seconds(1), 2)).subscribe(tracker)
        XCTAssertEqual(upstream.requests, [.max(4)], "count elements per group demanded")
        _ = upstream.send(1)
        _ = upstream.send(2)
        _ = upstream.send(3)
        XCTAssertEqual(tracker.values, [[1, 2]])
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(tracker.values, [[1, 2], [3]])
    }

    func testFailureDiscardsPartialGroup() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, S2Error>()
        let tracker = TrackingSubscriber<[Int], S2Error>()
        subject.collect(.byTime(scheduler, .seconds(1))).subscribe(tracker)
        subject.send(1)
        subject.send(completion: .failure(S2Error(3)))
        XCTAssertTrue(tracker.saw([], .failure(S2Error(3))))
    }
}

final class SharingTests: XCTestCase {
    func testShareSubscribesUpstreamOnce() {
        let upstream = ManualPublisher<Int, Never>()
        let shared = upstream.share()
        let first = TrackingSubscriber<Int, Never>()
        let second = TrackingSubscriber<Int, Never>()
        shared.subscribe(first)
        shared.subscribe(second)
        XCTAssertEqual(upstream.subscriptions.count, 1)
        _ = upstream.send(1)
        upstream.send(completion: .finished)
        XCTAssertTrue(first.saw([1], .finished))
        XCTAssertTrue(second.saw([1], .finished))
    }

    func testShareDisconnectsWhenAllSubscribersCancel() {
        let upstream = ManualPublisher<Int, Never>()
        let shared = upstream.share()
        let first = TrackingSubscriber<Int, Never>()
        let second = TrackingSubscriber<Int, Never>()
        shared.subscribe(first)
        shared.subscribe(second)
        first.cancel()
        XCTAssertEqual(upstream.cancelCount, 0)
        second.cancel()
        XCTAssertEqual(upstream.cancelCount, 1)
        let third = TrackingSubscriber<Int, Never>()
        shared.subscribe(third)
        XCTAssertEqual(upstream.subscriptions.count, 2, "a new subscriber connects again")
    }

    func testShareRunsSideEffectsOnce() {
        var subscriptions = 0
        let shared = [1, 2].publisher.handleEvents(receiveSubscription: { _ in subscriptions += 1 }).share()
        let tracker = TrackingSubscriber<Int, Never>()
        shared.subscribe(tracker)
        XCTAssertEqual(subscriptions, 1)
        XCTAssertTrue(tracker.saw([1, 2], .finished))
        XCTAssertTrue(shared == shared)
    }

    func testSharedPipelineOutlivesTheShareObject() {
        let subject = PassthroughSubject<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>()
        do {
            let shared = subject.map { $0 * 2 }.share()
            shared.subscribe(tracker)
        }
        subject.send(4)
        XCTAssertEqual(tracker.values, [8], "subscribers keep the connection, as in Combine")
        tracker.cancel()
        let late = TrackingSubscriber<Int, Never>()
        subject.subscribe(late)
        subject.send(5)
        XCTAssertEqual(tracker.values, [8], "cancelled")
    }

    func testShareDoesNotResubscribeAFinishedUpstream() {
        let upstream = ManualPublisher<Int, Never>()
        let shared = upstream.share()
        let first = TrackingSubscriber<Int, Never>()
        shared.subscribe(first)
        upstream.send(completion: .finished)
        let late = TrackingSubscriber<Int, Never>()
        shared.subscribe(late)
        XCTAssertEqual(
            upstream.subscriptions.count, 1, "a completion doesn't disconnect; only cancels do (as in Combine)")
        XCTAssertTrue(late.isFinished, "the late subscriber gets the subject's completion")
    }

    func testMakeConnectableWaitsForConnect() {
        let subject = PassthroughSubject<Int, Never>()
        let connectable = subject.makeConnectable()
        let tracker = TrackingSubscriber<Int, Never>()
        connectable.subscribe(tracker)
        subject.send(1)
        let connection = connectable.connect()
        subject.send(2)
        connection.cancel()
        subject.send(3)
        XCTAssertEqual(tracker.values, [2])
    }

    func testMulticastCreatesSubjectOnceAndSubjectForm() {
        var made = 0
        let upstream = PassthroughSubject<Int, Never>()
        let multicast = upstream.multicast { () -> PassthroughSubject<Int, Never> in
            made += 1
            return PassthroughSubject()
        }
        let a = TrackingSubscriber<Int, Never>()
        let b = TrackingSubscriber<Int, Never>()
        multicast.subscribe(a)
        multicast.subscribe(b)
        let connection = multicast.connect()
        upstream.send(7)
        XCTAssertEqual(made, 1)
        XCTAssertEqual(a.values, [7])
        XCTAssertEqual(b.values, [7])
        connection.cancel()

        let current = CurrentValueSubject<Int, Never>(0)
        let viaSubject = upstream.multicast(subject: current)
        let c = TrackingSubscriber<Int, Never>()
        viaSubject.subscribe(c)
        let second = viaSubject.connect()
        upstream.send(9)
        XCTAssertEqual(c.values, [0, 9])
        second.cancel()
    }

    func testAutoconnectConnectsOnFirstSubscriber() {
        let upstream = ManualPublisher<Int, Never>()
        let auto = upstream.makeConnectable().autoconnect()
        XCTAssertEqual(upstream.subscriptions.count, 0)
        let tracker = TrackingSubscriber<Int, Never>()
        auto.subscribe(tracker)
        XCTAssertEqual(upstream.subscriptions.count, 1)
        _ = upstream.send(5)
        XCTAssertEqual(tracker.values, [5])
    }
}
