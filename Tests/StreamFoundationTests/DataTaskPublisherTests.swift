import Foundation
import StreamCore
import StreamFoundation
import StreamTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class DataTaskPublisherTests: XCTestCase {
    func testDeliversBodyAndResponseThenFinishes() throws {
        let server = try LoopbackHTTPServer(behaviour: .respond(status: 200, body: "hello"))
        defer { server.stop() }
        let done = expectation(description: "completion")
        let subscriber = TrackingSubscriber<(data: Data, response: URLResponse), URLError>(onEvent: { event in
            if case .completion = event { done.fulfill() }
        })
        URLSession.shared.dataTaskPublisher(for: server.url("/greeting")).subscribe(subscriber)
        wait(for: [done], timeout: 10)
        XCTAssertEqual(subscriber.values.count, 1)
        XCTAssertEqual(subscriber.values.first.map { String(decoding: $0.data, as: UTF8.self) }, "hello")
        XCTAssertEqual((subscriber.values.first?.response as? HTTPURLResponse)?.statusCode, 200)
        XCTAssertTrue(subscriber.isFinished)
        XCTAssertTrue(server.requests.first?.hasPrefix("GET /greeting HTTP/1.1") ?? false, "\(server.requests)")
    }

    func testAnHTTPErrorStatusIsStillAValue() throws {
        let server = try LoopbackHTTPServer(behaviour: .respond(status: 404, body: "missing"))
        defer { server.stop() }
        let done = expectation(description: "completion")
        let subscriber = TrackingSubscriber<(data: Data, response: URLResponse), URLError>(onEvent: { event in
            if case .completion = event { done.fulfill() }
        })
        URLSession.shared.dataTaskPublisher(for: URLRequest(url: server.url())).subscribe(subscriber)
        wait(for: [done], timeout: 10)
        XCTAssertEqual((subscriber.values.first?.response as? HTTPURLResponse)?.statusCode, 404)
        XCTAssertTrue(subscriber.isFinished)
    }

    func testTheTaskStartsOnlyOnDemand() throws {
        let server = try LoopbackHTTPServer(behaviour: .respond(status: 200, body: "late"))
        defer { server.stop() }
        let done = expectation(description: "completion")
        let subscriber = TrackingSubscriber<(data: Data, response: URLResponse), URLError>(
            initialDemand: nil,
            onEvent: { event in
                if case .completion = event { done.fulfill() }
            }
        )
        URLSession.shared.dataTaskPublisher(for: server.url()).subscribe(subscriber)
        // A request the server would have seen by now had the task started; this wait is a negative check only.
        let idle = expectation(description: "idle")
        idle.isInverted = true
        wait(for: [idle], timeout: 0.3)
        XCTAssertEqual(server.requests.count, 0)
        subscriber.request(.max(1))
        wait(for: [done], timeout: 10)
        XCTAssertEqual(server.requests.count, 1)
        XCTAssertEqual(subscriber.values.count, 1)
    }

    func testCancellingTheSubscriptionCancelsTheTask() throws {
        let closed = expectation(description: "client closed the connection")
        let server = try LoopbackHTTPServer(behaviour: .hold, onClientClose: { closed.fulfill() })
        defer { server.stop() }
        let subscriber = TrackingSubscriber<(data: Data, response: URLResponse), URLError>()
        URLSession.shared.dataTaskPublisher(for: server.url("/slow")).subscribe(subscriber)
        let deadline = Date().addingTimeInterval(10)
        while server.requests.isEmpty, Date() < deadline {
            RunLoop.current.run(until: Date().addingTimeInterval(0.01))
        }
        XCTAssertEqual(server.requests.count, 1)
        subscriber.cancel()
        wait(for: [closed], timeout: 10)
        XCTAssertEqual(subscriber.events.count, 1, "only the subscription: no value and no completion after cancel")
    }

    func testConnectionRefusedFailsWithURLError() throws {
        // Bind then stop a server so the port is known to be closed.
        let server = try LoopbackHTTPServer(behaviour: .hold)
        server.stop()
        let done = expectation(description: "completion")
        let subscriber = TrackingSubscriber<(data: Data, response: URLResponse), URLError>(onEvent: { event in
            if case .completion = event { done.fulfill() }
        })
        URLSession.shared.dataTaskPublisher(for: server.url()).subscribe(subscriber)
        wait(for: [done], timeout: 10)
        XCTAssertEqual(subscriber.values.count, 0)
        XCTAssertEqual(subscriber.failure?.code, .cannotConnectToHost)
    }
}
