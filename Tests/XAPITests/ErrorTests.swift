import Foundation
import Testing
import TweetKit
import XAPIStub

@testable import XAPI

private let search = "/2/tweets/search/recent"
private let searchEndpoint = "GET /2/tweets/search/recent"
private let swiftQuery = [URLQueryItem(name: "query", value: "#swift")]

@Suite("Each error class of the contract, over the loopback stub")
struct ErrorTests {
    @Test func badQueryCarriesTheAPIMessageParameterAndPosition() async throws {
        let harness = try Harness()
        let error = await capture {
            _ = try await harness.get(
                search, searchEndpoint, [URLQueryItem(name: "query", value: "swift (concurrency")])
        }
        guard case .badRequest(_, let message, let parameter, let position) = error as? XAPIError else {
            Issue.record("expected badRequest, got \(String(describing: error))")
            return
        }
        #expect(parameter == "query")
        #expect(position == 7)
        #expect(message.contains("Missing closing parenthesis"))
        let text = "\(error!)"
        #expect(text.contains("`query`") && text.contains("(at position 7)") && text.contains("Fix the query"))
        #expect(harness.stub.requests.count == 1)
    }

    @Test func scriptedBadRequestAndOutOfRangeParameter() async throws {
        let harness = try Harness()
        harness.stub.enqueue(.badRequest(position: 12))
        let scripted = await capture { _ = try await harness.get(search, searchEndpoint, swiftQuery) }
        #expect(
            scripted as? XAPIError
                == .badRequest(
                    endpoint: searchEndpoint,
                    message:
                        "There were errors processing your request: Ambiguous use of and as a keyword. Use a space to "
                        + "logically join two clauses, or \"and\" to find occurrences of and in text (at position 12)",
                    parameter: "query", position: 12))
        let range = await capture {
            _ = try await harness.get(
                search, searchEndpoint, swiftQuery + [URLQueryItem(name: "max_results", value: "5")])
        }
        guard case .badRequest(_, let message, let parameter, nil) = range as? XAPIError else {
            Issue.record("expected badRequest, got \(String(describing: range))")
            return
        }
        #expect(parameter == "max_results")
        #expect(message.contains("not between 10 and 100"))
    }

    @Test func unauthorizedSaysToRunAuth() async throws {
        let harness = try Harness(token: "AAAAwrong-token-value-123456")
        let error = await capture { _ = try await harness.get(search, searchEndpoint, swiftQuery) }
        #expect(error as? XAPIError == .unauthorized(endpoint: searchEndpoint))
        #expect("\(error!)".contains("run `auth`"))
        #expect(harness.stub.requests.count == 1, "a 401 is not retried")

        let scripted = try Harness()
        scripted.stub.enqueue(.unauthorized)
        let second = await capture { _ = try await scripted.get(search, searchEndpoint, swiftQuery) }
        #expect(second as? XAPIError == .unauthorized(endpoint: searchEndpoint))
    }

    @Test func missingTokenNeverReachesTheNetwork() async throws {
        let harness = try Harness(token: nil)
        let error = await capture { _ = try await harness.get(search, searchEndpoint, swiftQuery) }
        #expect(error as? XAPIError == .missingCredentials)
        #expect("\(error!)".contains("X_BEARER_TOKEN") && "\(error!)".contains("`auth`"))
        #expect(harness.stub.requests.isEmpty)
    }

    @Test func forbiddenKindsAreExplainedApart() async throws {
        let harness = try Harness()
        harness.stub.enqueue([.clientForbidden, .unsupportedAuthentication])
        let client = await capture { _ = try await harness.get(search, searchEndpoint, swiftQuery) }
        #expect(client as? XAPIError == .clientForbidden(endpoint: searchEndpoint, reason: "client-not-enrolled"))
        #expect("\(client!)".contains("not attached to a Project"))
        let auth = await capture { _ = try await harness.get(search, searchEndpoint, swiftQuery) }
        guard case .unsupportedAuthentication(let endpoint, let detail)? = auth as? XAPIError else {
            Issue.record("expected unsupportedAuthentication, got \(String(describing: auth))")
            return
        }
        #expect(endpoint == searchEndpoint)
        #expect(detail?.contains("Application-Only is forbidden") == true)
        #expect("\(auth!)".contains("app-only bearer"))
        #expect(harness.stub.requests.count == 2)
    }

    @Test func notFoundWithHTMLOrEmptyBody() async throws {
        let harness = try Harness()
        harness.stub.enqueue([.html404, .empty404])
        let html = await capture { _ = try await harness.get(search, searchEndpoint, swiftQuery) }
        #expect(html as? XAPIError == .notFound(endpoint: searchEndpoint, body: .html))
        let empty = await capture { _ = try await harness.get(search, searchEndpoint, swiftQuery) }
        #expect(empty as? XAPIError == .notFound(endpoint: searchEndpoint, body: .empty))
        #expect("\(empty!)".contains("api_base"))
        // An unknown path gets the stub's own empty 404, as the live API does today.
        let wrongPath = await capture {
            _ = try await harness.get("/2/tweets/serch/recent", "GET /2/tweets/serch/recent")
        }
        #expect(wrongPath as? XAPIError == .notFound(endpoint: "GET /2/tweets/serch/recent", body: .empty))
    }

    @Test func usageCapIsNeverRetried() async throws {
        let harness = try Harness()
        harness.stub.enqueue(.usageCap)
        let error = await capture { _ = try await harness.get(search, searchEndpoint, swiftQuery) }
        #expect(
            error as? XAPIError
                == .usageCapExceeded(
                    endpoint: searchEndpoint, period: "Monthly", detail: "Usage cap exceeded: Monthly product cap"))
        #expect("\(error!)".contains("does not help"))
        #expect(harness.stub.requests.count == 1)
        #expect(harness.waits.all.isEmpty)
    }

    @Test func serviceUnavailableThenSuccessBacksOff() async throws {
        let harness = try Harness()
        harness.stub.enqueue([.serviceUnavailable, .serverError(status: 502)])
        let data = try await harness.get(search, searchEndpoint, swiftQuery)
        #expect(try harness.json(data)["data"] != nil)
        #expect(harness.stub.requests.count == 3)
        let retries = harness.waits.all.filter { $0.secondsLeft == 0 }.map(\.reason)
        #expect(
            retries == [
                .retry(attempt: 2, maxAttempts: 5, cause: "503 Service Unavailable"),
                .retry(attempt: 3, maxAttempts: 5, cause: "502 Bad Gateway"),
            ])
    }

    @Test func persistentServerErrorStopsAfterFiveTries() async throws {
        let harness = try Harness()
        harness.stub.enqueue(Array(repeating: .serviceUnavailable, count: 6))
        let error = await capture { _ = try await harness.get(search, searchEndpoint, swiftQuery) }
        #expect(
            error as? XAPIError
                == .server(endpoint: searchEndpoint, status: 503, title: "Service Unavailable", attempts: 5))
        #expect(harness.stub.requests.count == 5)
        #expect(harness.stub.pendingFaults == 1)
    }

    @Test func backoffIsExponentialCappedAndJittered() {
        let policy = RetryPolicy(baseDelay: 1, maxDelay: 30)
        #expect(policy.backoff(afterAttempt: 1, jitter: 1) == 1)
        #expect(policy.backoff(afterAttempt: 3, jitter: 1) == 4)
        #expect(policy.backoff(afterAttempt: 3, jitter: 0) == 2)
        #expect(policy.backoff(afterAttempt: 9, jitter: 1) == 30)
        #expect(policy.backoff(afterAttempt: 9, jitter: 0.5) == 22.5)
    }

    @Test func droppedConnectionsStopAfterFiveTries() async throws {
        let harness = try Harness()
        harness.stub.enqueue(Array(repeating: .closeConnection, count: 5))
        let error = await capture { _ = try await harness.get(search, searchEndpoint, swiftQuery) }
        guard case .network(let endpoint, _, let attempts)? = error as? XAPIError else {
            Issue.record("expected network, got \(String(describing: error))")
            return
        }
        #expect(endpoint == searchEndpoint && attempts == 5)
        #expect(harness.stub.requests.count == 5)
    }

    @Test func refusedConnectionIsANetworkError() async throws {
        let stub = try StubServer()
        let port = stub.port
        stub.stop()
        let client = XAPIClient(
            configuration: .init(
                settings: XAPISettings(baseURL: URL(string: "http://127.0.0.1:\(port)")!),
                retry: RetryPolicy(maxAttempts: 2, baseDelay: 0.01, maxDelay: 0.01)),
            token: BearerToken(StubServer.defaultBearerToken))
        let error = await capture { _ = try await client.get(search, endpoint: searchEndpoint, query: swiftQuery) }
        #expect(error as? XAPIError == .network(endpoint: searchEndpoint, reason: "connection refused", attempts: 2))
        #expect("\(error!)".contains("Check the network connection"))
    }

    @Test func slowAnswerPastTheTimeoutIsATimeout() async throws {
        let harness = try Harness(
            retry: RetryPolicy(maxAttempts: 2, baseDelay: 0.01, maxDelay: 0.01), requestTimeout: 1)
        let started = ContinuousClock.now
        harness.stub.enqueue([.slow(seconds: 5), .slow(seconds: 5)])
        let error = await capture { _ = try await harness.get(search, searchEndpoint, swiftQuery) }
        #expect(error as? XAPIError == .timedOut(endpoint: searchEndpoint, attempts: 2))
        // Each try waited for its whole timeout, not less.
        #expect(ContinuousClock.now - started >= .seconds(2))
    }

    @Test func truncatedBodyEveryTimeIsReported() async throws {
        let harness = try Harness(retry: RetryPolicy(maxAttempts: 2, baseDelay: 0.01, maxDelay: 0.01))
        harness.stub.enqueue([.truncatedBody, .truncatedBody])
        let error = await capture { _ = try await harness.get(search, searchEndpoint, swiftQuery) }
        guard case .network(_, _, 2)? = error as? XAPIError else {
            Issue.record("expected a network error after 2 tries, got \(String(describing: error))")
            return
        }
    }

    @Test func partialErrorsInA200AreWarningsBesideResults() async throws {
        let harness = try Harness()
        let warnings = Recorder<String>()
        let source = XAPISource(client: harness.client, onWarning: { warnings.append($0) })
        let page = try await source.lookup(ids: [StubCorpus.Fixture.threadRoot, 20])
        #expect(page.tweets.map(\.id) == [StubCorpus.Fixture.threadRoot])
        #expect(page.errors.map(\.value) == ["20"])
        #expect(
            warnings.all == [
                "warning: tweet 20 not found (Not Found Error: Could not find tweet with id: [20].)"
            ])
        // A deleted quoted tweet is a partial error about `includes` on an otherwise normal search page.
        let search = try await source.search(SearchRequest(query: "#deleted"), cursor: nil)
        #expect(search.tweets.map(\.id) == [StubCorpus.Fixture.quoteOfDeleted])
        #expect(search.errors.first?.section == "includes")
        #expect(warnings.all.last?.contains("referenced by a result") == true)
    }
}
