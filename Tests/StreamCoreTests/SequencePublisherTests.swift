import StreamCore
import XCTest

final class SequencePublisherTests: XCTestCase {
    func testUnlimitedDemandSendsAllThenFinishes() {
        let recorder = S1Recorder<Int, Never>()
        [1, 2, 3].publisher.subscribe(recorder)
        XCTAssertEqual(recorder.values, [1, 2, 3])
        XCTAssertTrue(recorder.isFinished)
    }

    func testBackpressureSendsOnlyWhatIsRequestedAndFinishesAfterLast() {
        let recorder = S1Recorder<Int, Never>(initialDemand: .max(2))
        (1...5).publisher.subscribe(recorder)
        XCTAssertEqual(recorder.values, [1, 2])
        XCTAssertTrue(recorder.completions.isEmpty)
        recorder.request(.max(2))
        XCTAssertEqual(recorder.values, [1, 2, 3, 4])
        XCTAssertTrue(recorder.completions.isEmpty)
        recorder.request(.max(1))
        XCTAssertEqual(recorder.values, [1, 2, 3, 4, 5])
        XCTAssertTrue(recorder.isFinished, "finishes right after the last element, without more demand")
    }

    func testDemandReturnedFromReceiveIsHonoured() {
        let recorder = S1Recorder<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        (0..<4).publisher.subscribe(recorder)
        XCTAssertEqual(recorder.values, [0, 1, 2, 3])
        XCTAssertTrue(recorder.isFinished)
    }

    func testEmptySequenceFinishesAtOnce() {
        let recorder = S1Recorder<Int, Never>(initialDemand: .none)
        [Int]().publisher.subscribe(recorder)
        XCTAssertEqual(recorder.subscriptionCount, 1)
        XCTAssertTrue(recorder.isFinished)
    }

    func testCancelFromInsideReceiveStopsAtOnce() {
        let recorder = S1Recorder<Int, Never>()
        recorder.onValue = { if $0 == 2 { recorder.cancel() } }
        (1...10).publisher.subscribe(recorder)
        XCTAssertEqual(recorder.values, [1, 2])
        XCTAssertTrue(recorder.completions.isEmpty)
    }

    func testReentrantRequestDoesNotRecurse() {
        let recorder = S1Recorder<Int, Never>(initialDemand: .max(1))
        recorder.onValue = { _ in recorder.request(.max(1)) }
        (0..<10_000).publisher.subscribe(recorder)
        XCTAssertEqual(recorder.values.count, 10_000)
        XCTAssertTrue(recorder.isFinished)
    }

    func testEachSubscriberIteratesAfresh() {
        let publisher = [1, 2].publisher
        XCTAssertEqual(publisher.sequence, [1, 2])
        let a = S1Recorder<Int, Never>()
        let b = S1Recorder<Int, Never>()
        publisher.subscribe(a)
        publisher.subscribe(b)
        XCTAssertEqual(a.values, [1, 2])
        XCTAssertEqual(b.values, [1, 2])
    }
}
