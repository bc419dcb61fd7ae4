import StreamCore
import StreamTesting
import XCTest

/// A text stream that keeps what it was given.
private final class StringStream: TextOutputStream, @unchecked Sendable {
    var text = ""
    func write(_ string: String) { text += string }
}

final class PrintTests: XCTestCase {
    func testPrintsCombinesLinesWithThePrefix() {
        let stream = StringStream()
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>(
            initialDemand: .max(2), demandAfterValue: { $0 == 1 ? .max(1) : .none })
        upstream.print("numbers", to: stream).subscribe(tracking)
        upstream.send(1)
        upstream.send(2)
        tracking.request(.unlimited)
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(
            stream.text,
            """
            numbers: receive subscription: (ManualSubscription(requests: [], cancels: 0))
            numbers: request max: (2)
            numbers: receive value: (1)
            numbers: request max: (1) (synchronous)
            numbers: receive value: (2)
            numbers: request unlimited
            numbers: receive error: (boom)

            """)
        XCTAssertEqual(tracking.events, [.subscription, .value(1), .value(2), .completion(.failure(.boom))])
        XCTAssertEqual(upstream.requests, [.max(2), .unlimited])
    }

    func testWithoutPrefixThereIsNoSeparator() {
        let stream = StringStream()
        let tracking = TrackingSubscriber<Int, Never>()
        [7].publisher.print(to: stream).subscribe(tracking)
        let lines = stream.text.split(separator: "\n")
        XCTAssertEqual(lines.count, 4)
        XCTAssertTrue(lines[0].hasPrefix("receive subscription: ("))
        XCTAssertEqual(lines[1...], ["request unlimited", "receive value: (7)", "receive finished"])
        XCTAssertEqual(tracking.values, [7])
    }

    func testCancelIsLoggedAndForwardedOnce() {
        let stream = StringStream()
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: nil)
        upstream.print(">", to: stream).subscribe(tracking)
        tracking.cancel()
        tracking.request(.max(1))
        XCTAssertTrue(stream.text.hasSuffix(">: receive cancel\n>: request max: (1)\n"), stream.text)
        XCTAssertEqual(upstream.cancelCount, 1)
        XCTAssertEqual(upstream.requests, [], "after cancel, requests no longer reach upstream")
    }
}
