import Foundation
import TweetKit
import TweetStore
import XAPI

/// Writes streamed tweets into the store in batches, without ever making the stream's reader wait.
///
/// `add` only appends to a list under a lock and wakes the writing task; the task lets a batch gather for up to 100 ms,
/// takes everything waiting (up to `batchSize`), prepares it for the store and hands it to the store's single writer
/// thread, one transaction a batch. While batch n is written, batch n+1 collects and is prepared. Tweets join `collection`; those found by gap recovery also join `<collection>-recovered`, which
/// marks them. `finish()` commits what is left and reports.
public final class StreamStoreWriter: @unchecked Sendable {
    /// What was written.
    public struct Summary: Hashable, Sendable {
        /// Tweets committed to the store.
        public var stored: Int
        /// Of those, tweets found by gap recovery.
        public var recovered: Int
        /// Transactions used.
        public var batches: Int
        /// The first write that failed, as a message; nil when all succeeded.
        public var failure: String?
        /// The collection the tweets joined.
        public var collectionName: String
    }

    /// The collection every tweet joins.
    public let collection: String
    /// The collection recovered tweets also join.
    public var recoveredCollection: String { collection + "-recovered" }
    private let store: any CollectionStore
    private let batchSize: Int
    private let lock = NSLock()
    private var pending: [StreamedTweet] = []
    private var finishing = false
    private var summary: Summary
    private var wake: AsyncStream<Void>.Continuation?
    private var task: Task<Void, Never>?

    /// Starts the writing task.
    public init(store: any CollectionStore, collection: String, batchSize: Int = 2_000) {
        self.store = store
        self.collection = collection
        self.batchSize = batchSize
        summary = Summary(stored: 0, recovered: 0, batches: 0, failure: nil, collectionName: collection)
        let (signals, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        wake = continuation
        task = Task.detached { [self] in await run(signals) }
    }

    /// Queues a tweet; returns at once.
    public func add(_ tweet: StreamedTweet) {
        lock.lock()
        pending.append(tweet)
        let wake = self.wake
        lock.unlock()
        wake?.yield()
    }

    /// Tweets queued and not yet committed.
    public var backlog: Int { lock.withLock { pending.count } }

    /// Commits everything queued, stops the task and reports.
    public func finish() async -> Summary {
        let (wake, task) = lock.withLock { () -> (AsyncStream<Void>.Continuation?, Task<Void, Never>?) in
            finishing = true
            defer { self.wake = nil }
            return (self.wake, self.task)
        }
        wake?.yield()
        wake?.finish()
        await task?.value
        return lock.withLock { summary }
    }

    private func run(_ signals: AsyncStream<Void>) async {
        for await _ in signals {
            // Let a batch gather for up to a tenth of a second: one transaction per few tweets would spend the
            // store's time on commits. A full batch, or finishing, goes at once.
            let waitForMore = lock.withLock { !finishing && pending.count < batchSize }
            if waitForMore { try? await Task.sleep(for: .milliseconds(100)) }
            await drain()
        }
        await drain()
    }

    /// Writes everything queued. Batch n+1 is taken and prepared (its rows, index words and compressed originals
    /// built on this task) while the store's thread commits batch n, so the writer thread does only SQLite's work
    /// and two batches at most are held beyond the queue.
    private func drain() async {
        var writing: Task<Void, Never>?
        while true {
            let batch = lock.withLock { () -> [StreamedTweet] in
                let taken = Array(pending.prefix(batchSize))
                pending.removeFirst(taken.count)
                return taken
            }
            guard !batch.isEmpty else { break }
            let prepared = store.prepare(batch.map(\.page))
            let recovered = batch.filter(\.recovered).map(\.id)
            await writing?.value
            writing = Task { [store, collection, recoveredCollection] in
                do {
                    // One transaction: the recovered ones join their own collection with the rest.
                    try await store.insert(
                        prepared, collection: collection, alsoInto: (collection: recoveredCollection, ids: recovered))
                    self.lock.withLock {
                        self.summary.stored += batch.count
                        self.summary.recovered += recovered.count
                        self.summary.batches += 1
                    }
                } catch {
                    let message = ErrorText.describe(error)
                    self.lock.withLock { if self.summary.failure == nil { self.summary.failure = message } }
                }
            }
        }
        await writing?.value
    }
}
