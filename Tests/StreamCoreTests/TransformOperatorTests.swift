import StreamCore
import StreamTesting
import XCTest

final class TransformOperatorTests: XCTestCase {
    func testTryMapFailsAndCancelsUpstreamWhenClosureThrows() {
        let upstream = S1ManualSubscription()
        let subject = PassthroughSubject<Int, Never>()
        subject.send(subscription: upstream)
        let recorder = TrackingSubscriber<Int, any Error>()
        subject.tryMap { value -> Int in
            if value == 2 { throw S1Error(code: 2) }
            return value * 10
        }.subscribe(recorder)
        subject.send(1)
        subject.send(2)
        subject.send(3)
        XCTAssertEqual(recorder.values, [10])
        XCTAssertEqual(
            recorder.events.filter { if case .completion = $0 { return true } else { return false } }.count, 1)
        XCTAssertEqual(recorder.failure as? S1Error, S1Error(code: 2))
    }

    func testTryMapHonoursBackpressure() {
        let recorder = TrackingSubscriber<Int, any Error>(initialDemand: .max(1))
        (1...3).publisher.tryMap { $0 + 1 }.subscribe(recorder)
        XCTAssertEqual(recorder.values, [2])
        recorder.request(.max(5))
        XCTAssertEqual(recorder.values, [2, 3, 4])
        XCTAssertTrue(recorder.isFinished)
    }

    func testTryFilter() {
        let recorder = TrackingSubscriber<Int, any Error>()
        (1...6).publisher.tryFilter { value in
            if value == 5 { throw S1Error(code: 5) }
            return value.isMultiple(of: 2)
        }.subscribe(recorder)
        XCTAssertEqual(recorder.values, [2, 4])
        XCTAssertEqual(recorder.failure as? S1Error, S1Error(code: 5))
    }

    func testCompactMapSkipsNilWithoutConsumingDemand() {
        let recorder = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        ["1", "x", "2", "y", "3"].publisher.compactMap { Int($0) }.subscribe(recorder)
        XCTAssertEqual(recorder.values, [1, 2])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.values, [1, 2, 3])
        XCTAssertTrue(recorder.isFinished)
    }

    func testTryCompactMap() {
        let recorder = TrackingSubscriber<Int, any Error>()
        ["1", "x", "!", "2"].publisher.tryCompactMap { text -> Int? in
            if text == "!" { throw S1Error(code: 9) }
            return Int(text)
        }.subscribe(recorder)
        XCTAssertEqual(recorder.values, [1])
        XCTAssertEqual(recorder.failure as? S1Error, S1Error(code: 9))
    }

    func testKeyPathMaps() {
        struct Point {
            var x: Int
            var y: Int
            var z: Int
        }
        let points = [Point(x: 1, y: 2, z: 3), Point(x: 4, y: 5, z: 6)]
        var xs: [Int] = []
        var pairs: [String] = []
        var triples: [String] = []
        let a = points.publisher.map(\.x).sink { xs.append($0) }
        let b = points.publisher.map(\.x, \.y).sink { pairs.append("\($0.0),\($0.1)") }
        let c = points.publisher.map(\.x, \.y, \.z).sink { triples.append("\($0.0),\($0.1),\($0.2)") }
        XCTAssertEqual(xs, [1, 4])
        XCTAssertEqual(pairs, ["1,2", "4,5"])
        XCTAssertEqual(triples, ["1,2,3", "4,5,6"])
        _ = (a, b, c)
    }

    func testScanPublishesRunningResultsPerSubscriber() {
        let publisher = (1...4).publisher.scan(0, +)
        let first = TrackingSubscriber<Int, Never>()
        let second = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        publisher.subscribe(first)
        publisher.subscribe(second)
        XCTAssertEqual(first.values, [1, 3, 6, 10])
        XCTAssertTrue(first.isFinished)
        XCTAssertEqual(second.values, [1, 3], "backpressure passes through")
    }

    func testTryScan() {
        let recorder = TrackingSubscriber<Int, any Error>()
        (1...5).publisher.tryScan(0) { sum, value in
            if value == 4 { throw S1Error(code: 4) }
            return sum + value
        }.subscribe(recorder)
        XCTAssertEqual(recorder.values, [1, 3, 6])
        XCTAssertEqual(recorder.failure as? S1Error, S1Error(code: 4))
    }
}
