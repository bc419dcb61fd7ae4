import Dispatch
import Foundation
import StreamCore
import StreamFoundation
import StreamTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// StreamCore operators driven by the real Foundation schedulers and publishers, as the seeds use them.
final class FoundationPipelineTests: XCTestCase {
    private struct Greeting: Decodable, Equatable {
        let text: String
    }

    func testReceiveOnADispatchQueueDeliversInOrderOnThatQueue() {
        let queue = DispatchQueue(label: "receive-on")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let subject = PassthroughSubject<Int, Never>()
        let done = expectation(description: "finished")
        let offQueue = LockedCounter()
        let subscriber = TrackingSubscriber<Int, Never>(
            initialDemand: nil,
            onEvent: { event in
                if case .subscription = event { return }
                if DispatchQueue.getSpecific(key: key) != true { offQueue.increment() }
                if case .completion = event { done.fulfill() }
            })
        subject.receive(on: queue).subscribe(subscriber)
        // As in Combine, receive(on:) hands the subscription over at once, on the subscribing thread; only values
        // and the completion go through the queue.
        XCTAssertEqual(subscriber.subscriptionCount, 1)
        subscriber.request(.unlimited)
        for value in 0..<100 { subject.send(value) }
        subject.send(completion: .finished)
        wait(for: [done], timeout: 10)
        XCTAssertEqual(subscriber.values, Array(0..<100))
        XCTAssertEqual(offQueue.value, 0, "values and completion all arrive on the queue")
    }

    func testDebounceOnADispatchQueueKeepsTheLastValueOfABurst() {
        let queue = DispatchQueue(label: "debounce")
        let subject = PassthroughSubject<String, Never>()
        let delivered = expectation(description: "debounced value")
        let subscriber = TrackingSubscriber<String, Never>(onEvent: { event in
            if case .value = event { delivered.fulfill() }
        })
        subject.debounce(for: .milliseconds(50), scheduler: queue).subscribe(subscriber)
        for text in ["s", "sw", "swi", "swift"] { subject.send(text) }
        wait(for: [delivered], timeout: 10)
        XCTAssertEqual(subscriber.values, ["swift"])
    }

    func testTimerAutoconnectWithPrefixFinishesAfterThreeTicks() {
        let subscriber = TrackingSubscriber<Date, Never>()
        Timer.publish(every: 0.005, on: .current, in: .default)
            .autoconnect()
            .prefix(3)
            .subscribe(subscriber)
        spin(until: { subscriber.isFinished })
        XCTAssertEqual(subscriber.values.count, 3)
        XCTAssertTrue(subscriber.isFinished)
    }

    func testNotificationsFlowThroughCompactMapAsInTheSeed() {
        let center = NotificationCenter()
        let field = NSObject()
        let name = Notification.Name("textDidChange")
        let subscriber = TrackingSubscriber<String, Never>()
        center.publisher(for: name, object: field)
            .compactMap { $0.userInfo?["text"] as? String }
            .subscribe(subscriber)
        center.post(name: name, object: field, userInfo: ["text": "pau"])
        center.post(name: name, object: field, userInfo: [:])
        center.post(name: name, object: NSObject(), userInfo: ["text": "other field"])
        center.post(name: name, object: field, userInfo: ["text": "paul"])
        XCTAssertEqual(subscriber.values, ["pau", "paul"])
    }

    func testDataTaskThenDecodeOverLoopback() throws {
        let server = try LoopbackHTTPServer(behaviour: .respond(status: 200, body: "{\"text\":\"hi\"}"))
        defer { server.stop() }
        let done = expectation(description: "completion")
        let subscriber = TrackingSubscriber<Greeting, any Error>(onEvent: { event in
            if case .completion = event { done.fulfill() }
        })
        URLSession.shared.dataTaskPublisher(for: server.url("/greeting"))
            .map(\.data)
            .decode(type: Greeting.self, decoder: JSONDecoder())
            .subscribe(subscriber)
        wait(for: [done], timeout: 10)
        XCTAssertEqual(subscriber.values, [Greeting(text: "hi")])
        XCTAssertTrue(subscriber.isFinished)
    }

    func testUndecodableBodyFailsWithTheDecodingError() throws {
        let server = try LoopbackHTTPServer(behaviour: .respond(status: 200, body: "{\"txt\":\"hi\"}"))
        defer { server.stop() }
        let done = expectation(description: "completion")
        let subscriber = TrackingSubscriber<Greeting, any Error>(onEvent: { event in
            if case .completion = event { done.fulfill() }
        })
        URLSession.shared.dataTaskPublisher(for: server.url())
            .map(\.data)
            .decode(type: Greeting.self, decoder: JSONDecoder())
            .subscribe(subscriber)
        wait(for: [done], timeout: 10)
        XCTAssertEqual(subscriber.values, [])
        XCTAssertTrue(subscriber.failure is DecodingError, "\(String(describing: subscriber.failure))")
    }
}
