import StreamCore
import StreamTesting
import XCTest

final class CombineLatestTests: XCTestCase {
    func testEmitsOnlyOnceEachHasAValueThenOnEveryChange() {
        let a = PassthroughSubject<Int, S2Error>()
        let b = PassthroughSubject<String, S2Error>()
        let tracker = TrackingSubscriber<String, S2Error>()
        a.combineLatest(b) { "\($0)\($1)" }.subscribe(tracker)
        a.send(1)
        a.send(2)
        b.send("x")
        a.send(3)
        b.send("y")
        XCTAssertEqual(tracker.values, ["2x", "3x", "3y"])
    }

    func testFinishesWhenAllFinishAndFailsAtFirstFailure() {
        let a = PassthroughSubject<Int, S2Error>()
        let b = ManualPublisher<Int, S2Error>()
        let tracker = TrackingSubscriber<(Int, Int), S2Error>()
        a.combineLatest(b).subscribe(tracker)
        a.send(completion: .finished)
        XCTAssertNil(tracker.completion)
        b.send(completion: .finished)
        XCTAssertEqual(tracker.isFinished, true)

        let c = ManualPublisher<Int, S2Error>()
        let d = ManualPublisher<Int, S2Error>()
        let failing = TrackingSubscriber<(Int, Int), S2Error>()
        c.combineLatest(d).subscribe(failing)
        c.send(completion: .failure(S2Error(6)))
        XCTAssertEqual(failing.failure, S2Error(6))
        XCTAssertEqual(d.cancelCount, 1)
    }

    func testDemandIsForwardedAndCombinationsWaitForDemand() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        a.combineLatest(b, +).subscribe(tracker)
        XCTAssertEqual(a.requests, [.max(1)])
        XCTAssertEqual(b.requests, [.max(1)])
        _ = a.send(1)
        _ = b.send(10)
        XCTAssertEqual(tracker.values, [11])
        _ = a.send(2)
        XCTAssertEqual(tracker.values, [11], "no demand: nothing sent")
        tracker.request(.max(1))
        XCTAssertEqual(tracker.values, [11], "as in Combine, a skipped combination is not sent later")
        XCTAssertEqual(a.requests, [.max(1), .max(1)], "the request is forwarded to every upstream")
        _ = b.send(20)
        XCTAssertEqual(tracker.values, [11, 22])
    }

    func testThreeAndFourWay() {
        let three = TrackingSubscriber<Int, Never>()
        Just(1).combineLatest(Just(2), Just(3)) { $0 + $1 + $2 }.subscribe(three)
        XCTAssertTrue(three.saw([6], .finished))
        let four = TrackingSubscriber<Int, Never>()
        Just(1).combineLatest(Just(2), Just(3), [4, 5].publisher) { $0 + $1 + $2 + $3 }.subscribe(four)
        XCTAssertTrue(four.saw([10, 11], .finished))
    }

    func testCancelCancelsUpstreams() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<Int, Never>()
        let tracker = TrackingSubscriber<(Int, Int), Never>()
        a.combineLatest(b).subscribe(tracker)
        tracker.cancel()
        XCTAssertEqual([a.cancelCount, b.cancelCount], [1, 1])
        _ = a.send(1)
        _ = b.send(1)
        XCTAssertTrue(tracker.values.isEmpty)
    }
}

final class ZipTests: XCTestCase {
    /// The N-ary publishers are equal exactly when their upstreams are, member by member (Combine's conformance).
    func testNaryPublishersAreEqualWhenTheirUpstreamsAre() {
        let (one, two) = (Just(1), Just(2))
        XCTAssertEqual(Publishers.Zip(one, two), Publishers.Zip(one, two))
        XCTAssertNotEqual(Publishers.Zip(one, two), Publishers.Zip(one, one))
        XCTAssertEqual(Publishers.Zip4(one, two, one, two), Publishers.Zip4(one, two, one, two))
        XCTAssertNotEqual(Publishers.Zip4(one, two, one, two), Publishers.Zip4(one, two, one, one))
        XCTAssertEqual(Publishers.CombineLatest3(one, two, one), Publishers.CombineLatest3(one, two, one))
        XCTAssertNotEqual(Publishers.CombineLatest3(one, two, one), Publishers.CombineLatest3(two, two, one))
        XCTAssertEqual(Publishers.Merge(one, two), Publishers.Merge(one, two))
        XCTAssertNotEqual(Publishers.Merge(one, two), Publishers.Merge(two, one))
        let eight = Publishers.Merge8(one, one, one, one, one, one, one, two)
        XCTAssertEqual(eight, Publishers.Merge8(one, one, one, one, one, one, one, two))
        XCTAssertNotEqual(eight, Publishers.Merge8(one, one, one, one, one, one, one, one))
    }

