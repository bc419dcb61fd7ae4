import StreamCore
import StreamTesting
import XCTest

final class IgnoreOutputTests: XCTestCase {
    func testOnlyTheCompletionGetsThrough() {
        let upstream = ManualPublisher<Int, S4Error>()
        let tracking = TrackingSubscriber<Never, S4Error>(initialDemand: nil)
        upstream.ignoreOutput().subscribe(tracking)
        XCTAssertEqual(upstream.requests, [.unlimited], "values are discarded, so upstream may send them all")
        XCTAssertEqual(upstream.send(1), .none)
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(s4Failure(tracking), .boom)
        XCTAssertEqual(tracking.events.count, 2)
    }

    func testFinishedIsForwarded() {
        let tracking = TrackingSubscriber<Never, Never>(initialDemand: nil)
        (1...100).publisher.ignoreOutput().subscribe(tracking)
        XCTAssertTrue(tracking.isFinished)
    }

    func testTheDownstreamGetsTheUpstreamsOwnSubscription() {
        // Combine's ignoreOutput is a pass-through: requests and cancels go straight to upstream, and upstream is asked
        // for everything only after the downstream has its subscription.
        let upstream = ManualPublisher<Int, S4Error>(keepsSubscriberAfterCancel: true)
        var requestsSeenBySubscriber: [Subscribers.Demand]?
        let tracking = TrackingSubscriber<Never, S4Error>(
            initialDemand: .max(3),
            onEvent: { event in
                if case .subscription = event { requestsSeenBySubscriber = upstream.requests }
            })
        upstream.ignoreOutput().subscribe(tracking)
        XCTAssertTrue(tracking.subscription as AnyObject === upstream.subscription as AnyObject)
        XCTAssertEqual(upstream.requests, [.max(3), .unlimited])
        XCTAssertEqual(requestsSeenBySubscriber, [])
        tracking.cancel()
        XCTAssertEqual(upstream.cancelCount, 1)
    }

    /// Keeps the subscriber it is given, so a test can send it anything, in any order.
    private final class CapturingPublisher: Publisher {
        typealias Output = Int
        typealias Failure = S4Error
        var subscriber: AnySubscriber<Int, S4Error>?

        func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == S4Error {
            self.subscriber = AnySubscriber(subscriber)
            subscriber.receive(subscription: Subscriptions.empty)
        }
    }

    func testEveryCompletionIsForwarded() {
        let upstream = CapturingPublisher()
        let tracking = TrackingSubscriber<Never, S4Error>(initialDemand: nil)
        upstream.ignoreOutput().subscribe(tracking)
        upstream.subscriber?.receive(completion: .finished)
        upstream.subscriber?.receive(completion: .failure(.boom))
        XCTAssertEqual(tracking.events.count, 3, "Combine forwards a completion after a completion too")
    }
}
