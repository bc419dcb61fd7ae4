import StreamTesting
import XCTest

@testable import StreamCore

final class AssertNoFailureTests: XCTestCase {
    func testValuesAndFinishedPassThrough() {
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(1), demandAfterValue: { _ in .max(2) })
        upstream.assertNoFailure().subscribe(tracking)
        XCTAssertEqual(upstream.requests, [.max(1)])
        XCTAssertEqual(upstream.send(1), .max(2))
        upstream.send(completion: .finished)
        XCTAssertEqual(tracking.events, [.subscription, .value(1), .completion(.finished)])
    }

    func testMaxDemandAndCancel() {
        let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        (1...9).publisher.setFailureType(to: S4Error.self).assertNoFailure().subscribe(tracking)
        XCTAssertEqual(tracking.values, [1, 2])
        let upstream = ManualPublisher<Int, S4Error>()
        let cancelling = TrackingSubscriber<Int, Never>()
        upstream.assertNoFailure().subscribe(cancelling)
        cancelling.cancel()
        XCTAssertEqual(upstream.cancelCount, 1)
    }

    func testRecordsWhereItWasWrittenForTheTrapMessage() {
        let line: UInt = #line + 1
        let publisher = ManualPublisher<Int, S4Error>().assertNoFailure("search")
        XCTAssertEqual(publisher.prefix, "search")
        XCTAssertEqual(publisher.line, line)
        XCTAssertTrue("\(publisher.file)".hasSuffix("AssertNoFailureTests.swift"))
    }

    /// The trap itself cannot run in-process; its message is checked instead.
    func testTrapMessageHasThePrefixThenTheError() {
        XCTAssertEqual(assertNoFailureMessage(prefix: "search", error: S4Error.boom), "search: boom")
        XCTAssertEqual(assertNoFailureMessage(prefix: "", error: S4Error.boom), "boom")
    }
}
