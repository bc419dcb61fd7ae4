import Foundation
import TweetKit
import TweetStore
import XAPI

/// Hydrates tweet ids into a collection: batches of 100 to `GET /2/tweets?ids=`, each batch's tweets and answers
/// committed together, so an interrupted run resumes where it stopped and never asks again for an id whose answer it
/// committed. Up to `concurrency` batches are in flight at once (a request's round trip, not the client, bounds a
/// hydration); those in flight when a process is killed have no committed answer, and are asked again.
///
/// Rate-limit waits happen inside the API client (which reports them through its `onWait` hook); `progress` hears
/// after every batch, with an estimate of the time left from the window the API last reported.
struct Hydrator: Sendable {
    /// Where a run stands, after each committed batch.
    struct Progress: Sendable, Hashable {
        /// Ids of the input.
        var total: Int
        /// Ids with an answer, this run and earlier ones.
        var settled: Int
        /// Ids hydrated so far (all runs).
        var hydrated: Int
        /// Ids missing so far (all runs).
        var missing: Int
        /// Seconds left, estimated; nil before the first batch of this run.
        var secondsLeft: Double?
    }

    /// What a run ends with, over the whole input (earlier runs included).
    struct Summary: Sendable, Hashable {
        /// Distinct ids in the input.
        var total: Int
        /// Ids whose tweets are in the collection.
        var hydrated: Int
        /// Missing ids by reason (`deleted`, …).
        var missingByReason: [String: Int]
        /// Ids an earlier run had settled, not asked for again.
        var settledBefore: Int
        /// Requests this run made.
        var requests: Int
        /// The missing ids with their reasons, in input order, for the report file.
        var missing: [HydrationMiss]

        /// All missing ids.
        var missingCount: Int { missingByReason.values.reduce(0, +) }

        /// `1013 hydrated, 37 missing (20 deleted, 10 suspended, 7 protected)`.
        var line: String {
            var text = "\(hydrated) hydrated, \(missingCount) missing"
            if missingCount > 0 { text += " (\(HydrateReason.summary(missingByReason)))" }
            return text
        }
    }

    let source: XAPISource
    let store: any CollectionStore
    let collection: String
    var batchSize = 100
    /// Batches without an answer at once, counted from the oldest one; answers are committed as they come.
    var concurrency = 1

    /// Runs over `ids` (distinct, in input order), skipping those an earlier run settled.
    func run(ids: [TweetID], progress: @escaping @Sendable (Progress) -> Void = { _ in }) async throws -> Summary {
        let before = try await store.hydrationLedger(collection: collection)
        let pending = ids.filter { !before.isSettled($0) }
        let settledBefore = ids.count - pending.count
        var hydrated = ids.count(where: { before.hydrated.contains($0) })
        var missing = settledBefore - hydrated
        let batches = stride(from: 0, to: pending.count, by: batchSize).map {
            Array(pending[$0..<min($0 + batchSize, pending.count)])
        }
        let clock = source.client.configuration.clock
        let started = clock.now()
        var done = 0
        progress(Progress(total: ids.count, settled: settledBefore, hydrated: hydrated, missing: missing))
        try await withThrowingTaskGroup(of: (index: Int, found: Int, absent: Int).self) { group in
            var next = 0
            var oldest = 0
            var finished = Set<Int>()
            // The window starts at the oldest unanswered batch: while it is stalled (a slow response, a hang), no
            // batch beyond the window is sent, so at any moment at most `concurrency` batches are without an answer.
            func launch() {
                while next < batches.count, next - oldest < max(1, concurrency) {
                    let index = next
                    let batch = batches[index]
                    next += 1
                    group.addTask {
                        let (found, absent) = try await self.settle(batch)
                        return (index, found, absent)
                    }
                }
            }
            launch()
            while let result = try await group.next() {
                done += 1
                hydrated += result.found
                missing += result.absent
                finished.insert(result.index)
                while finished.remove(oldest) != nil { oldest += 1 }
                let elapsed = clock.now().timeIntervalSince(started)
                let eta = HydrateETA.secondsLeft(
                    batchesLeft: batches.count - done, secondsPerBatch: elapsed / Double(done),
                    window: source.client.rateLimits().first { $0.endpoint == "GET /2/tweets" }, now: clock.now())
                progress(
                    Progress(
                        total: ids.count, settled: hydrated + missing, hydrated: hydrated, missing: missing,
                        secondsLeft: eta))
                launch()
            }
        }
        let after = try await store.hydrationLedger(collection: collection)
        var byReason: [String: Int] = [:]
        var misses: [HydrationMiss] = []
        for id in ids {
            guard let miss = after.missing[id] else { continue }
            byReason[miss.reason, default: 0] += 1
            misses.append(miss)
        }
        return Summary(
            total: ids.count, hydrated: ids.count(where: { after.hydrated.contains($0) }), missingByReason: byReason,
            settledBefore: settledBefore, requests: batches.count, missing: misses)
    }

    /// Asks for one batch and commits its answers; returns how many were hydrated and how many are missing.
    private func settle(_ batch: [TweetID]) async throws -> (Int, Int) {
        let page = try await source.hydrate(ids: batch)
        let asked = Set(batch)
        let returned = Set(page.tweets.map(\.id)).intersection(asked)
        var reasons: [TweetID: HydrationMiss] = [:]
        for problem in page.errors where problem.section != "includes" {
            guard let id = (problem.value ?? problem.resourceID).flatMap({ TweetID($0) }), asked.contains(id),
                !returned.contains(id), reasons[id] == nil
            else { continue }
            reasons[id] = HydrationMiss(
                id: id, reason: HydrateReason(problem: problem).rawValue, detail: problem.detail ?? problem.title)
        }
        let misses = batch.filter { !returned.contains($0) }.map {
            reasons[$0] ?? HydrationMiss(id: $0, reason: HydrateReason.notFound.rawValue, detail: nil)
        }
        try await store.recordHydration(
            page, collection: collection, hydrated: batch.filter { returned.contains($0) }, missing: misses)
        return (returned.count, misses.count)
    }
}

/// The time a hydration has left: at the pace seen so far while the rate-limit window lasts, plus a wait for each
/// window the remaining batches need beyond it (the window the API last reported, 15 minutes each).
enum HydrateETA {
    static func secondsLeft(
        batchesLeft: Int, secondsPerBatch: Double, window: RateLimitStatus?, now: Date, windowLength: Double = 900
    ) -> Double {
        let pace = max(0, secondsPerBatch.isFinite ? secondsPerBatch : 0) * Double(batchesLeft)
        guard batchesLeft > 0, let window, let remaining = window.remaining, let limit = window.limit, limit > 0,
            batchesLeft > remaining
        else { return pace }
        let untilReset = max(0, (window.resetAt ?? now).timeIntervalSince(now))
        let windows = (batchesLeft - remaining + limit - 1) / limit
        return max(pace, untilReset + Double(windows - 1) * windowLength)
    }
}
