import Foundation
import Testing
import TweetKit

@testable import TweetStore

/// Schema version 8: a tweet that starts a conversation has no `c<own id>` index token, and `conversation_id:` finds
/// it by id. A store indexed the old way is indexed again, so the entries the writer removes are the ones it finds.
@Suite("Conversation roots")
struct ConversationRootsMigrationTests {
    /// How many `c` tokens the index holds, and how many of them name anything but the conversation column of the
    /// tweet they are indexed for (a root's own id, or a stale entry).
    static func conversationTokens(_ store: TweetStore) async throws -> (all: Int64, wrong: Int64) {
        try await store.database.run { connection in
            try connection.execute(
                "CREATE VIRTUAL TABLE IF NOT EXISTS temp.terms USING fts5vocab(main, 'tweets_fts', 'instance')")
            let all = try connection.scalar("SELECT count(*) FROM temp.terms WHERE col = 'refs' AND term LIKE 'c%'")
            let wrong = try connection.scalar(
                """
                SELECT count(*) FROM temp.terms v LEFT JOIN tweets t ON t.id = v.doc
                WHERE v.col = 'refs' AND v.term LIKE 'c%'
                    AND (t.conversation_id IS NULL OR v.term <> 'c' || t.conversation_id)
                """)
            return (all ?? -1, wrong ?? -1)
        }
    }

    /// A version 7 store, whose every tweet carries a `c` token (roots their own id), opens as version 8 with the
    /// roots' tokens gone, finds the same conversations, and updates and drops its tweets without stale entries.
    @Test func olderIndexIsMadeAgainWithoutRootTokens() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("v7.sqlite").path
        let results = Fixtures.page.tweets
        do {
            let old = try TweetStore(location: .file(path))
            try await old.insert([Fixtures.page], collection: "one")
            try await old.database.run { connection in
                try connection.execute("INSERT INTO tweets_fts(tweets_fts) VALUES ('delete-all')")
                for tweet in results {
                    let document = TweetDocument(tweet)
                    let root = (tweet.conversationID ?? tweet.id) == tweet.id ? " c\(tweet.id.rawValue)" : ""
                    try connection.withStatement(
                        "INSERT INTO tweets_fts(rowid, body, tags, cashtags, mentions, urls, refs) VALUES (?,?,?,?,?,?,?)",
                        [
                            .integer(Int64(tweet.id.rawValue)), .text(document.body), .text(document.tags),
                            .text(document.cashtags), .text(document.mentions), .text(document.urls),
                            .text(document.refs + root),
                        ]
                    ) { _ = try $0.step() }
                }
                try connection.execute("PRAGMA user_version = 7")
            }
            #expect(try await Self.conversationTokens(old) == (Int64(results.count), Int64(results.count - 1)))
        }
        let store = try TweetStore(location: .file(path))
        #expect(try await store.database.run { try $0.scalar("PRAGMA user_version") } == 8)
        #expect(results.filter { ($0.conversationID ?? $0.id) != $0.id }.map(\.id) == [200])
        #expect(try await Self.conversationTokens(store) == (1, 0))
        #expect(try await store.conversation(id: 100, cursor: nil, limit: 10).tweets.map(\.id) == [200, 100])
        #expect(try await store.conversation(id: 600, cursor: nil, limit: 10).tweets.map(\.id) == [600])

        // A new copy of the root and of the reply replaces their entries: the old words go, nothing stale stays.
        var root = try #require(results.first { $0.id == 100 })
        root.text = "kotlin now"
        var reply = try #require(results.first { $0.id == 200 })
        reply.text = "still rust"
        reply.conversationID = 300
        try await store.insert([Page(tweets: [root, reply], users: Fixtures.page.users)], collection: "one")
        #expect(try await store.search(SearchRequest(query: "swift concurrency"), cursor: nil).tweets.isEmpty)
        #expect(try await store.search(SearchRequest(query: "kotlin"), cursor: nil).tweets.map(\.id) == [100])
        #expect(try await store.conversation(id: 100, cursor: nil, limit: 10).tweets.map(\.id) == [100])
        #expect(try await store.conversation(id: 300, cursor: nil, limit: 10).tweets.map(\.id) == [300, 200])
        #expect(try await Self.conversationTokens(store) == (1, 0))
        _ = try await store.drop(collection: "one")
        #expect(try await Self.conversationTokens(store) == (0, 0))
        try await store.checkIntegrity()
    }
}
