import StreamCore
import StreamTesting
import XCTest

/// The core catch, tryCatch, append/prepend and retry share: each source's subscriber carries the subscription's
/// identifier (as Combine's do), the owed demand moves to the next source, and repeated handovers loop.
final class HandoverCoreTests: XCTestCase {
    /// Keeps the subscriber attached to it, to compare identifiers, and hands it a subscription when asked.
    private final class Keeping: Publisher {
        typealias Output = Int
        typealias Failure = S4Error
        private(set) var subscriber: AnySubscriber<Int, S4Error>?
        let manual = ManualPublisher<Int, S4Error>(sendsSubscriptionOnSubscribe: false)

        func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == S4Error {
            self.subscriber = AnySubscriber(subscriber)
            manual.receive(subscriber: subscriber)
            manual.subscription?.sendSubscription()
        }
    }

    func testAppendsSubscribersShareTheSubscriptionsIdentifier() {
        let prefix = Keeping()
        let suffix = Keeping()
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: .max(3))
        prefix.append(suffix).subscribe(tracking)
        let identifier = tracking.subscription?.combineIdentifier
        XCTAssertNotNil(identifier)
        XCTAssertEqual(prefix.subscriber?.combineIdentifier, identifier)
        _ = prefix.manual.send(1)
        prefix.manual.send(completion: .finished)
        XCTAssertEqual(suffix.subscriber?.combineIdentifier, identifier)
        // The suffix is asked for what the prefix left owed.
        XCTAssertEqual(suffix.manual.requests, [.max(2)])
    }

    func testRetryLoopsOverSynchronousFailuresAndCountsThem() {
        var attempts = 0
        let failing = Deferred { () -> Fail<Int, S4Error> in
            attempts += 1
            return Fail(error: .boom)
        }
        let tracking = TrackingSubscriber<Int, S4Error>()
        failing.retry(1000).subscribe(tracking)
        // 1 + 1000 attempts, each failing inside `subscribe`: a loop, or the stack would overflow here.
        XCTAssertEqual(attempts, 1001)
        XCTAssertEqual(tracking.failure, .boom)
    }

    func testCatchMovesTheOwedDemandToTheReplacementAndShowsItsDemand() {
        let upstream = ManualPublisher<Int, S4Error>()
        let replacement = ManualPublisher<Int, Never>()
        let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(4))
        upstream.catch { _ in replacement }.subscribe(tracking)
        _ = upstream.send(1)
        let mirror = tracking.subscription.flatMap { ($0 as? any CustomReflectable)?.customMirror }
        XCTAssertEqual(mirror?.children.map { "\($0.label ?? ""): \($0.value)" }.last, "demand: max(3)")
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(replacement.requests, [.max(3)])
        _ = replacement.send(2)
        replacement.send(completion: .finished)
        XCTAssertEqual(tracking.values, [1, 2])
        XCTAssertTrue(tracking.isFinished)
    }
}
