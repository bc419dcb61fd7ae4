import Foundation
import Testing
import TweetKit

@testable import TweetStore

/// Every import is a collection; the demo corpus is one that leaves searches once there is other data.
@Suite("Store collections")
struct StoreCollectionsTests {
    func file(_ folder: URL, _ name: String, ids: ClosedRange<Int>, word: String) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try Data(ids.map { Fixtures.line(id: $0, text: "\(word) shared \($0)") }.joined(separator: "\n").utf8).write(
            to: url)
        return url
    }

    func ids(_ store: TweetStore, _ query: String, in collection: String? = nil) async throws -> [Int] {
        var request = SearchRequest(query: query, pageSize: 1_000)
        request.collection = collection
        return try await store.search(request, cursor: nil).tweets.map { Int($0.id.rawValue) }.sorted()
    }

    @Test func aFirstImportLeavesTheDemoCorpusOutOfSearches() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try TweetStore(location: .file(folder.appendingPathComponent("t.sqlite").path))
        let demo = DemoCorpus(seed: 5, tweetCount: 200)
        try await store.insert(Array(demo), collection: TweetStore.demoCollection)
        let word = DemoCorpus.commonWords(language: "en")[0]
        let demoMatches = try await ids(store, word)
        #expect(!demoMatches.isEmpty, "alone, the demo corpus is searched")
        #expect(try await store.hidesDemoCorpus() == false)

        let mine = try file(folder, "mine.jsonl", ids: 1...30, word: word)
        _ = try await store.importJSONL(at: mine, decodeLine: Fixtures.decodeLine)
        #expect(try await store.hidesDemoCorpus())
        #expect(try await ids(store, word) == Array(1...30), "no demo tweet in a search after the first import")
        #expect(try await ids(store, "lang:en") == Array(1...30), "nor in a search without words")
        #expect(try await ids(store, word, in: "demo") == demoMatches, "asked for, the demo corpus is there")
        let list = try await store.collections()
        #expect(list.map(\.name) == ["demo", "mine"])
        #expect(list.map(\.tweets) == [200, 30] && list.map(\.hidden) == [true, false])

        let dropped = try await store.drop(collection: "demo")
        #expect(dropped.deleted == 200 && dropped.kept == 0 && dropped.referenced == 0)
        #expect(dropped.users > 0, "the demo corpus's generated users go with it")
        #expect(try await store.statistics().tweets == 30)
        #expect(try await store.collections().map(\.name) == ["mine"])
        try await store.checkIntegrity()
    }

    @Test func dropRemovesExactlyOneCollectionAndSharedTweetsKeepBothMemberships() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try TweetStore(location: .file(folder.appendingPathComponent("t.sqlite").path))
        _ = try await store.importJSONL(
            at: try file(folder, "a.jsonl", ids: 1...10, word: "apple"), decodeLine: Fixtures.decodeLine)
        _ = try await store.importJSONL(
            at: try file(folder, "b.jsonl", ids: 6...15, word: "apple"), decodeLine: Fixtures.decodeLine)
        _ = try await store.importJSONL(
            at: try file(folder, "c.jsonl", ids: 20...22, word: "cherry"), decodeLine: Fixtures.decodeLine)
        #expect(try await ids(store, "apple", in: "a") == Array(1...10))
        #expect(try await ids(store, "apple", in: "b") == Array(6...15))
        #expect(try await store.collections().map(\.tweets) == [10, 10, 3])

        var report = try await store.drop(collection: "a")
        let space = try #require(report.file, "a store in one file says how large it is and what is free in it")
        #expect(space.size > 0 && space.free >= 0 && space.free < space.size)
        report.file = nil
        #expect(report == DropReport(deleted: 5, kept: 5))
        #expect(try await ids(store, "apple") == Array(6...15))
        #expect(try await ids(store, "apple", in: "b") == Array(6...15))
        #expect(try await ids(store, "cherry", in: "c") == [20, 21, 22])
        #expect(try await store.collections().map(\.name) == ["b", "c"])
        #expect(try await store.statistics().tweets == 13)
        try await store.checkIntegrity()
        await #expect(throws: StoreError.self) { try await ids(store, "apple", in: "a") }
        await #expect(throws: StoreError.self) { try await store.drop(collection: "a") }
    }

    /// SQLite keeps a file's size after a delete and reuses its free pages; the report says how much is free, from
    /// the file's own page counts.
    @Test func aBigDropReportsTheFreePagesItLeaves() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("t.sqlite").path
        let store = try TweetStore(location: .file(path))
        let long = String(repeating: "lorem ipsum dolor ", count: 12)
        let url = folder.appendingPathComponent("big.jsonl")
        try Data((1...3_000).map { Fixtures.line(id: $0, text: "\(long) \($0)") }.joined(separator: "\n").utf8).write(
            to: url)
        _ = try await store.importJSONL(at: url, decodeLine: Fixtures.decodeLine)
        let before = try await store.database.run { try $0.scalar("PRAGMA freelist_count") ?? 0 }
        let space = try #require(try await store.drop(collection: "big").file)
        let pageSize = try await store.database.run { try $0.scalar("PRAGMA page_size") ?? 0 }
        let pages = try await store.database.run { try $0.scalar("PRAGMA page_count") ?? 0 }
        let free = try await store.database.run { try $0.scalar("PRAGMA freelist_count") ?? 0 }
        #expect(space == DropReport.FileSpace(size: pages * pageSize, free: free * pageSize))
        #expect(free > before + 50, "the dropped rows' pages are free: \(before) → \(free)")
        try await store.checkIntegrity()
    }

    @Test func aDroppedDemoCorpusIsNotGivenAgain() async throws {
        let store = try TweetStore(location: .inMemory)
        #expect(try await store.wantsDemoCorpus())
        try await store.insert(Array(DemoCorpus(seed: 5, tweetCount: 50)), collection: TweetStore.demoCollection)
        #expect(try await store.wantsDemoCorpus() == false)
        #expect(try await store.drop(collection: "demo").deleted == 50)
        #expect(try await store.isEmpty())
        #expect(try await store.wantsDemoCorpus() == false, "emptied by drop demo, the store stays without it")
        #expect(
            try await store.seedIfEmpty(collection: TweetStore.demoCollection) {
                Array(DemoCorpus(seed: 5, tweetCount: 5))
            }
                == false)
        try await store.checkIntegrity()
    }

    /// A store from before collections (version 4) with the first-run demo corpus and an earlier import: opening it files
    /// the demo corpus in `demo`, and the earlier tweets, in no collection, keep the demo out of searches.
    @Test func migrationFilesTheDemoCorpusOfAnExistingStore() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("t.sqlite").path
        do {
            let store = try TweetStore(location: .file(path))
            try await store.insert(Array(DemoCorpus.firstRun))
            try await store.insert([Page(tweets: [Tweet(id: 42, text: "older import about coffee", authorID: 1)])])
            try await store.database.run { connection in
                // Back to the schema before the collections step (version 4), and so before the steps that follow it.
                try connection.execute(
                    """
                    DROP TABLE collections; DROP TABLE collection_members; DROP TABLE store_settings;
                    DROP TABLE originals; DROP TABLE twarc_blocks; DROP TABLE zstd_dictionaries; DROP TABLE store_facts;
                    DROP TRIGGER tweet_keys_follow_deletes; DROP TABLE tweet_keys;
                    ALTER TABLE tweets DROP COLUMN original; ALTER TABLE tweets DROP COLUMN twarc;
                    PRAGMA user_version = 4;
                    """)
            }
        }
        let reopened = try TweetStore(location: .file(path))
        let list = try await reopened.collections()
        #expect(list.map(\.name) == ["demo", "(unfiled)"])
        #expect(list.map(\.tweets) == [DemoCorpus.firstRun.tweetCount, 1])
        #expect(list.map(\.hidden) == [true, false])
        #expect(try await ids(reopened, "coffee") == [42])
        try await reopened.checkIntegrity()
    }

    @Test func importsAreNamedAfterTheirFiles() {
        #expect(ImportInput.file(URL(fileURLWithPath: "/x/tweets.jsonl.gz")).collectionName == "tweets")
        #expect(ImportInput.file(URL(fileURLWithPath: "/x/page.json")).collectionName == "page")
        #expect(ImportInput.file(URL(fileURLWithPath: "/x/archive-2024")).collectionName == "archive-2024")
        #expect(ImportInput.standardInput.collectionName == "stdin")
    }

    @Test func apiPagesBelongToTheAPICollection() async throws {
        let store = try TweetStore(location: .inMemory)
        try await store.storePage(Fixtures.page, key: "k", cursor: nil, fetchedAt: Date())
        let list = try await store.collections()
        #expect(list.map(\.name) == ["api"] && list.first?.tweets == Fixtures.page.tweets.count)
    }
}

@Suite("Collection names")
struct CollectionNameTests {
    @Test func tweetshsOwnNamesAndUnprintableOnesAreRefused() {
        for name in [
            "demo", "DEMO", "api", "All", "", "  ", "a\u{1B}[31mb", "a\u{202E}b", "x\ny",
            String(repeating: "n", count: 201),
        ] {
            #expect(CollectionName.problem(with: name) != nil, "\(name.debugDescription)")
        }
        for name in [
            "demo2", "my demo", "api-search", "élection 2024", "東京", "a/b", String(repeating: "n", count: 200),
        ] {
            #expect(CollectionName.problem(with: name) == nil, "\(name.debugDescription)")
        }
        #expect(CollectionName.problem(with: "demo", fromFile: true)?.contains("comes from the file's name") == true)
        #expect(CollectionName.problem(with: "api", flag: "--into")?.hasSuffix("with --into NAME") == true)
    }
}
