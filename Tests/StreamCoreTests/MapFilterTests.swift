import StreamCore
import StreamTesting
import XCTest

final class MapFilterTests: XCTestCase {
    func testMapTransformsValuesAndForwardsCompletion() {
        let recorder = TrackingSubscriber<String, Never>()
        [1, 2].publisher.map { "#\($0)" }.subscribe(recorder)
        XCTAssertEqual(recorder.values, ["#1", "#2"])
        XCTAssertTrue(recorder.isFinished)
    }

    func testMapForwardsFailure() {
        let recorder = TrackingSubscriber<Int, S1Error>()
        Fail<Int, S1Error>(error: S1Error(code: 9)).map { $0 * 2 }.subscribe(recorder)
        XCTAssertEqual(recorder.failure, S1Error(code: 9))
    }

    func testMapFusesChainedMaps() {
        let fused: Publishers.Map<Publishers.Sequence<[Int], Never>, String> = [1].publisher.map { $0 + 1 }.map {
            "\($0)"
        }
        let recorder = TrackingSubscriber<String, Never>()
        fused.subscribe(recorder)
        XCTAssertEqual(recorder.values, ["2"])
    }

    func testMapHonoursBackpressure() {
        let recorder = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        (1...5).publisher.map { $0 * 10 }.subscribe(recorder)
        XCTAssertEqual(recorder.values, [10, 20])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.values, [10, 20, 30])
    }

    func testFilterDropsWithoutConsumingDemand() {
        let recorder = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        (1...10).publisher.filter { $0 % 3 == 0 }.subscribe(recorder)
        XCTAssertEqual(recorder.values, [3, 6])
        XCTAssertTrue(recorder.completion == nil)
        recorder.request(.max(5))
        XCTAssertEqual(recorder.values, [3, 6, 9])
        XCTAssertTrue(recorder.isFinished)
    }

    func testFilterOnSubjectCancel() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TrackingSubscriber<Int, Never>()
        subject.filter { $0 > 1 }.map { $0 * 2 }.subscribe(recorder)
        subject.send(1)
        subject.send(2)
        recorder.cancel()
        subject.send(3)
        XCTAssertEqual(recorder.values, [4])
    }

    func testFusedFiltersApplyBoth() {
        let recorder = TrackingSubscriber<Int, Never>()
        (1...20).publisher.filter { $0 % 2 == 0 }.filter { $0 % 3 == 0 }.subscribe(recorder)
        XCTAssertEqual(recorder.values, [6, 12, 18])
    }
}
