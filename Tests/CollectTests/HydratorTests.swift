import Foundation
import Testing
import TweetKit
import TweetStore
import XAPI
import XAPIStub

@testable import TweetShell

@Suite("Hydrator against the stub and a store on disk: exact counts, rate limits, resume")
struct HydratorTests {
    @Test func elevenHundredIdsWithThirtySevenMissingAcrossThreeReasons() async throws {
        let harness = try HydrateHarness()
        let ids = HydrateHarness.ids(1_050)
        harness.stub.lookupWorld.setMissing(Array(ids[10..<30]), reason: .deleted)
        harness.stub.lookupWorld.setMissing(Array(ids[500..<510]), reason: .suspended)
        harness.stub.lookupWorld.setMissing(Array(ids[1_040..<1_047]), reason: .protected)
        let hydrator = Hydrator(source: harness.source, store: harness.store, collection: "dataset", concurrency: 4)
        let summary = try await hydrator.run(ids: ids)

        #expect(summary.hydrated == 1_013)
        #expect(summary.missingByReason == ["deleted": 20, "suspended": 10, "protected": 7])
        #expect(summary.line == "1013 hydrated, 37 missing (20 deleted, 10 suspended, 7 protected)")
        #expect(summary.requests == 11)
        #expect(summary.missing.map(\.id) == Array(ids[10..<30]) + Array(ids[500..<510]) + Array(ids[1_040..<1_047]))

        let batches = harness.answeredBatches
        #expect(batches.count == 11)
        #expect(batches.allSatisfy { $0.count <= 100 })
        let asked = batches.flatMap { $0 }
        #expect(asked.count == ids.count && Set(asked) == Set(ids), "every id asked for once")
        let request = try #require(harness.stub.requests(path: "/2/tweets").first)
        #expect(request.query["tweet.fields"] == XAPIFields.tweet.joined(separator: ","))
        #expect(request.query["expansions"] == XAPIFields.expansions.joined(separator: ","))
        #expect(request.query["user.fields"] == XAPIFields.user.joined(separator: ","))

        // In the collection and searchable at once; the missing ones are not.
        let collections = try await harness.store.collections()
        #expect(collections.first { $0.name == "dataset" }?.tweets == 1_013)
        var search = SearchRequest(query: "\"hydrated tweet \(ids[700])\" #hydrate", pageSize: 10)
        search.collection = "dataset"
        #expect(try await harness.store.search(search, cursor: nil).tweets.map(\.id) == [ids[700]])
        #expect(try await harness.store.lookup(ids: [ids[10]]).tweets.isEmpty)
        #expect(try await harness.store.lookup(ids: [ids[0]]).tweets.first?.text == StubLookupWorld.text(of: ids[0]))
    }

    @Test func batchesAnsweredWhileOthersAreCommittedAreEachStoredOnce() async throws {
        let harness = try HydrateHarness()
        let ids = HydrateHarness.ids(2_030)
        harness.stub.lookupWorld.setMissing(Array(ids[1_000..<1_004]), reason: .deleted)
        // The shell's settings: four in flight, and up to eight answered batches waiting for the store.
        let hydrator = Hydrator(
            source: harness.source, store: harness.store, collection: "piped", concurrency: 4, writeAhead: 8)
        let progress = Recorder<Hydrator.Progress>()
        let summary = try await hydrator.run(ids: ids) { progress.append($0) }

        #expect(summary.line == "2026 hydrated, 4 missing (4 deleted)")
        #expect(summary.requests == 21)
        let asked = harness.answeredBatches.flatMap { $0 }
        #expect(asked.count == ids.count && Set(asked) == Set(ids), "every id asked for once")
        let settled = progress.all.map(\.settled)
        #expect(settled == settled.sorted() && settled.last == ids.count, "progress only grows, to the total")
        let collections = try await harness.store.collections()
        #expect(collections.first { $0.name == "piped" }?.tweets == 2_026)
        #expect(try await harness.store.hydrationLedger(collection: "piped").missing.count == 4)
    }

    @Test func anIdAbsentFromDataAndErrorsIsNotFound() async throws {
        let harness = try HydrateHarness()
        let ids = HydrateHarness.ids(5)
        harness.stub.lookupWorld.setMissing([ids[2]], reason: .silent)
        let summary = try await Hydrator(source: harness.source, store: harness.store, collection: "c").run(ids: ids)
        #expect(summary.line == "4 hydrated, 1 missing (1 not found)")
        #expect(summary.missing == [HydrationMiss(id: ids[2], reason: "not found", detail: nil)])
    }

    @Test func afterDropTheCollectionIsHydratedAgain() async throws {
        let harness = try HydrateHarness()
        let ids = HydrateHarness.ids(150)
        harness.stub.lookupWorld.setMissing([ids[0]], reason: .deleted)
        let hydrator = Hydrator(source: harness.source, store: harness.store, collection: "again")
        _ = try await hydrator.run(ids: ids)
        _ = try await harness.store.drop(collection: "again")
        let summary = try await hydrator.run(ids: ids)
        #expect(summary.settledBefore == 0)
        #expect(summary.requests == 2)
        #expect(summary.line == "149 hydrated, 1 missing (1 deleted)")
    }

