import StreamCore
import StreamTesting
import XCTest

/// Publishers.Sequence and throttle accept `request(.none)` as Combine's do: nothing happens.
final class RequestNoneAcceptedTests: XCTestCase {
    func testASequenceSendsNothingForNone() {
        let tracking = TrackingSubscriber<Int, Never>(initialDemand: nil)
        [1, 2, 3].publisher.subscribe(tracking)
        tracking.subscription?.request(.none)
        XCTAssertEqual(tracking.events, [.subscription])
        tracking.request(.max(2))
        XCTAssertEqual(tracking.values, [1, 2])
    }

    func testThrottleAcceptsNone() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let tracking = TrackingSubscriber<Int, Never>(initialDemand: nil)
        subject.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(tracking)
        tracking.subscription?.request(.none)
        subject.send(1)
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(tracking.values, [], "no demand, nothing delivered")
        tracking.request(.max(1))
        subject.send(2)
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(tracking.values, [2])
    }
}
