import Foundation
import Testing
import TweetKit
import XAPIStub

@testable import XAPI

private let search = "/2/tweets/search/recent"
private let searchEndpoint = "GET /2/tweets/search/recent"
private let swiftQuery = [URLQueryItem(name: "query", value: "#swift")]

@Suite("Window rate limits: waiting, countdown, cancellation, and the limits table")
struct RateLimitTests {
    @Test func waitsUntilTheResetPlusMarginThenRetries() async throws {
        // A virtual clock: on a loaded CI machine a real 5 s reset had sometimes passed before the client read the
        // 429, so the countdown began at 0. The real clock's sleeping is covered by the cancellation tests below.
        let virtual = VirtualClock()
        let harness = try Harness(clock: virtual.clock)
        let reset = virtual.now.addingTimeInterval(5)
        harness.stub.enqueue(.windowRateLimit(resetAt: reset))
        let data = try await harness.get(search, searchEndpoint, swiftQuery)
        #expect(try harness.json(data)["data"] != nil)
        #expect(harness.stub.requests.count == 2)
        // The header carries whole Unix seconds, rounded up; the retry came after that plus the margin.
        let headerReset = Date(timeIntervalSince1970: reset.timeIntervalSince1970.rounded(.up))
        #expect(virtual.now >= headerReset.addingTimeInterval(fastRetry.rateLimitMargin))
        #expect(virtual.now <= headerReset.addingTimeInterval(fastRetry.rateLimitMargin + 1.01))
        let events = harness.waits.all
        #expect(!events.isEmpty && events.allSatisfy { $0.endpoint == searchEndpoint && $0.reason == .rateLimit })
        #expect(events.first.map { (5...7).contains($0.secondsLeft) } == true)
        #expect(events.last?.secondsLeft == 0)
        #expect(events.map(\.secondsLeft) == events.map(\.secondsLeft).sorted(by: >), "a countdown never goes up")
        #expect(events.first?.description.contains("retrying in") == true)
    }

    @Test func fifteenMinuteWindowOnAVirtualClock() async throws {
        let virtual = VirtualClock()
        let harness = try Harness(retry: RetryPolicy(rateLimitMargin: 2), clock: virtual.clock)
        let reset = virtual.now.addingTimeInterval(900)
        harness.stub.enqueue(.legacyWindowRateLimit(resetAt: reset))
        _ = try await harness.get(search, searchEndpoint, swiftQuery)
        #expect(harness.stub.requests.count == 2)
        // 900 s to the reset (rounded up to a whole second by the header) plus the 2 s margin, in steps of a second.
        #expect(virtual.totalSlept >= 902 && virtual.totalSlept <= 903.01)
        #expect(virtual.sleeps.allSatisfy { $0 <= 1.0001 })
        let countdown = harness.waits.all.map(\.secondsLeft)
        #expect(countdown.first.map { (902...903).contains($0) } == true)
        #expect(countdown.suffix(3) == [2, 1, 0])
    }

    @Test func perSecondLimitWaitsASecondNotTheWindow() async throws {
        let virtual = VirtualClock()
        let harness = try Harness(retry: RetryPolicy(rateLimitMargin: 0.5), clock: virtual.clock)
        harness.stub.enqueue(.perSecondRateLimit, path: "/2/tweets/search/all")
        _ = try await harness.get("/2/tweets/search/all", "GET /2/tweets/search/all", swiftQuery)
        #expect(harness.stub.requests.count == 2)
        #expect(abs(virtual.totalSlept - 1.5) < 0.01)
        #expect(harness.waits.all.allSatisfy { $0.reason == .rateLimit })
    }

    @Test func aResetTooFarAwayIsReportedNotWaitedFor() async throws {
        let virtual = VirtualClock()
        let harness = try Harness(retry: RetryPolicy(maxRateLimitWait: 60), clock: virtual.clock)
        let reset = virtual.now.addingTimeInterval(600)
        harness.stub.enqueue(.windowRateLimit(resetAt: reset))
        let error = await capture { _ = try await harness.get(search, searchEndpoint, swiftQuery) }
        guard case .rateLimited(let endpoint, let resetAt)? = error as? XAPIError else {
            Issue.record("expected rateLimited, got \(String(describing: error))")
            return
        }
        #expect(endpoint == searchEndpoint)
        #expect(abs((resetAt?.timeIntervalSince(reset) ?? 99)) < 1.01)
        #expect("\(error!)".contains("`limits`"))
        #expect(virtual.sleeps.isEmpty)
    }

    @Test func cancellingDuringAWaitEndsItAtOnce() async throws {
        let harness = try Harness()
        harness.stub.enqueue(.windowRateLimit(after: 600))
        let task = Task { try await harness.get(search, searchEndpoint, swiftQuery) }
        try await eventually { !harness.waits.all.isEmpty }
        #expect(harness.waits.all.first?.secondsLeft ?? 0 > 500)
        // Timed from the cancel, not from the start: a loaded machine may take many seconds to get this far.
        let started = ContinuousClock.now
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        // Generous against a 600 s wait, so a loaded machine's scheduling delays cannot fail it.
        #expect(ContinuousClock.now - started < .seconds(60))
        #expect(harness.waits.all.last?.secondsLeft == 0, "the shell is told the countdown is over")
        #expect(harness.stub.requests.count == 1, "no retry after cancellation")
    }

    @Test func cancellingDuringBackoffEndsItAtOnce() async throws {
        let harness = try Harness(retry: RetryPolicy(baseDelay: 300, maxDelay: 300))
        harness.stub.enqueue(.serviceUnavailable)
        let task = Task { try await harness.get(search, searchEndpoint, swiftQuery) }
        try await eventually { !harness.waits.all.isEmpty }
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(harness.stub.requests.count == 1)
    }

    @Test func limitsAreKeptPerEndpoint() async throws {
        let stub = try StubServer(configuration: .init(rateLimit: 3))
        let harness = try Harness(stub: stub)
        let source = XAPISource(client: harness.client)
        _ = try await source.search(SearchRequest(query: "#swift"), cursor: nil)
        _ = try await source.search(SearchRequest(query: "#swift"), cursor: nil)
        _ = try await source.lookup(ids: [StubCorpus.Fixture.threadRoot])
        let limits = harness.client.rateLimits()
        #expect(limits.map(\.endpoint) == ["GET /2/tweets/:id", "GET /2/tweets/search/recent"])
        #expect(limits.map(\.remaining) == [2, 1])
        #expect(limits.allSatisfy { $0.limit == 3 && ($0.resetAt ?? .distantPast) > Date() })
        // The third search uses up the window; the fourth is refused by the stub with a real 429.
        _ = try await source.search(SearchRequest(query: "#swift"), cursor: nil)
        #expect(harness.client.rateLimits().last?.remaining == 0)
    }
}
