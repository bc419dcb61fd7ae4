import Foundation
import StreamCore
import StreamTesting
import XCTest

final class RecordTests: XCTestCase {
    func testPlaysBackOnDemandThenCompletesWithoutWaiting() {
        let record = Record<Int, S4Error>(output: [1, 2, 3], completion: .failure(.boom))
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: .max(2))
        record.subscribe(tracking)
        XCTAssertEqual(tracking.values, [1, 2])
        XCTAssertNil(tracking.completion)
        tracking.request(.max(1))
        XCTAssertEqual(tracking.events, [.subscription, .value(1), .value(2), .value(3), .completion(.failure(.boom))])
    }

    func testEachSubscriberGetsTheWholeRecording() {
        let record = Record<Int, Never> { recording in
            recording.receive(1)
            recording.receive(2)
            recording.receive(completion: .finished)
        }
        for _ in 0..<2 {
            let tracking = TrackingSubscriber<Int, Never>()
            record.subscribe(tracking)
            XCTAssertEqual(tracking.events, [.subscription, .value(1), .value(2), .completion(.finished)])
        }
    }

    func testEmptyRecordingCompletesAtOnce() {
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: nil)
        Record<Int, S4Error>(output: [], completion: .failure(.other)).subscribe(tracking)
        XCTAssertEqual(tracking.events, [.subscription, .completion(.failure(.other))])
    }

    func testAnOpenRecordingReadsAsFinished() {
        let record = Record<Int, S4Error> { $0.receive(4) }
        XCTAssertEqual(record.recording.output, [4])
        XCTAssertEqual(record.recording.completion, .finished)
        var copy = record.recording
        copy.receive(5)
        copy.receive(completion: .failure(.boom))
        XCTAssertEqual(copy.output, [4, 5])
        XCTAssertEqual(record.recording.output, [4], "recordings are values")
    }

    func testRequestFromInsideReceiveDoesNotRecurseOrReorder() {
        let record = Record<Int, Never>(output: Array(0..<10_000), completion: .finished)
        var seen: [Int] = []
        var subscription: (any Subscription)?
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: {
                subscription = $0
                $0.request(.max(1))
            },
            receiveValue: { value in
                seen.append(value)
                subscription?.request(.max(1))
                return .none
            }
        )
        record.subscribe(subscriber)
        XCTAssertEqual(seen, Array(0..<10_000))
    }

    func testCancelStopsPlayback() {
        let record = Record<Int, Never>(output: [1, 2, 3], completion: .finished)
        let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        record.subscribe(tracking)
        tracking.cancel()
        tracking.request(.unlimited)
        XCTAssertEqual(tracking.events, [.subscription, .value(1)])
    }

    func testCodableInCombinesShape() throws {
        let record = Record<Int, Never>(output: [1, 2], completion: .finished)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(record), as: UTF8.self)
        XCTAssertEqual(json, #"{"recording":{"completion":{"success":true},"output":[1,2]}}"#)
        let decoded = try JSONDecoder().decode(Record<Int, Never>.self, from: Data(json.utf8))
        XCTAssertEqual(decoded.recording.output, [1, 2])
        XCTAssertThrowsError(try JSONDecoder().decode(Record<Int, Never>.self, from: Data("{}".utf8)))
    }
}
