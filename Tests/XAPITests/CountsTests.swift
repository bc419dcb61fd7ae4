import Foundation
import Testing
import TweetKit
import XAPIStub

@testable import XAPI

/// 2025-11-30T00:00:00Z: the standard corpus's 25 `#swift` tweets are one a minute from here.
private let base = Date(timeIntervalSince1970: 1_764_460_800)
private let day: TimeInterval = 86_400

@Suite("Counts over time against the stub: paging, waits, the usage cap, cancellation")
struct CountsTests {
    func source(_ harness: Harness) -> XAPISource { XAPISource(client: harness.client) }

    @Test func twoPagesByDayAreJoinedWithEveryEmptyDay() async throws {
        let harness = try Harness()
        let pages = Recorder<Int>()
        let series = try await source(harness).countByTime(
            "#swift", granularity: .day, since: base.addingTimeInterval(-20 * day),
            until: base.addingTimeInterval(20 * day), fullArchive: true, pageFetched: { pages.append($0) })
        let requests = harness.stub.requests
        #expect(requests.map(\.path) == ["/2/tweets/counts/all", "/2/tweets/counts/all"])
        #expect(requests[0].query["granularity"] == "day" && requests[0].query["next_token"] == nil)
        #expect(requests[0].query["start_time"] == "2025-11-10T00:00:00Z")
        #expect(requests[1].query["next_token"] == "ct31", "the second page is asked for by the first one's token")
        #expect(pages.all == [1, 2])
        #expect(series.buckets.count == 40, "40 days, empty ones included")
        #expect(series.total == StubCorpus.Fixture.swiftCount)
        #expect(series.reportedTotal == StubCorpus.Fixture.swiftCount, "meta.total_tweet_count of both pages")
        let peak = try #require(series.peakIndex)
        #expect(CountGranularity.day.label(series.buckets[peak].start) == "2025-11-30")
        #expect(series.sourceName == "x")
    }

    @Test func recentByMinuteAndAWeekCountAskedByDay() async throws {
        let harness = try Harness()
        let minutes = try await source(harness).countByTime(
            "#swift", granularity: .minute, since: nil, until: nil, fullArchive: false)
        #expect(harness.stub.requests.last?.path == "/2/tweets/counts/recent")
        #expect(minutes.buckets.map(\.count) == Array(repeating: 1, count: StubCorpus.Fixture.swiftCount))
        let weeks = try await source(harness).countByTime(
            "#swift", granularity: .week, since: base.addingTimeInterval(-10 * day),
            until: base.addingTimeInterval(10 * day), fullArchive: false)
        #expect(harness.stub.requests.last?.query["granularity"] == "day", "the API has no week: days are added up")
        #expect(weeks.total == StubCorpus.Fixture.swiftCount)
        #expect(weeks.buckets.allSatisfy { CountGranularity.week.bucketStart($0.start) == $0.start })
        #expect(weeks.buckets.filter { $0.count > 0 }.count == 1)
    }

    @Test func aWindow429IsWaitedOutOnAVirtualClock() async throws {
        let virtual = VirtualClock()
        let harness = try Harness(clock: virtual.clock)
        harness.stub.enqueue(
            .windowRateLimit(resetAt: virtual.now.addingTimeInterval(30)), path: "/2/tweets/counts/recent")
        let series = try await source(harness).countByTime(
            "#swift", granularity: .hour, since: nil, until: nil, fullArchive: false)
        #expect(harness.stub.requests.count == 2, "asked again after the wait")
        #expect(series.total == StubCorpus.Fixture.swiftCount)
        #expect(virtual.totalSlept >= 30)
        #expect(harness.waits.all.first?.endpoint == "GET /2/tweets/counts/recent")
        #expect(harness.waits.all.last?.secondsLeft == 0)
    }

    @Test func theUsageCapFailsAtOnceWithoutWaiting() async throws {
        let harness = try Harness()
        harness.stub.enqueue(.usageCap, path: "/2/tweets/counts/all")
        let error = await capture {
            _ = try await source(harness).countByTime(
                "#swift", granularity: .day, since: nil, until: nil, fullArchive: true)
        }
        guard case .usageCapExceeded(let endpoint, _, _)? = error as? XAPIError else {
            Issue.record("expected the usage cap, got \(String(describing: error))")
            return
        }
        #expect(endpoint == "GET /2/tweets/counts/all")
        #expect(harness.stub.requests.count == 1)
        #expect(harness.waits.all.isEmpty)
    }

    @Test func cancellingAPagingCountStopsItDuringTheNextPagesWait() async throws {
        let harness = try Harness()
        let stub = harness.stub
        let counting = source(harness)
        let task = Task {
            try await counting.countByTime(
                "#swift", granularity: .day, since: base.addingTimeInterval(-40 * day),
                until: base.addingTimeInterval(40 * day), fullArchive: true,
                pageFetched: { pages in
                    // After the first page, the second one meets a ten-minute rate-limit wait.
                    if pages == 1 { stub.enqueue(.windowRateLimit(after: 600), path: "/2/tweets/counts/all") }
                })
        }
        try await eventually { !harness.waits.all.isEmpty }
        // Timed from the cancel: reaching the wait takes as long as a loaded machine makes it.
        let cancelled = ContinuousClock.now
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(ContinuousClock.now - cancelled < .seconds(60), "generous against the 600 s wait")
        #expect(harness.stub.requests.count == 2, "no third page after the cancel")
    }

    @Test func aBadGranularityIsTheStubsInvalidRequest() async throws {
        let harness = try Harness()
        let error = await capture {
            _ = try await harness.get(
                "/2/tweets/counts/recent", "GET /2/tweets/counts/recent",
                [URLQueryItem(name: "query", value: "#swift"), URLQueryItem(name: "granularity", value: "week")])
        }
        guard case .badRequest(_, let message, _, _)? = error as? XAPIError else {
            Issue.record("expected a bad request, got \(String(describing: error))")
            return
        }
        #expect(message.contains("granularity"))
    }
}
