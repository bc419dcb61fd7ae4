import StreamCore
import StreamTesting
import XCTest

final class SwitchToLatestTests: XCTestCase {
    func testNewInnerCancelsPreviousAndOnlyLatestValuesPass() {
        let outer = PassthroughSubject<ManualPublisher<Int, S2Error>, S2Error>()
        let first = ManualPublisher<Int, S2Error>(keepsSubscriberAfterCancel: true)
        let second = ManualPublisher<Int, S2Error>()
        let tracker = TrackingSubscriber<Int, S2Error>()
        outer.switchToLatest().subscribe(tracker)
        outer.send(first)
        first.send(1)
        outer.send(second)
        XCTAssertEqual(first.cancelCount, 1)
        first.send(99)
        second.send(2)
        XCTAssertEqual(tracker.values, [1, 2], "a value from a replaced inner publisher is ignored")
    }

    func testFinishesOnlyWhenOuterAndLatestInnerHaveFinished() {
        let outer = PassthroughSubject<ManualPublisher<Int, S2Error>, S2Error>()
        let inner = ManualPublisher<Int, S2Error>()
        let tracker = TrackingSubscriber<Int, S2Error>()
        outer.switchToLatest().subscribe(tracker)
        outer.send(inner)
        outer.send(completion: .finished)
        XCTAssertNil(tracker.completion)
        inner.send(3)
        inner.send(completion: .finished)
        XCTAssertTrue(tracker.saw([3], .finished))
    }

    func testInnerFinishingDoesNotFinishWhileOuterIsOpen() {
        let outer = PassthroughSubject<Just<Int>, Never>()
        let tracker = TrackingSubscriber<Int, Never>()
        outer.switchToLatest().subscribe(tracker)
        outer.send(Just(1))
        outer.send(Just(2))
        XCTAssertTrue(tracker.saw([1, 2], nil))
        outer.send(completion: .finished)
        XCTAssertTrue(tracker.saw([1, 2], .finished))
    }

    func testInnerFailureFailsAndCancelsOuter() {
        let outer = ManualPublisher<ManualPublisher<Int, S2Error>, S2Error>()
        let inner = ManualPublisher<Int, S2Error>()
        let tracker = TrackingSubscriber<Int, S2Error>()
        outer.switchToLatest().subscribe(tracker)
        XCTAssertEqual(outer.requests, [.unlimited])
        _ = outer.send(inner)
        inner.send(completion: .failure(S2Error(3)))
        XCTAssertTrue(tracker.saw([], .failure(S2Error(3))))
        XCTAssertEqual(outer.cancelCount, 1)
    }

    func testOuterFailureCancelsInner() {
        let outer = PassthroughSubject<ManualPublisher<Int, S2Error>, S2Error>()
        let inner = ManualPublisher<Int, S2Error>()
        let tracker = TrackingSubscriber<Int, S2Error>()
        outer.switchToLatest().subscribe(tracker)
        outer.send(inner)
        outer.send(completion: .failure(S2Error(4)))
        XCTAssertEqual(inner.cancelCount, 1)
        XCTAssertTrue(tracker.saw([], .failure(S2Error(4))))
    }

    func testDownstreamDemandGoesToTheCurrentInner() {
        let outer = PassthroughSubject<ManualPublisher<Int, Never>, Never>()
        let first = ManualPublisher<Int, Never>()
        let second = ManualPublisher<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        outer.switchToLatest().subscribe(tracker)
        outer.send(first)
        XCTAssertEqual(first.requests, [.max(2)])
        _ = first.send(1)
        outer.send(second)
        XCTAssertEqual(second.requests, [.max(1)], "the new inner gets what is still owed")
        tracker.request(.max(3))
        XCTAssertEqual(second.requests, [.max(1), .max(3)])
    }

    func testCancelCancelsBoth() {
        let outer = ManualPublisher<ManualPublisher<Int, Never>, Never>()
        let inner = ManualPublisher<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>()
        outer.switchToLatest().subscribe(tracker)
        _ = outer.send(inner)
        tracker.cancel()
        XCTAssertEqual(outer.cancelCount, 1)
        XCTAssertEqual(inner.cancelCount, 1)
    }
}

final class FlatteningOverloadTests: XCTestCase {
    func testNeverFailingUpstreamTakesInnerFailureType() {
        let outer = PassthroughSubject<Int, Never>()
        let tracker = TrackingSubscriber<Int, S2Error>()
        outer.map { value -> AnyPublisher<Int, S2Error> in
            value < 0
                ? Fail(error: S2Error(value)).eraseToAnyPublisher()
                : Just(value).setFailureType(to: S2Error.self).eraseToAnyPublisher()
        }.switchToLatest().subscribe(tracker)
        outer.send(1)
        outer.send(-2)
        XCTAssertTrue(tracker.saw([1], .failure(S2Error(-2))))

        let flat = TrackingSubscriber<Int, S2Error>()
        [1, -3].publisher.flatMap { value -> AnyPublisher<Int, S2Error> in
            value < 0
                ? Fail(error: S2Error(value)).eraseToAnyPublisher()
                : Just(value).setFailureType(to: S2Error.self).eraseToAnyPublisher()
        }.subscribe(flat)
        XCTAssertTrue(flat.saw([1], .failure(S2Error(-3))))
    }

    func testNeverFailingInnersTakeUpstreamFailureType() {
        let outer = PassthroughSubject<Int, S2Error>()
        let tracker = TrackingSubscriber<Int, S2Error>()
        outer.map { Just($0) }.switchToLatest().subscribe(tracker)
        outer.send(4)
        outer.send(completion: .failure(S2Error(5)))
        XCTAssertTrue(tracker.saw([4], .failure(S2Error(5))))

        let flat = TrackingSubscriber<Int, S2Error>()
        let other = PassthroughSubject<Int, S2Error>()
        other.flatMap { Just($0 + 1) }.subscribe(flat)
        other.send(1)
        XCTAssertEqual(flat.values, [2])
    }
}

final class SwitchToLatestDemandTests: XCTestCase {
    func testDemandFollowsCombinesAccounting() {
        let outer = PassthroughSubject<ManualPublisher<Int, Never>, Never>()
        let tracker = TrackingSubscriber<Int, Never>(initialDemand: nil, demandAfterValue: { _ in .max(5) })
        outer.switchToLatest().subscribe(tracker)
        let first = ManualPublisher<Int, Never>()
        outer.send(first)
        XCTAssertEqual(first.requests, [])
        tracker.request(.max(1))
        XCTAssertEqual(first.requests, [.max(1)])
        first.send(completion: .finished)
        tracker.request(.max(41))
        tracker.request(.max(1))
        let second = ManualPublisher<Int, Never>()
        outer.send(second)
        XCTAssertEqual(second.requests, [.max(43)], "the demand owed while no inner publisher was live")
        XCTAssertEqual(second.send(1), .max(5), "downstream's extra demand goes back to the inner publisher")
        XCTAssertEqual(second.send(2), .max(5))
        let third = ManualPublisher<Int, Never>()
        outer.send(third)
        XCTAssertEqual(second.cancelCount, 1)
        XCTAssertEqual(third.requests, [.max(51)])
    }
}
