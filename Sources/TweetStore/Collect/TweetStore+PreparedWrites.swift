import Foundation
import TweetKit

/// Pages made ready for the store's writer by the caller: rows, index documents and compressed originals are built
/// where `TweetStore.prepare(_:)` is called, so the store's single writer thread is left only SQLite's work.
///
/// A collector that keeps the writer busy prepares batch n+1 on its own thread while batch n is written: the stream
/// and hydrate pipelines overlap their CPU work with the store's this way, across both cores.
public struct PreparedPages: Sendable {
    let batch: PreparedBatch
    /// The pages as they came, for a store that prepares nothing ahead (PostgreSQL); empty from the SQLite store.
    package var pages: [Page] = []

    /// Result tweets held (each id once).
    public var tweetCount: Int { batch.tweets.count(where: \.primary) }
}

/// One hydration batch's answers, prepared away from the store's writer thread (see `PreparedPages`): the page's
/// tweets, and the ids it settled, hydrated or missing.
public struct PreparedHydration: Sendable {
    let batch: PreparedBatch
    package let hydrated: [TweetID]
    package let missing: [HydrationMiss]
    /// The page as it came, for a store that prepares nothing ahead (PostgreSQL); empty from the SQLite store.
    package var pages: [Page] = []
}

extension TweetStore {
    /// Prepares pages for `insert(_:collection:alsoInto:)`; the CPU work happens here, on the calling thread.
    public func prepare(_ pages: [Page]) -> PreparedPages {
        PreparedPages(batch: PreparedBatch(pages, codec: codec))
    }

    /// Writes prepared pages in one transaction: their result tweets join `collection`, and the ids of `alsoInto`
    /// also join its collection (both made when missing). Tweets already stored are replaced, as `insert(_:)` does.
    ///
    /// The write is queued behind the store's earlier work and is not stopped by cancelling the caller, so what a
    /// stream has received is committed whole even while it stops.
    public func insert(
        _ prepared: PreparedPages, collection: String, alsoInto: (collection: String, ids: [TweetID])? = nil
    ) async throws {
        let batch = prepared.batch
        try await database.enqueue { connection in
            try connection.transaction {
                let writer = try Writer(connection: connection)
                try writer.write(batch)
                try CollectionMembership.add(connection, batch, to: collection)
                if let alsoInto, !alsoInto.ids.isEmpty {
                    let id = try CollectionMembership.collectionID(connection, name: alsoInto.collection)
                    let ids = alsoInto.ids.map { Int64(bitPattern: $0.rawValue) }.sorted()
                    try CollectionMembership.add(connection, collection: id, tweets: ids)
                }
            }
        }.value
    }

    /// Prepares one hydration batch for `recordHydrations(_:collection:)`: its page's rows and compressed originals
    /// are built here, on the calling thread.
    public func prepareHydration(_ page: Page, hydrated: [TweetID], missing: [HydrationMiss]) -> PreparedHydration {
        PreparedHydration(batch: PreparedBatch([page], codec: codec), hydrated: hydrated, missing: missing)
    }

    /// Commits several hydration batches' answers in one transaction (see `recordHydration`): one commit and one
    /// index segment for all of them, instead of one per batch of 100.
    ///
    /// The write is queued behind the store's earlier work and is not stopped by cancelling the caller: answers X
    /// gave are kept, so a hydration stopped with Ctrl-C does not ask for them again.
    public func recordHydrations(_ answers: [PreparedHydration], collection: String) async throws {
        guard var batch = answers.first?.batch else { return }
        for answer in answers.dropFirst() { batch.append(answer.batch) }
        batch.order()
        let merged = batch
        let hydrated = answers.flatMap(\.hydrated)
        let missing = answers.flatMap(\.missing)
        try await database.enqueue { connection in
            try connection.execute(Self.hydrationTable)
            try connection.transaction {
                try Writer(connection: connection).write(merged)
                try Self.settle(connection, merged, collection: collection, hydrated: hydrated, missing: missing)
            }
        }.value
    }

    /// The collection rows and `hydrated_ids` of a batch written in the caller's transaction.
    static func settle(
        _ connection: Connection, _ batch: PreparedBatch, collection: String, hydrated: [TweetID],
        missing: [HydrationMiss]
    ) throws {
        // Made even when the batch held no tweet, so `collections` lists a hydration that found nothing.
        _ = try CollectionMembership.collectionID(connection, name: collection)
        try CollectionMembership.add(connection, batch, to: collection)
        if !hydrated.isEmpty {
            // One statement over a JSON array rather than one per id, as collection members are added.
            var list = "["
            list.reserveCapacity(hydrated.count * 21 + 2)
            for (position, tweet) in hydrated.enumerated() {
                if position > 0 { list += "," }
                list += String(Int64(bitPattern: tweet.rawValue))
            }
            list += "]"
            try connection.withStatement(
                "INSERT OR REPLACE INTO hydrated_ids(collection, id, reason, detail) "
                    + "SELECT ?1, value, NULL, NULL FROM json_each(?2)",
                [.text(collection), .text(list)]
            ) { try $0.run() }
        }
        guard !missing.isEmpty else { return }
        let settle = try connection.prepare(
            "INSERT OR REPLACE INTO hydrated_ids(collection, id, reason, detail) VALUES (?, ?, ?, ?)")
        for miss in missing {
            try settle.run([
                .text(collection), .integer(Int64(bitPattern: miss.id.rawValue)), .text(miss.reason),
                miss.detail.map { .text($0) } ?? .null,
            ])
        }
    }
}
