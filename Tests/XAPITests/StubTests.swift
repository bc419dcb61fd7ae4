import Foundation
import Testing
import TweetKit

@testable import XAPI
@testable import XAPIStub

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("The stub itself: query filtering, control endpoints, wait-event stream")
struct StubTests {
    private func search(_ query: String, _ harness: Harness) async throws -> [TweetID] {
        try await XAPISource(client: harness.client).search(SearchRequest(query: query, pageSize: 100), cursor: nil)
            .tweets.map(\.id)
    }

    @Test func queryOperatorsFilter() async throws {
        let harness = try Harness()
        #expect(try await search("from:alice conversation_id:\(StubCorpus.Fixture.threadRoot)", harness).count == 3)
        #expect(
            try await search("#lunch OR #deleted", harness) == [
                StubCorpus.Fixture.withMedia, StubCorpus.Fixture.quoteOfDeleted,
            ])
        #expect(try await search("thread is:retweet", harness) == [StubCorpus.Fixture.retweet])
        #expect(try await search("thread -is:retweet -is:reply", harness) == [StubCorpus.Fixture.threadRoot])
        #expect(try await search("\"fish &amp; chips\" has:media", harness) == [StubCorpus.Fixture.withMedia])
        #expect(try await search("(day OR note) from:bob lang:en", harness).count == 9)
    }

    @Test func invalidQueriesAreRefusedWithPositions() throws {
        func position(_ query: String) -> Int? {
            do {
                _ = try StubQuery.parse(query)
                return nil
            } catch let error as StubQuery.ParseError {
                return error.position
            } catch {
                return nil
            }
        }
        #expect(position("a (b") == 3)
        #expect(position("a b)") == 4)
        #expect(position("is:retweet lang:en") == 1)
        #expect(position("a -(b c)") == 3)
        #expect(position("from: x") == 1)
        #expect(position("a \"open") == 3)
        #expect(position("a OR b") == nil)
    }

    @Test func controlEndpointsScriptFaultsAndListRequests() async throws {
        let harness = try Harness()
        var post = URLRequest(url: harness.stub.baseURL.appendingPathComponent("__stub/faults"))
        post.httpMethod = "POST"
        post.httpBody = Data("spec=403-client&path=/2/tweets/search".utf8)
        let (_, response) = try await URLSession.shared.data(for: post)
        #expect((response as? HTTPURLResponse)?.statusCode == 204)
        #expect(harness.stub.pendingFaults == 1)
        let error = await capture {
            _ = try await XAPISource(client: harness.client).search(SearchRequest(query: "x"), cursor: nil)
        }
        #expect(
            error as? XAPIError
                == .clientForbidden(endpoint: "GET /2/tweets/search/recent", reason: "client-not-enrolled"))
        let (data, _) = try await URLSession.shared.data(
            from: harness.stub.baseURL.appendingPathComponent("__stub/requests"))
        let list = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(
            list.count == 1 && list[0]["bearer_ok"] as? Bool == true
                && list[0]["path"] as? String == "/2/tweets/search/recent")
        #expect(!String(decoding: data, as: UTF8.self).contains(StubServer.defaultBearerToken))
        #expect(
            StubFault(spec: "429@3") != nil && StubFault(spec: "503") == .serviceUnavailable
                && StubFault(spec: "999") == nil)
    }

    @Test func aServerNobodyHoldsClosesItsSocket() async throws {
        var port: UInt16 = 0
        do {
            let stub = try StubServer()
            port = stub.port
        }
        let client = XAPIClient(
            configuration: .init(
                settings: XAPISettings(baseURL: URL(string: "http://127.0.0.1:\(port)")!),
                retry: RetryPolicy(maxAttempts: 1)),
            token: BearerToken(StubServer.defaultBearerToken))
        var error: (any Error)?
        for _ in 0..<50 {
            error = await capture { _ = try await client.get("/2/tweets/search/recent", endpoint: "E", query: []) }
            if error as? XAPIError == .network(endpoint: "E", reason: "connection refused", attempts: 1) { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(error as? XAPIError == .network(endpoint: "E", reason: "connection refused", attempts: 1))
    }

    @Test func corpusFromJSONLServesItsTweets() async throws {
        let lines = [
            #"{"data":[{"id":"11","text":"hello from jsonl","author_id":"5"}],"includes":{"users":[{"id":"5","name":"Eve","username":"eve"}]},"meta":{"result_count":1}}"#,
            "",
            #"{"data":{"id":"12","text":"a second hello","author_id":"5"}}"#,
        ]
        let corpus = try StubCorpus(jsonl: Data(lines.joined(separator: "\n").utf8))
        #expect(corpus.tweets.map(\.id) == [11, 12] && corpus.user(username: "EVE")?.id == 5)
        let harness = try Harness(stub: try StubServer(configuration: .init(corpus: corpus)))
        let page = try await XAPISource(client: harness.client).search(
            SearchRequest(query: "hello from:eve"), cursor: nil)
        #expect(page.tweets.map(\.id) == [12, 11])
        let error = #expect(throws: StubCorpus.LoadError.self) {
            try StubCorpus(jsonl: Data("{\"data\":[]}\n{oops".utf8))
        }
        #expect(error?.line == 2)
    }

    @Test func timelineSendsPreviousToken() async throws {
        let harness = try Harness()
        let source = XAPISource(client: harness.client)
        let first = try await source.userTimeline(username: "alice", cursor: nil, limit: 5)
        let second = try await source.userTimeline(username: "alice", cursor: first.nextToken, limit: 5)
        #expect(first.previousToken == nil && second.previousToken != nil)
        let back = try await source.userTimeline(username: "alice", cursor: second.previousToken, limit: 5)
        #expect(back.tweets == first.tweets)
    }

    @Test func waitEventsAsAStream() async throws {
        let (events, onWait) = RateLimitWait.makeStream()
        let stub = try StubServer()
        let client = XAPIClient(
            configuration: .init(settings: XAPISettings(baseURL: stub.baseURL), retry: fastRetry, onWait: onWait),
            token: BearerToken(StubServer.defaultBearerToken))
        stub.enqueue(.serviceUnavailable)
        _ = try await client.get(
            "/2/tweets/search/recent", endpoint: "GET /2/tweets/search/recent",
            query: [URLQueryItem(name: "query", value: "a")])
        var iterator = events.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first?.endpoint == "GET /2/tweets/search/recent")
        #expect(first?.reason == .retry(attempt: 2, maxAttempts: 5, cause: "503 Service Unavailable"))
    }
}
