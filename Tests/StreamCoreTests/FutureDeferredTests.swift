import Dispatch
import StreamCore
import StreamTesting
import XCTest

final class FutureDeferredTests: XCTestCase {
    func testFutureRunsEagerlyAndReplaysToLateSubscribers() {
        var runs = 0
        let future = Future<Int, Never> { promise in
            runs += 1
            promise(.success(7))
        }
        XCTAssertEqual(runs, 1, "the closure runs at creation")
        let first = TrackingSubscriber<Int, Never>()
        let second = TrackingSubscriber<Int, Never>()
        future.subscribe(first)
        future.subscribe(second)
        XCTAssertEqual(runs, 1)
        XCTAssertEqual(first.values, [7])
        XCTAssertTrue(first.isFinished)
        XCTAssertEqual(second.values, [7])
        XCTAssertTrue(second.isFinished)
    }

    func testPromiseIsFulfilledOnce() {
        var keptPromise: Future<Int, S1Error>.Promise?
        let future = Future<Int, S1Error> { keptPromise = $0 }
        let recorder = TrackingSubscriber<Int, S1Error>()
        future.subscribe(recorder)
        XCTAssertEqual(recorder.values, [])
        keptPromise?(.success(1))
        keptPromise?(.success(2))
        keptPromise?(.failure(S1Error()))
        XCTAssertEqual(recorder.values, [1])
        XCTAssertTrue(recorder.isFinished)
        let late = TrackingSubscriber<Int, S1Error>()
        future.subscribe(late)
        XCTAssertEqual(late.values, [1])
    }

    func testValueWaitsForDemandButFailureDoesNot() {
        let success = Future<Int, S1Error> { $0(.success(3)) }
        let waiting = TrackingSubscriber<Int, S1Error>(initialDemand: nil)
        success.subscribe(waiting)
        XCTAssertTrue(waiting.events.count == 1)
        waiting.request(.max(1))
        XCTAssertEqual(waiting.values, [3])
        XCTAssertTrue(waiting.isFinished)

        let failure = Future<Int, S1Error> { $0(.failure(S1Error(code: 5))) }
        let failed = TrackingSubscriber<Int, S1Error>(initialDemand: nil)
        failure.subscribe(failed)
        XCTAssertEqual(failed.failure, S1Error(code: 5))
    }

    func testCancelledSubscriberGetsNothing() {
        var keptPromise: Future<Int, Never>.Promise?
        let future = Future<Int, Never> { keptPromise = $0 }
        let recorder = TrackingSubscriber<Int, Never>()
        future.subscribe(recorder)
        recorder.cancel()
        keptPromise?(.success(1))
        XCTAssertEqual(recorder.values, [])
        XCTAssertTrue(recorder.completion == nil)
    }

    func testPromiseFromAnotherThread() {
        let future = Future<Int, Never> { promise in
            DispatchQueue.global().async { promise(.success(42)) }
        }
        let done = expectation(description: "value")
        let c = future.sink { value in
            XCTAssertEqual(value, 42)
            done.fulfill()
        }
        wait(for: [done], timeout: 5)
        _ = c
    }

    func testDeferredCreatesAPublisherPerSubscriber() {
        var created = 0
        let deferred = Deferred { () -> Just<Int> in
            created += 1
            return Just(created)
        }
        XCTAssertEqual(created, 0)
        let a = TrackingSubscriber<Int, Never>()
        let b = TrackingSubscriber<Int, Never>()
        deferred.subscribe(a)
        deferred.subscribe(b)
        XCTAssertEqual(a.values, [1])
        XCTAssertEqual(b.values, [2])
    }

    func testOptionalAndResultPublishers() {
        let some = TrackingSubscriber<Int, Never>(initialDemand: nil)
        Optional(4).publisher.subscribe(some)
        XCTAssertEqual(some.values, [])
        some.request(.max(1))
        XCTAssertEqual(some.values, [4])
        XCTAssertTrue(some.isFinished)

        let none = TrackingSubscriber<Int, Never>(initialDemand: nil)
        Int?.none.publisher.subscribe(none)
        XCTAssertTrue(none.isFinished)

        let success = TrackingSubscriber<Int, S1Error>()
        Result<Int, S1Error>.success(8).publisher.subscribe(success)
        XCTAssertEqual(success.values, [8])
        XCTAssertTrue(success.isFinished)

        let failure = TrackingSubscriber<Int, S1Error>(initialDemand: nil)
        Result<Int, S1Error>.Publisher(S1Error(code: 6)).subscribe(failure)
        XCTAssertEqual(failure.failure, S1Error(code: 6))
        XCTAssertEqual(Result<Int, S1Error>.Publisher(1), Result<Int, S1Error>.Publisher(.success(1)))
    }

    func testImmediateSchedulerRunsAtOnce() {
        var log: [Int] = []
        let scheduler = ImmediateScheduler.shared
        scheduler.schedule { log.append(1) }
        scheduler.schedule(after: scheduler.now.advanced(by: 10)) { log.append(2) }
        let repeating = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) { log.append(3) }
        repeating.cancel()
        XCTAssertEqual(log, [1, 2, 3])
        XCTAssertEqual(scheduler.now.distance(to: scheduler.now.advanced(by: 5)), 0)
    }
}
