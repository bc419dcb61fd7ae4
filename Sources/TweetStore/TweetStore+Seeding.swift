import TweetKit

extension TweetStore {
    /// Inserts the pages `make` returns when the store holds no tweet at all, and says whether it did.
    ///
    /// Emptiness is decided again under the write lock, so when several processes start on a new store at once
    /// exactly one seeds it, and `make` (which may be expensive: the demo corpus is generated) runs only in that one.
    /// The others wait for its commit and find the store full.
    ///
    /// With `collection`, the tweets join that collection; the demo collection is not seeded again into a store that
    /// dropped it (`drop demo`).
    public func seedIfEmpty(collection: String? = nil, _ make: @escaping @Sendable () -> [Page]) async throws -> Bool {
        guard try await isEmpty() else { return false }
        return try await database.run { connection in
            try connection.beginImmediate()
            do {
                let demoDropped =
                    try connection.scalar("SELECT EXISTS (SELECT 1 FROM store_settings WHERE key = 'demo_dropped')")
                    == 1
                let dropped = collection?.lowercased() == CollectionMembership.demo && demoDropped
                guard try connection.scalar("SELECT EXISTS (SELECT 1 FROM tweets LIMIT 1)") == 0, !dropped else {
                    try connection.execute("COMMIT")
                    return false
                }
                let batch = PreparedBatch(make(), codec: connection.codec)
                try Writer(connection: connection).write(batch)
                if let collection { try CollectionMembership.add(connection, batch, to: collection) }
                try connection.execute("COMMIT")
                return true
            } catch {
                try? connection.execute("ROLLBACK")
                connection.writtenUsers.removeAll()
                throw error
            }
        }
    }
}
