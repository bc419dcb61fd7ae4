import Foundation
import TweetKit

/// An id a hydration asked X for and did not get back, with X's reason.
public struct HydrationMiss: Sendable, Hashable {
    /// The id.
    public var id: TweetID
    /// The reason's short name (`deleted`, `suspended`, `protected`, `not found`).
    public var reason: String
    /// X's words, when it gave any.
    public var detail: String?

    /// Creates a miss.
    public init(id: TweetID, reason: String, detail: String? = nil) {
        self.id = id
        self.reason = reason
        self.detail = detail
    }
}

/// What a collection's hydrations have settled: every id asked for and answered, hydrated or missing.
public struct HydrationLedger: Sendable {
    /// Ids X returned, now in the collection.
    public var hydrated: Set<TweetID>
    /// Ids X did not return, with the reason.
    public var missing: [TweetID: HydrationMiss]

    /// Creates a ledger.
    public init(hydrated: Set<TweetID> = [], missing: [TweetID: HydrationMiss] = [:]) {
        self.hydrated = hydrated
        self.missing = missing
    }

    /// Whether the id has an answer already, so asking again would only spend the rate limit.
    public func isSettled(_ id: TweetID) -> Bool { hydrated.contains(id) || missing[id] != nil }
}

/// Hydration bookkeeping: per collection, every id whose answer is committed, so an interrupted `hydrate` resumes
/// without asking X twice for an id it has an answer for.
///
/// The table is made on first use (`CREATE TABLE IF NOT EXISTS`) rather than by a schema migration, so the schema
/// version stays where it is; nothing else reads it. A batch's tweets, their collection membership and its answers
/// are committed in one transaction: after a crash an id is either settled with its tweet stored, or not settled.
extension TweetStore {
    static let hydrationTable = """
        CREATE TABLE IF NOT EXISTS hydrated_ids(
            collection TEXT NOT NULL,
            id INTEGER NOT NULL,
            reason TEXT,
            detail TEXT,
            PRIMARY KEY(collection, id)
        ) WITHOUT ROWID;
        """

    /// The ids of `collection` settled by earlier hydrations (none for a collection never hydrated).
    public func hydrationLedger(collection: String) async throws -> HydrationLedger {
        try await database.run { connection in
            let exists = try connection.scalar(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'hydrated_ids'")
            guard exists == 1 else { return HydrationLedger() }
            var ledger = HydrationLedger()
            // An answer counts while what it produced is still there: a hydrated id while its tweet is in the
            // collection, a missing one while the collection exists. After `drop NAME`, hydrating into NAME again
            // asks for everything again.
            try connection.withStatement(
                """
                SELECT h.id, h.reason, h.detail FROM hydrated_ids h JOIN collections c ON c.name = h.collection
                WHERE h.collection = ?
                  AND (h.reason IS NOT NULL
                       OR EXISTS (SELECT 1 FROM collection_members m WHERE m.collection = c.id AND m.tweet = h.id))
                """, [.text(collection)]
            ) { rows in
                while try rows.step() {
                    let id = TweetID(UInt64(bitPattern: rows.int64(0)))
                    if let reason = rows.optionalText(1) {
                        ledger.missing[id] = HydrationMiss(id: id, reason: reason, detail: rows.optionalText(2))
                    } else {
                        ledger.hydrated.insert(id)
                    }
                }
            }
            return ledger
        }
    }

    /// Commits one batch's answers: `page`'s tweets join `collection` (made when missing), and every id of
    /// `hydrated` and `missing` is marked settled, all in one transaction.
    public func recordHydration(
        _ page: Page, collection: String, hydrated: [TweetID], missing: [HydrationMiss]
    ) async throws {
        let batch = PreparedBatch([page], codec: codec)
        try await database.run { connection in
            try connection.execute(Self.hydrationTable)
            try connection.transaction {
                let writer = try Writer(connection: connection)
                try writer.write(batch)
                try Self.settle(connection, batch, collection: collection, hydrated: hydrated, missing: missing)
            }
        }
    }
}