    @Test func aRateLimitWaitMidwayIsWaitedInVirtualTimeAndNothingIsAskedTwice() async throws {
        let virtual = VirtualClock()
        let harness = try HydrateHarness(clock: virtual.clock)
        let ids = HydrateHarness.ids(600)
        let stub = harness.stub
        let progress = Recorder<Hydrator.Progress>()
        let summary = try await Hydrator(source: harness.source, store: harness.store, collection: "c").run(ids: ids) {
            progress.append($0)
            // After the third batch the window runs out for ten minutes: the fourth request gets a 429.
            if $0.settled == 300 { stub.enqueue(.windowRateLimit(after: 600), path: "/2/tweets") }
        }
        #expect(summary.hydrated == 600)
        let lookups = stub.requests(path: "/2/tweets")
        #expect(lookups.count == 7, "six batches and the one refused with a 429")
        #expect(lookups[3].query["ids"] == lookups[4].query["ids"], "the refused batch is retried after the wait")
        let asked = lookups.enumerated().filter { $0.offset != 3 }.flatMap {
            ($0.element.query["ids"] ?? "").split(separator: ",").map(String.init)
        }
        #expect(asked.count == Set(asked).count)
        #expect(virtual.slept >= 600, "the wait ran in virtual time: \(virtual.slept) s")
        let waits = harness.waits.all.filter { $0.reason == .rateLimit }
        #expect((waits.first?.secondsLeft ?? 0) >= 600)
        #expect(waits.last?.secondsLeft == 0)
        #expect(progress.all.last?.settled == 600)
    }

    @Test func aCancelledRunResumesWithoutAskingAnAnsweredIdAgain() async throws {
        let harness = try HydrateHarness()
        let ids = HydrateHarness.ids(1_050)
        harness.stub.lookupWorld.setMissing(Array(ids[100..<105]), reason: .protected)
        let hydrator = Hydrator(source: harness.source, store: harness.store, collection: "resume")
        let holder = Recorder<Task<Hydrator.Summary, any Error>>()
        let task = Task {
            try await hydrator.run(ids: ids) { progress in
                if progress.settled >= 500 { holder.all.first?.cancel() }
            }
        }
        holder.append(task)
        // The task may reach 500 before it is recorded; then it cancels itself on the next batch.
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        let settledFirst = harness.answeredBatches.flatMap { $0 }.count
        #expect(settledFirst >= 500 && settledFirst < 1_050)

        let summary = try await hydrator.run(ids: ids)
        #expect(summary.settledBefore == settledFirst)
        #expect(summary.hydrated == 1_045)
        #expect(summary.missingByReason == ["protected": 5])
        let asked = harness.answeredBatches.flatMap { $0 }
        #expect(asked.count == 1_050, "no id asked twice")
        #expect(Set(asked) == Set(ids))

        // A third run has nothing to ask.
        let again = try await hydrator.run(ids: ids)
        #expect(again.requests == 0)
        #expect(again.line == summary.line)
    }
}

@Suite("hydrate's estimate of the time left and its progress line")
struct HydrateProgressTests {
    @Test func theEstimateCountsTheWindowsTheRemainingBatchesNeed() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        let window = RateLimitStatus(
            endpoint: "GET /2/tweets", limit: 300, remaining: 10, resetAt: now.addingTimeInterval(120), observedAt: now)
        // 10 batches fit in this window: at the pace seen.
        #expect(HydrateETA.secondsLeft(batchesLeft: 10, secondsPerBatch: 0.5, window: window, now: now) == 5)
        // 11 to 310 need the next window: its reset; 311 need another 15 minutes.
        #expect(HydrateETA.secondsLeft(batchesLeft: 11, secondsPerBatch: 0.5, window: window, now: now) == 120)
        #expect(HydrateETA.secondsLeft(batchesLeft: 311, secondsPerBatch: 0.5, window: window, now: now) == 1_020)
        #expect(HydrateETA.secondsLeft(batchesLeft: 0, secondsPerBatch: 0.5, window: window, now: now) == 0)
        #expect(HydrateETA.secondsLeft(batchesLeft: 4, secondsPerBatch: 2, window: nil, now: now) == 8)
    }

    @Test func theLineShowsCountsTimeLeftAndAWait() {
        let progress = Hydrator.Progress(total: 1_050, settled: 450, hydrated: 430, missing: 20, secondsLeft: 95)
        #expect(
            HydrateProgressBar.line(label: "ids.txt", progress: progress, wait: nil)
                == "ids.txt ██████████░░░░░░░░░░░░░░ 42%  450/1050 ids: 430 hydrated, 20 missing, about 2 min left")
        let waiting = HydrateProgressBar.line(
            label: "ids.txt", progress: progress, wait: WaitNotice(reason: "rate limit", secondsLeft: 600))
        #expect(waiting.hasSuffix("about 10 min left · rate limit: waiting 600 s"))
        #expect(HydrateProgressBar.duration(3_700) == "1 h 2 min")
    }
}
