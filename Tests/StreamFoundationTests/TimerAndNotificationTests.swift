import Foundation
import StreamCore
import StreamFoundation
import StreamTesting
import XCTest

final class TimerPublisherTests: XCTestCase {
    func testNothingTicksBeforeConnect() {
        let publisher = Timer.publish(every: 0.002, on: .current, in: .default)
        let subscriber = TrackingSubscriber<Date, Never>()
        publisher.subscribe(subscriber)
        spin(seconds: 0.02)
        XCTAssertEqual(subscriber.values.count, 0)
    }

    func testTicksHonourDemandAndStopOnDisconnect() {
        let publisher = Timer.publish(every: 0.002, on: .current, in: .default)
        let limited = TrackingSubscriber<Date, Never>(initialDemand: .max(2))
        let unlimited = TrackingSubscriber<Date, Never>()
        publisher.subscribe(limited)
        publisher.subscribe(unlimited)
        let connection = publisher.connect()
        spin(until: { unlimited.values.count >= 5 })
        XCTAssertEqual(limited.values.count, 2, "ticks without demand are dropped")
        XCTAssertEqual(unlimited.values, unlimited.values.sorted())
        connection.cancel()
        let count = unlimited.values.count
        spin(seconds: 0.02)
        XCTAssertEqual(unlimited.values.count, count)
        XCTAssertNil(unlimited.completion, "disconnecting does not complete subscribers")
    }

    func testCancelledSubscriberGetsNoMoreTicks() {
        let publisher = Timer.publish(every: 0.002, tolerance: 0.001, on: .current, in: .default)
        let subscriber = TrackingSubscriber<Date, Never>()
        let other = TrackingSubscriber<Date, Never>()
        publisher.subscribe(subscriber)
        publisher.subscribe(other)
        let connection = publisher.connect()
        spin(until: { subscriber.values.count >= 1 })
        subscriber.cancel()
        let count = subscriber.values.count
        spin(until: { other.values.count >= count + 3 })
        XCTAssertEqual(subscriber.values.count, count)
        connection.cancel()
    }
}

extension TimerPublisherTests {
    func testAConnectedTimerLivesWithoutOtherReferencesAndIsReleasedAfterCancel() {
        weak var weakPublisher: Timer.TimerPublisher?
        let subscriber = TrackingSubscriber<Date, Never>()
        do {
            let publisher = Timer.publish(every: 0.002, on: .current, in: .default)
            weakPublisher = publisher
            publisher.autoconnect().subscribe(subscriber)
        }
        spin(until: { subscriber.values.count >= 2 })
        XCTAssertNotNil(weakPublisher, "the running timer keeps its publisher")
        XCTAssertGreaterThanOrEqual(subscriber.values.count, 2)
        subscriber.cancel()
        spin(until: { weakPublisher == nil })
        XCTAssertNil(weakPublisher, "cancelling the last subscriber disconnects, and the timer lets the publisher go")
    }
}

final class NotificationCenterPublisherTests: XCTestCase {
    private let ping = Notification.Name("StreamFoundationTests.ping")

    func testDeliversPostedNotificationsWithinDemandAndDropsTheRest() {
        let center = NotificationCenter()
        let subscriber = TrackingSubscriber<Notification, Never>(initialDemand: .max(2))
        center.publisher(for: ping).subscribe(subscriber)
        center.post(name: ping, object: nil, userInfo: ["n": 1])
        center.post(name: ping, object: nil, userInfo: ["n": 2])
        center.post(name: ping, object: nil, userInfo: ["n": 3])
        subscriber.request(.max(1))
        center.post(name: ping, object: nil, userInfo: ["n": 4])
        XCTAssertEqual(subscriber.values.compactMap { $0.userInfo?["n"] as? Int }, [1, 2, 4])
        XCTAssertNil(subscriber.completion)
    }

    func testFiltersBySenderAndName() {
        let center = NotificationCenter()
        let sender = NSObject()
        let subscriber = TrackingSubscriber<Notification, Never>()
        center.publisher(for: ping, object: sender).subscribe(subscriber)
        center.post(name: ping, object: NSObject())
        center.post(name: Notification.Name("other"), object: sender)
        center.post(name: ping, object: sender)
        XCTAssertEqual(subscriber.values.count, 1)
        XCTAssertTrue(subscriber.values.first?.object as AnyObject === sender)
    }

    func testCancelRemovesTheObserver() {
        let center = NotificationCenter()
        let subscriber = TrackingSubscriber<Notification, Never>()
        center.publisher(for: ping).subscribe(subscriber)
        center.post(name: ping, object: nil)
        subscriber.cancel()
        center.post(name: ping, object: nil)
        XCTAssertEqual(subscriber.values.count, 1)
    }

    func testPostsFromManyThreadsAreDeliveredOneAtATime() {
        let center = NotificationCenter()
        let inside = LockedCounter()
        let overlapped = LockedCounter()
        let subscriber = TrackingSubscriber<Notification, Never>(onEvent: { event in
            guard case .value = event else { return }
            if inside.increment() != 1 { overlapped.increment() }
            usleep(50)
            _ = inside.decrement()
        })
        let ping = ping
        center.publisher(for: ping).subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 200) { _ in
            center.post(name: ping, object: nil)
        }
        XCTAssertEqual(subscriber.values.count, 200)
        XCTAssertEqual(overlapped.value, 0, "downstream calls must be serialized")
    }

    func testPublishersCompareByCenterNameAndObject() {
        let center = NotificationCenter()
        XCTAssertEqual(center.publisher(for: ping), NotificationCenter.Publisher(center: center, name: ping))
        XCTAssertNotEqual(center.publisher(for: ping), NotificationCenter().publisher(for: ping))
    }
}

extension LockedCounter {
    func decrement() -> Int { increment(by: -1) }
}
