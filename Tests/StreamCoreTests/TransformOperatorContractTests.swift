import StreamCore
import StreamTesting
import XCTest

/// The demand, failure and cancellation contract of S1's one-in/one-out operators, each driven by a ManualPublisher.
final class TransformOperatorContractTests: XCTestCase {
    private struct Point {
        var x: Int
        var y: Int
        var z: Int
    }

    /// Every operator built on `upstream` passes `.max(2)` upstream as is, forwards a failure, and passes cancel upstream.
    /// (Operators that forward the upstream subscription, as Combine's map and filter do, leave repeated cancels to it.)
    private func checkContract<P: Publisher>(
        _ name: String,
        make: (ManualPublisher<Int, S1Error>) -> P,
        file: StaticString = #filePath,
        line: UInt = #line
    ) {
        let upstream = ManualPublisher<Int, S1Error>()
        let tracker = TrackingSubscriber<P.Output, P.Failure>(initialDemand: .max(2))
        make(upstream).subscribe(tracker)
        XCTAssertEqual(
            upstream.requests, [.max(2)], "\(name): demand reaches upstream unchanged", file: file, line: line)
        _ = upstream.send(1)
        tracker.cancel()
        XCTAssertEqual(upstream.cancelCount, 1, "\(name): cancel reaches upstream", file: file, line: line)
        _ = upstream.send(2)
        XCTAssertEqual(tracker.values.count, 1, "\(name): nothing after cancel", file: file, line: line)

        let failing = ManualPublisher<Int, S1Error>()
        let failed = TrackingSubscriber<P.Output, P.Failure>()
        make(failing).subscribe(failed)
        failing.send(completion: .failure(S1Error(code: 42)))
        XCTAssertEqual(
            failed.failure.map { ($0 as any Error) as? S1Error }, S1Error(code: 42),
            "\(name): upstream failure is forwarded", file: file, line: line)
    }

    func testEveryOperatorHonoursTheContract() {
        checkContract("map") { $0.map { $0 * 2 } }
        checkContract("tryMap") { $0.tryMap { $0 * 2 } }
        checkContract("filter") { $0.filter { $0 > 0 } }
        checkContract("tryFilter") { $0.tryFilter { $0 > 0 } }
        checkContract("compactMap") { $0.compactMap { $0 > 0 ? $0 : nil } }
        checkContract("tryCompactMap") { $0.tryCompactMap { $0 > 0 ? $0 : nil } }
        checkContract("scan") { $0.scan(0, +) }
        checkContract("tryScan") { $0.tryScan(0, +) }
        checkContract("map(keyPath)") { $0.map(\.bitWidth) }
        checkContract("map(keyPath, keyPath)") { $0.map(\.bitWidth, \.nonzeroBitCount) }
        checkContract("map(keyPath, keyPath, keyPath)") { $0.map(\.bitWidth, \.nonzeroBitCount, \.magnitude) }
    }

    func testTryOperatorsCancelUpstreamWhenTheClosureThrows() {
        let operators: [(String, (ManualPublisher<Int, S1Error>) -> AnyPublisher<Int, any Error>)] = [
            ("tryMap", { $0.tryMap { _ -> Int in throw S1Error(code: 7) }.eraseToAnyPublisher() }),
            ("tryFilter", { $0.tryFilter { _ in throw S1Error(code: 7) }.eraseToAnyPublisher() }),
            ("tryCompactMap", { $0.tryCompactMap { _ -> Int? in throw S1Error(code: 7) }.eraseToAnyPublisher() }),
            ("tryScan", { $0.tryScan(0) { _, _ in throw S1Error(code: 7) }.eraseToAnyPublisher() }),
        ]
        for (name, make) in operators {
            let upstream = ManualPublisher<Int, S1Error>()
            let tracker = TrackingSubscriber<Int, any Error>()
            make(upstream).subscribe(tracker)
            _ = upstream.send(1)
            XCTAssertEqual(upstream.cancelCount, 1, "\(name) cancels upstream on a throw")
            XCTAssertEqual(tracker.failure as? S1Error, S1Error(code: 7), name)
            XCTAssertEqual(tracker.values, [], name)
        }
    }

    func testDroppingOperatorsAskForOneMorePerDroppedValue() {
        let upstream = ManualPublisher<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.compactMap { $0.isMultiple(of: 2) ? $0 : nil }.subscribe(tracker)
        XCTAssertEqual(upstream.send(1), .max(1), "a dropped value is replaced")
        XCTAssertEqual(upstream.send(2), .none)
        XCTAssertEqual(tracker.values, [2])

        let filtered = ManualPublisher<Int, Never>()
        let filterTracker = TrackingSubscriber<Int, any Error>(initialDemand: .max(1))
        filtered.tryFilter { $0 > 5 }.subscribe(filterTracker)
        XCTAssertEqual(filtered.send(1), .max(1))
        XCTAssertEqual(filtered.send(6), .none)
        XCTAssertEqual(filterTracker.values, [6])
    }

    func testKeyPathMapsHonourBackpressure() {
        let points = (1...4).map { Point(x: $0, y: $0 * 10, z: $0 * 100) }
        let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        points.publisher.map(\.y).subscribe(tracker)
        XCTAssertEqual(tracker.values, [10, 20])
        tracker.request(.max(5))
        XCTAssertEqual(tracker.values, [10, 20, 30, 40])
        XCTAssertTrue(tracker.isFinished)
    }

    func testCurrentValueSubjectCancelAndDeferredFailure() {
        let subject = CurrentValueSubject<Int, S1Error>(1)
        let tracker = TrackingSubscriber<Int, S1Error>()
        subject.subscribe(tracker)
        tracker.cancel()
        subject.send(2)
        subject.send(completion: .failure(S1Error()))
        XCTAssertEqual(tracker.values, [1])
        XCTAssertNil(tracker.completion, "nothing after cancel")

        let deferred = TrackingSubscriber<Int, S1Error>()
        Deferred { Fail<Int, S1Error>(error: S1Error(code: 3)) }.subscribe(deferred)
        XCTAssertEqual(deferred.failure, S1Error(code: 3))
    }
}
