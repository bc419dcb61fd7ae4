import Foundation
import StreamCore
import StreamTesting
import XCTest

/// Foundation's JSON coders behind StreamCore's coder protocols (StreamFoundation conforms them directly; this test
/// target only depends on StreamCore).
private struct JSONTestEncoder: TopLevelEncoder {
    func encode<T: Encodable>(_ value: T) throws -> Data { try JSONEncoder().encode(value) }
}

private struct JSONTestDecoder: TopLevelDecoder {
    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try JSONDecoder().decode(type, from: data)
    }
}

private struct Point: Codable, Equatable {
    var x: Int
    var y: Int
}

private struct Unencodable: Encodable {
    func encode(to encoder: any Encoder) throws { throw S4Error.other }
}

final class EncodeDecodeTests: XCTestCase {
    func testEncodeThenDecodeRoundTrips() {
        let tracking = TrackingSubscriber<Point, any Error>()
        [Point(x: 1, y: 2), Point(x: 3, y: 4)].publisher
            .encode(encoder: JSONTestEncoder())
            .decode(type: Point.self, decoder: JSONTestDecoder())
            .subscribe(tracking)
        XCTAssertEqual(tracking.values, [Point(x: 1, y: 2), Point(x: 3, y: 4)])
        XCTAssertTrue(tracking.isFinished)
    }

    func testDecodeFailsWithTheDecodingErrorAndCancelsUpstream() {
        let upstream = ManualPublisher<Data, S4Error>()
        let tracking = TrackingSubscriber<Point, any Error>()
        upstream.decode(type: Point.self, decoder: JSONTestDecoder()).subscribe(tracking)
        upstream.send(Data(#"{"x":1,"y":2}"#.utf8))
        upstream.send(Data(#"{"x":1}"#.utf8))
        XCTAssertEqual(tracking.values, [Point(x: 1, y: 2)])
        guard case .keyNotFound(let key, _)? = tracking.failure as? DecodingError else {
            return XCTFail("expected keyNotFound, got \(String(describing: tracking.failure))")
        }
        XCTAssertEqual(key.stringValue, "y")
        XCTAssertEqual(upstream.cancelCount, 1)
    }

    func testEncodeFailsWithTheThrownError() {
        let upstream = ManualPublisher<Unencodable, S4Error>()
        let tracking = TrackingSubscriber<Data, any Error>()
        upstream.encode(encoder: JSONTestEncoder()).subscribe(tracking)
        upstream.send(Unencodable())
        XCTAssertEqual(s4Failure(tracking), .other)
        XCTAssertEqual(upstream.cancelCount, 1)
    }

    func testCodersPassDemandThroughAndForwardUpstreamFailure() {
        let upstream = ManualPublisher<Point, S4Error>()
        let tracking = TrackingSubscriber<Data, any Error>(initialDemand: .max(2), demandAfterValue: { _ in .max(1) })
        upstream.encode(encoder: JSONTestEncoder()).subscribe(tracking)
        XCTAssertEqual(upstream.requests, [.max(2)])
        XCTAssertEqual(upstream.send(Point(x: 0, y: 0)), .max(1))
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(s4Failure(tracking), .boom)
        XCTAssertEqual(tracking.values.count, 1)
    }

    func testDecodeCancelReachesUpstream() {
        let upstream = ManualPublisher<Data, S4Error>()
        let tracking = TrackingSubscriber<Point, any Error>()
        upstream.decode(type: Point.self, decoder: JSONTestDecoder()).subscribe(tracking)
        tracking.cancel()
        tracking.cancel()
        XCTAssertEqual(upstream.cancelCount, 1)
    }
}
