import Foundation
import Testing
import TweetKit

@testable import TweetStore

/// `tweet_keys`, from which `top` and `stats` rank hashtags, mentions and domains: filled for a store from before it,
/// kept in step by the writer and by deletes, and counted (`KeyTally`) as `TopCounter` counts.
@Suite("Explore keys")
struct ExploreKeysTests {
    /// The `tweet_keys` rows, decoded: tweet id → [hashtags, mentions, domains].
    static func rows(_ store: TweetStore) async throws -> [Int64: [[String]]] {
        try await store.database.run { connection in
            let rows = try connection.rows("SELECT tweet, hashtags, mentions, domains FROM tweet_keys") { row in
                (row.int64(0), try (1...3).map { try ExploreKeys.decode(row.blob(Int32($0))) })
            }
            return Dictionary(uniqueKeysWithValues: rows)
        }
    }

    static func tweet(_ id: UInt64, tags: [String] = [], mentions: [String] = [], urls: [String] = []) -> Tweet {
        var tweet = Tweet(id: TweetID(id), text: "t \(id)", authorID: 1)
        tweet.entities.hashtags = tags.map { Hashtag(start: 0, end: 1, tag: $0) }
        tweet.entities.mentions = mentions.map { Mention(start: 0, end: 1, username: $0) }
        tweet.entities.urls = urls.map { URLEntity(start: 0, end: 1, url: "https://t.co/x", expandedURL: $0) }
        return tweet
    }

    /// A store from before the step (version 6) gains the table, filled from its rows, and ranks as a new store does.
    @Test func olderStoreIsFilledFromItsRows() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("v6.sqlite").path
        let page = ExploreCorpus.page(count: 600, seed: 21)
        do {
            let old = try TweetStore(location: .file(path))
            try await old.insert([page])
            try await old.database.run { connection in
                try connection.execute(
                    """
                    DROP TRIGGER tweet_keys_follow_deletes; DROP TABLE tweet_keys;
                    PRAGMA user_version = 6;
                    """)
            }
        }
        let store = try TweetStore(location: .file(path))
        let fresh = try TweetStore(location: .inMemory)
        try await fresh.insert([page])
        #expect(try await Self.rows(store) == Self.rows(fresh))
        #expect(try await Self.rows(store).count == page.tweets.filter { !ExploreKeys($0).isEmpty }.count)
        for kind in [TopKind.hashtags, .mentions, .domains] {
            for text in ["coffee", "rain lang:en"] {
                let query = try SearchQuery(parsing: text)
                let request = SearchRequest(query: text)
                #expect(
                    try await store.topList(kind, query: query, request: request, limit: 50)
                        == fresh.topList(kind, query: query, request: request, limit: 50))
            }
        }
        let overview = try await store.overview(collection: nil)
        #expect(try await overview == fresh.overview(collection: nil))
        // Independently of the table: what `TopCounter` makes of the tweets themselves.
        var tags = TopCounter(kind: .hashtags)
        var domains = TopCounter(kind: .domains)
        for tweet in page.tweets {
            tags.add(tweet, author: nil)
            domains.add(tweet, author: nil)
        }
        #expect(overview.topHashtags == tags.ranked(limit: 5) && !overview.topHashtags.isEmpty)
        #expect(overview.topDomains == domains.ranked(limit: 5) && !overview.topDomains.isEmpty)
    }

    /// A copy stored again replaces the keys, a copy without keys removes them, an included tweet has none until a
    /// result copy promotes it, and deleting a collection's tweets deletes their keys.
    @Test func writerAndDeletesKeepTheTableInStep() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try TweetStore(location: .file(folder.appendingPathComponent("t.sqlite").path))
        let users = [User(id: 1, username: "alice", name: "Alice")]
        try await store.insert([
            Page(
                tweets: [
                    Self.tweet(10, tags: ["Swift", "swift", "Data"], mentions: ["Bob"]),
                    Self.tweet(11, urls: ["https://www.Example.com/a", "https://example.com/b", "not a url"]),
                    Self.tweet(12),
                ], users: users, includedTweets: [Self.tweet(13, tags: ["included"])])
        ])
        #expect(
            try await Self.rows(store) == [
                10: [["swift", "data"], ["bob"], []],
                11: [[], [], ["example.com"]],
            ])
        try await store.insert([
            Page(
                tweets: [Self.tweet(10, tags: ["Rain"]), Self.tweet(11), Self.tweet(13, mentions: ["carol"])],
                users: users)
        ])
        #expect(try await Self.rows(store) == [10: [["rain"], [], []], 13: [[], ["carol"], []]])

        try await store.insert([Page(tweets: [Self.tweet(20, tags: ["more"])], users: users)], collection: "more")
        #expect(try await Self.rows(store)[20] == [["more"], [], []])
        _ = try await store.drop(collection: "more")
        #expect(try await Self.rows(store)[20] == nil)
        try await store.checkIntegrity()
    }

    /// `KeyTally` ranks what `TopCounter` ranks from the same keys, including spellings that are one Swift string.
    @Test func tallyRanksAsTopCounterDoes() {
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        let kelvin = "\u{212A}m"
        var random = SplitMix64(seed: 5)
        let pool = [
            "swift", "data", composed, decomposed, "Km", kelvin, "na\u{EF}ve", "", "z", "a", "b", "\u{65E5}\u{672C}",
        ]
        var keys: [String] = []
        for _ in 0..<2_000 { keys.append(random.pick(pool)) }
        var counter = TopCounter(kind: .hashtags)
        var tally = KeyTally()
        for key in keys {
            counter.add(key: key, count: 1)
            var bytes = key
            bytes.withUTF8 { tally.add(UnsafeRawBufferPointer($0)) }
        }
        for limit in [1, 3, 5, 100] { #expect(tally.ranked(limit: limit) == counter.ranked(limit: limit), "\(limit)") }
        var list = ByteWriter()
        for key in ["x", "y", "x"] { list.string(key) }
        var fromList = KeyTally()
        list.bytes.withUnsafeBytes { fromList.add(encodedList: $0) }
        #expect(fromList.ranked(limit: 5) == [TopRow(key: "x", count: 2), TopRow(key: "y", count: 1)])
        #expect(KeyTally().ranked(limit: 5).isEmpty)
    }
}
