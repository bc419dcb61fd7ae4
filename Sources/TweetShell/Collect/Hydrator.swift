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
    /// Batches without an answer at once, counted from the oldest one.
    var concurrency = 1
    /// Answered batches that may wait for the store beyond `concurrency`: while the store commits some, the next
    /// ones are fetched, decoded and prepared. With 0 a batch is asked for only once every earlier answer but the
    /// `concurrency - 1` in flight is committed; either way memory holds at most `concurrency + writeAhead` batches.
    var writeAhead = 0

    /// What a child task of a run finished: a batch answered and prepared, or a group of them committed.
    private enum Step: Sendable {
        case answered(index: Int, PreparedHydration, found: Int, absent: Int)
        case committed(batches: Int, found: Int, absent: Int)
    }

    /// Runs over `ids` (distinct, in input order), skipping those an earlier run settled.
    ///
    /// A pipeline: up to `concurrency` batches are fetched at once, and each is decoded and prepared for the store
    /// (its originals compressed) in its own task, so both cores work on pages while the store's thread commits the
    /// batches answered before, as many as are ready in one transaction. When the run stops (an error, or the caller
    /// cancelling it), the answers already received are committed before it throws.
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
        let failure: (any Error)? = await withThrowingTaskGroup(of: Step.self) { group in
            var next = 0
            var oldest = 0
            var answered = Set<Int>()
            var ready: [(PreparedHydration, found: Int, absent: Int)] = []
            var writing = false
            var failure: (any Error)?
            // The window starts at the oldest unanswered batch: while it is stalled (a slow response, a hang), no
            // batch beyond the window is sent, so at any moment at most `concurrency` batches are without an answer,
            // and at most `concurrency + writeAhead` are without a commit.
            func launch() {
                while failure == nil, next < batches.count, next - oldest < max(1, concurrency),
                    next - done < max(1, concurrency) + writeAhead
                {
                    let index = next
                    let batch = batches[index]
                    next += 1
                    group.addTask {
                        let (answer, found, absent) = try await self.answer(batch)
                        return .answered(index: index, answer, found: found, absent: absent)
                    }
                }
            }
            // Everything answered so far goes to the store in one transaction, behind the one being written.
            func write() {
                guard !writing, !ready.isEmpty else { return }
                writing = true
                let taken = ready
                ready.removeAll()
                group.addTask {
                    try await self.store.recordHydrations(taken.map(\.0), collection: self.collection)
                    return .committed(
                        batches: taken.count, found: taken.reduce(0) { $0 + $1.found },
                        absent: taken.reduce(0) { $0 + $1.absent })
                }
            }
            launch()
            while true {
                let step: Step
                do {
                    guard let finished = try await group.next() else { break }
                    step = finished
                } catch {
                    // The first failure stops the fetching; answers already received are still committed.
                    if failure == nil {
                        failure = error
                        group.cancelAll()
                    }
                    continue
                }
                switch step {
                case .answered(let index, let answer, let found, let absent):
                    answered.insert(index)
                    while answered.remove(oldest) != nil { oldest += 1 }
                    ready.append((answer, found, absent))
                    write()
                case .committed(let count, let found, let absent):
                    writing = false
                    done += count
                    hydrated += found
                    missing += absent
                    if failure == nil {
                        let elapsed = clock.now().timeIntervalSince(started)
                        let eta = HydrateETA.secondsLeft(
                            batchesLeft: batches.count - done, secondsPerBatch: elapsed / Double(done),
                            window: source.client.rateLimits().first { $0.endpoint == "GET /2/tweets" },
                            now: clock.now())
                        progress(
                            Progress(
                                total: ids.count, settled: hydrated + missing, hydrated: hydrated, missing: missing,
                                secondsLeft: eta))
                    }
                    write()
                    launch()
                }
            }
            return failure
        }
        if let failure { throw failure }
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

    /// Asks for one batch and prepares its answers for the store; returns them with how many were hydrated and how
    /// many are missing.
    private func answer(_ batch: [TweetID]) async throws -> (PreparedHydration, Int, Int) {
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
        let prepared = store.prepareHydration(
            page, hydrated: batch.filter { returned.contains($0) }, missing: misses)
        return (prepared, returned.count, misses.count)
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
