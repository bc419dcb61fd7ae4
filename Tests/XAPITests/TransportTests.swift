import Foundation
import Testing
import XAPIStub

@testable import XAPI

@Suite("HTTP transport against the loopback stub")
struct TransportTests {
    @Test func sendsBearerUserAgentAndDecodedQuery() async throws {
        let harness = try Harness()
        let data = try await harness.get(
            "/2/tweets/search/recent", "GET /2/tweets/search/recent",
            [
                URLQueryItem(name: "query", value: "#swift from:bob"),
                URLQueryItem(name: "tweet.fields", value: "author_id,created_at"),
            ])
        let body = try harness.json(data)
        #expect((body["data"] as? [Any])?.isEmpty == false)
        let request = try #require(harness.stub.requests.last)
        #expect(request.headers["authorization"] == "Bearer \(StubServer.defaultBearerToken)")
        #expect(request.headers["user-agent"] == "tweetsh/9.9.9-test")
        #expect(request.query["query"] == "#swift from:bob")
        #expect(request.query["tweet.fields"] == "author_id,created_at")
        #expect(request.target.contains("tweet.fields=author_id%2Ccreated_at"))
        let limits = harness.client.rateLimits()
        #expect(limits.map(\.endpoint) == ["GET /2/tweets/search/recent"])
        #expect(limits.first?.limit == 450)
        #expect(limits.first?.remaining == 449)
    }

    @Test func truncatedBodyIsRetriedThenSucceeds() async throws {
        let harness = try Harness()
        harness.stub.enqueue(.truncatedBody)
        let data = try await harness.get(
            "/2/tweets/search/recent", "GET /2/tweets/search/recent", [URLQueryItem(name: "query", value: "swift")])
        #expect(try harness.json(data)["meta"] != nil)
        #expect(harness.stub.requests.count == 2)
    }

    @Test func closedConnectionIsRetriedThenSucceeds() async throws {
        let harness = try Harness()
        harness.stub.enqueue(.closeConnection)
        let data = try await harness.get(
            "/2/tweets/search/recent", "GET /2/tweets/search/recent", [URLQueryItem(name: "query", value: "swift")])
        #expect(try harness.json(data)["meta"] != nil)
        #expect(harness.stub.requests.count == 2)
    }

    @Test func cancellingASlowResponseEndsAtOnce() async throws {
        let harness = try Harness()
        // Far longer than the bound below, so the bound tells a cancel from an answer even on a loaded machine.
        harness.stub.enqueue(.slow(seconds: 300))
        let task = Task {
            try await harness.get(
                "/2/tweets/search/recent", "GET /2/tweets/search/recent", [URLQueryItem(name: "query", value: "swift")])
        }
        while harness.stub.requests.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        // Timed from the cancel, not from the start: a loaded machine may take many seconds to get this far.
        let started = ContinuousClock.now
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(ContinuousClock.now - started < .seconds(60))
        // The stub saw the client hang up instead of waiting for the answer.
        for _ in 0..<200 where harness.stub.abandonedRequests.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        #expect(harness.stub.abandonedRequests.count == 1)
        #expect(harness.stub.requests.count == 1)
    }
}
