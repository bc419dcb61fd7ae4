import StreamCore
import StreamTesting
import XCTest

/// The error S4's operator tests send and throw.
enum S4Error: Error, Equatable {
    case boom
    case other
}

/// The failure a tracking subscriber received, as an `S4Error` (works for typed and `any Error` failures alike).
func s4Failure<Input, Failure: Error>(_ tracking: TrackingSubscriber<Input, Failure>) -> S4Error? {
    guard let failure = tracking.failure else { return nil }
    return (failure as any Error) as? S4Error
}

/// Drives a reducing operator (one result, delivered on demand after upstream finishes) through its contract:
/// it requests `.unlimited` upstream, holds the result while the downstream has no demand, delivers it with
/// `.finished` on the first request, and ignores anything upstream sends afterwards.
func s4AssertReduces<P: Publisher>(
    _ make: (ManualPublisher<Int, S4Error>) -> P,
    sending inputs: [Int],
    expect expected: P.Output?,
    file: StaticString = #filePath,
    line: UInt = #line
) where P.Output: Equatable {
    let upstream = ManualPublisher<Int, S4Error>()
    let tracking = TrackingSubscriber<P.Output, P.Failure>(initialDemand: nil)
    make(upstream).subscribe(tracking)
    XCTAssertEqual(upstream.requests, [.unlimited], "asks upstream for everything", file: file, line: line)
    for input in inputs {
        XCTAssertEqual(upstream.send(input), .none, "never asks for more after unlimited", file: file, line: line)
    }
    upstream.send(completion: .finished)
    XCTAssertEqual(tracking.values, [], "no value without demand", file: file, line: line)
    XCTAssertNil(tracking.completion, "the completion waits with the value", file: file, line: line)
    tracking.request(.max(1))
    XCTAssertEqual(tracking.values, expected.map { [$0] } ?? [], file: file, line: line)
    XCTAssertTrue(tracking.isFinished, "finishes after the result", file: file, line: line)
    tracking.request(.max(1))
    XCTAssertEqual(
        tracking.events.count, expected == nil ? 2 : 3, "nothing more after completion", file: file, line: line)
}

/// Checks that a reducing operator forwards an upstream failure at once, without demand, and drops its result.
func s4AssertReducerForwardsFailure<P: Publisher>(
    _ make: (ManualPublisher<Int, S4Error>) -> P,
    file: StaticString = #filePath,
    line: UInt = #line
) {
    let upstream = ManualPublisher<Int, S4Error>()
    let tracking = TrackingSubscriber<P.Output, P.Failure>(initialDemand: nil)
    make(upstream).subscribe(tracking)
    upstream.send(1)
    upstream.send(completion: .failure(.boom))
    XCTAssertEqual(s4Failure(tracking), .boom, file: file, line: line)
    XCTAssertEqual(tracking.values.count, 0, file: file, line: line)
    tracking.request(.unlimited)
    XCTAssertEqual(tracking.values.count, 0, "a failed stream publishes no result", file: file, line: line)
    XCTAssertEqual(upstream.cancelCount, 0, "a finished upstream is not cancelled", file: file, line: line)
}

/// Checks that cancelling a reducing operator cancels upstream once and that later upstream events go nowhere.
func s4AssertReducerCancels<P: Publisher>(
    _ make: (ManualPublisher<Int, S4Error>) -> P,
    file: StaticString = #filePath,
    line: UInt = #line
) {
    let upstream = ManualPublisher<Int, S4Error>(keepsSubscriberAfterCancel: true)
    let tracking = TrackingSubscriber<P.Output, P.Failure>(initialDemand: .max(1))
    make(upstream).subscribe(tracking)
    tracking.cancel()
    tracking.cancel()
    XCTAssertEqual(upstream.cancelCount, 1, "upstream cancelled exactly once", file: file, line: line)
    upstream.subscription?.send(1)
    upstream.subscription?.send(completion: .finished)
    XCTAssertEqual(tracking.events.count, 1, "only the subscription was received", file: file, line: line)
}