    func testPairsInOrder() {
        let a = PassthroughSubject<Int, S2Error>()
        let b = PassthroughSubject<String, S2Error>()
        let tracker = TrackingSubscriber<String, S2Error>()
        a.zip(b) { "\($0)\($1)" }.subscribe(tracker)
        a.send(1)
        a.send(2)
        b.send("x")
        a.send(3)
        b.send("y")
        XCTAssertEqual(tracker.values, ["1x", "2y"])
    }

    func testFinishesWhenAFinishedUpstreamHasNothingLeftToPair() {
        let a = PassthroughSubject<Int, Never>()
        let b = ManualPublisher<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>()
        a.zip(b, +).subscribe(tracker)
        a.send(1)
        a.send(2)
        a.send(completion: .finished)
        XCTAssertNil(tracker.completion, "a still has values to pair")
        _ = b.send(10)
        XCTAssertNil(tracker.completion)
        _ = b.send(20)
        XCTAssertTrue(tracker.saw([11, 22], .finished))
        XCTAssertEqual(b.cancelCount, 1)
    }

    func testFailsAtFirstFailure() {
        let a = ManualPublisher<Int, S2Error>()
        let b = ManualPublisher<Int, S2Error>()
        let tracker = TrackingSubscriber<(Int, Int), S2Error>()
        a.zip(b).subscribe(tracker)
        b.send(completion: .failure(S2Error(8)))
        XCTAssertEqual(tracker.failure, S2Error(8))
        XCTAssertEqual(a.cancelCount, 1)
    }

    func testDemandForwardedToEachUpstream() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<Int, Never>()
        let tracker = TrackingSubscriber<(Int, Int), Never>(initialDemand: .max(2))
        a.zip(b).subscribe(tracker)
        XCTAssertEqual(a.requests, [.max(2)])
        XCTAssertEqual(b.requests, [.max(2)])
        tracker.request(.max(1))
        XCTAssertEqual(a.requests, [.max(2), .max(1)])
    }

    func testThreeAndFourWay() {
        let three = TrackingSubscriber<Int, Never>()
        [1, 2].publisher.zip([10, 20].publisher, [100].publisher) { $0 + $1 + $2 }.subscribe(three)
        XCTAssertTrue(three.saw([111], .finished))
        let four = TrackingSubscriber<Int, Never>()
        [1, 2].publisher.zip([1, 2].publisher, [1, 2].publisher, [1, 2].publisher) { $0 + $1 + $2 + $3 }.subscribe(four)
        XCTAssertTrue(four.saw([4, 8], .finished))
    }

    /// A long backlog on one side is paired oldest first, also after the slot compacts what it has handed out.
    func testLongBacklogPairsInOrderOfDifferentTypes() {
        let numbers = PassthroughSubject<Int, Never>()
        let words = PassthroughSubject<String, Never>()
        let flags = PassthroughSubject<Bool, Never>()
        let tracker = TrackingSubscriber<String, Never>()
        numbers.zip(words, flags) { "\($0)\($1)\($2 ? "+" : "-")" }.subscribe(tracker)
        for i in 0..<300 { numbers.send(i) }
        for i in 0..<300 {
            words.send("w\(i)")
            flags.send(i.isMultiple(of: 2))
        }
        XCTAssertEqual(tracker.values, (0..<300).map { "\($0)w\($0)\($0.isMultiple(of: 2) ? "+" : "-")" })
    }

    /// Values waiting for a partner are released when the zip fails, not kept until the subscription goes away.
    func testWaitingValuesAreReleasedAtFailure() {
        final class Token {}
        weak var weakToken: Token?
        let tokens = PassthroughSubject<Token, S2Error>()
        let numbers = PassthroughSubject<Int, S2Error>()
        let tracker = TrackingSubscriber<(Token, Int), S2Error>()
        tokens.zip(numbers).subscribe(tracker)
        do {
            let token = Token()
            weakToken = token
            tokens.send(token)
        }
        XCTAssertNotNil(weakToken, "held until a number comes")
        numbers.send(completion: .failure(S2Error(3)))
        XCTAssertEqual(tracker.failure, S2Error(3))
        XCTAssertNil(weakToken)
    }
}
