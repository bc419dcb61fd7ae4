extension TweetStore {
    /// True when the store holds no tweet at all: the shell's first-run check, which must stay cheap on a large store
    /// (it reads one row instead of counting).
    public func isEmpty() async throws -> Bool {
        try await database.run { connection in
            try connection.scalar("SELECT EXISTS (SELECT 1 FROM tweets LIMIT 1)") == 0
        }
    }
}
