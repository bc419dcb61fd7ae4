import Foundation
import TweetKit
import TweetStore

/// Hydration bookkeeping on the server (`hydrated_ids`): an interrupted `hydrate` resumes without asking X again for
/// an id it has an answer for, as on the SQLite store. A batch's tweets, their collection membership and its answers
/// commit in one transaction, so after a crash an id is either settled with its tweet stored, or not settled.
extension PostgresStore {
    /// The ids of `collection` settled by earlier hydrations: a hydrated id while its tweet is still in the
    /// collection, a missing one while the collection exists (none for a collection never hydrated).
    public func hydrationLedger(collection: String) async throws -> HydrationLedger {
        try await withConnection { connection in
            var ledger = HydrationLedger()
            let rows = try connection.rows(
                """
                SELECT h.id, h.reason, h.detail FROM hydrated_ids h WHERE h.collection = $1
                  AND (h.reason IS NOT NULL
                       OR EXISTS (SELECT 1 FROM collection_tweets m WHERE m.collection = h.collection
                                  AND m.tweet_id = h.id))
                """, [.text(collection)], doing: "reading what was hydrated"
            ) { row in (TweetID(UInt64(bitPattern: row.int64(0))), row.optionalText(1), row.optionalText(2)) }
            for (id, reason, detail) in rows {
                if let reason {
                    ledger.missing[id] = HydrationMiss(id: id, reason: reason, detail: detail)
                } else {
                    ledger.hydrated.insert(id)
                }
            }
            return ledger
        }
    }

    /// Keeps the page and its answers as they are: the store builds its COPY rows when it writes them.
    public func prepareHydration(_ page: Page, hydrated: [TweetID], missing: [HydrationMiss]) -> PreparedHydration {
        .unprepared(page, hydrated: hydrated, missing: missing)
    }

    /// Stores a hydrated page in `collection` (made when missing) and settles its ids, in one transaction.
    public func recordHydration(
        _ page: Page, collection: String, hydrated: [TweetID], missing: [HydrationMiss]
    ) async throws {
        try await recordHydrations(
            [prepareHydration(page, hydrated: hydrated, missing: missing)], collection: collection)
    }

    /// Commits several batches' pages and answers in one transaction. An id answered twice keeps its last answer, a
    /// miss after a hit as the SQLite store's `INSERT OR REPLACE` order gives.
    public func recordHydrations(_ answers: [PreparedHydration], collection: String) async throws {
        guard !answers.isEmpty else { return }
        var order: [TweetID] = []
        var settled: [TweetID: HydrationMiss?] = [:]
        for answer in answers {
            for id in answer.hydrated {
                if settled.updateValue(nil, forKey: id) == nil { order.append(id) }
            }
        }
        for answer in answers {
            for miss in answer.missing {
                if settled.updateValue(miss, forKey: miss.id) == nil { order.append(miss.id) }
            }
        }
        let pages = answers.flatMap(\.pages)
        let codec = self.codec
        try await withConnection { connection in
            try connection.transaction {
                // Made even when the batch held no tweet, so `collections` lists a hydration that found nothing.
                try connection.execute(
                    "INSERT INTO collections(name, created_at) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                    [.text(collection), .text(String(Date().timeIntervalSince1970))], doing: "storing what was hydrated"
                )
                if !pages.isEmpty {
                    _ = try PostgresWriter(connection: connection, codec: codec).write(pages, collection: collection)
                }
                guard !order.isEmpty else { return }
                let reasons = order.map { settled[$0].flatMap { $0?.reason } }
                let details = order.map { settled[$0].flatMap { $0?.detail } }
                try connection.execute(
                    """
                    INSERT INTO hydrated_ids(collection, id, reason, detail)
                    SELECT $1, a.id, a.reason, a.detail
                    FROM unnest($2::bigint[], $3::text[], $4::text[]) AS a(id, reason, detail)
                    ON CONFLICT (collection, id) DO UPDATE SET reason = EXCLUDED.reason, detail = EXCLUDED.detail
                    """,
                    [
                        .text(collection), .text(PostgresReader.array(order)),
                        .text(Self.nullableTextArray(reasons)), .text(Self.nullableTextArray(details)),
                    ], doing: "storing what was hydrated")
            }
        }
    }

    /// A text array literal whose nil elements are SQL NULLs, sent as one text parameter.
    static func nullableTextArray(_ values: [String?]) -> String {
        let quoted = values.map { value -> String in
            guard let value else { return "NULL" }
            return "\""
                + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                + "\""
        }
        return "{" + quoted.joined(separator: ",") + "}"
    }
}
