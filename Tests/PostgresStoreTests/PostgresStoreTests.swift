import Foundation
import PostgresTesting
import Testing
import TweetKit
import TweetStore

@testable import PostgresStore

@Suite("The PostgreSQL store", .enabled(if: PostgresFixtures.available, "PostgreSQL is not available"))
struct PostgresStoreTests {
    /// A JSON Lines file of generated tweets, one page of 50 per line, and its tweet count.
    static func corpusFile(tweets: Int, seed: UInt64 = 5) throws -> (URL, Int) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tweetsh-pg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("corpus.jsonl")
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        let corpus = DemoCorpus(seed: seed, tweetCount: tweets, pageSize: 50)
        return (url, try corpus.writeTwarc2JSONL(to: handle))
    }

    @Test func pagingReturnsEveryMatchOnceNewestFirst() async throws {
        let (store, _) = try PostgresFixtures.store()
        try await store.insert(Array(DemoCorpus(seed: 3, tweetCount: 600, pageSize: 100)))
        let request = SearchRequest(query: "lang:en", pageSize: 7)
        let ids = try await PostgresFixtures.allIDs(store, request)
        #expect(!ids.isEmpty)
        #expect(ids == ids.sorted(by: >))
        #expect(Set(ids).count == ids.count)
        let first = try await store.search(request, cursor: nil)
        // A query with a condition beyond text counts ten pages' worth at most, as in the SQLite store.
        #expect(ids.count > 70)
        #expect(first.resultCount == nil)
        let wide = try await store.search(SearchRequest(query: "lang:en", pageSize: 100), cursor: nil)
        #expect(wide.resultCount == ids.count)
        await #expect(throws: PostgresError.self) { try await store.search(request, cursor: "b1.2") }
    }

    @Test func writingTheSamePagesTwiceChangesNothing() async throws {
        let (store, _) = try PostgresFixtures.store()
        let pages = Array(DemoCorpus(seed: 4, tweetCount: 300, pageSize: 100))
        let added = try await store.write(pages)
        let again = try await store.write(pages)
        #expect(added == 300)
        #expect(again == 0)
        #expect(try store.counts().tweets == 300)
    }

    /// A conversation's first tweet has no `~c<its id>` lexeme and is found by id; inside tweets have the lexeme.
    /// Documents written with the root's lexeme, as before, are found the same way, once.
    @Test func conversationRootsAreFoundByIDWithOrWithoutTheirLexeme() async throws {
        let (store, url) = try PostgresFixtures.store()
        defer { store.close() }
        let pages = Array(DemoCorpus(seed: 8, tweetCount: 400, pageSize: 100))
        try await store.insert(pages)
        let tweets = pages.flatMap(\.tweets)
        let conversations = Dictionary(grouping: tweets, by: { $0.conversationID ?? $0.id })
        let (root, thread) = try #require(
            conversations.filter { entry in entry.value.contains { $0.id == entry.key } }
                .max { $0.value.count < $1.value.count })
        #expect(thread.count > 1)
        let expected = thread.map(\.id.rawValue).sorted(by: >)
        let admin = try PGConnection(conninfo: url)
        let lexeme = "~c\(root.rawValue)"
        let carrying = "SELECT count(*) FROM tweets WHERE doc @@ quote_literal($1)::tsquery"
        #expect(try admin.scalar(carrying, [.text(lexeme)]) == Int64(thread.count - 1))
        let request = SearchRequest(query: "conversation_id:\(root)", pageSize: 100)
        #expect(try await PostgresFixtures.allIDs(store, request) == expected)
        try admin.execute(
            "UPDATE tweets SET doc = doc || quote_literal($1)::tsvector WHERE id = $2",
            [.text(lexeme), .integer(Int64(bitPattern: root.rawValue))])
        #expect(try admin.scalar(carrying, [.text(lexeme)]) == Int64(thread.count))
        #expect(try await PostgresFixtures.allIDs(store, request) == expected)
    }

    @Test func lookupAndPageCacheGiveTheStoredModelsBack() async throws {
        let (store, _) = try PostgresFixtures.store()
        let pages = Array(DemoCorpus(seed: 6, tweetCount: 100, pageSize: 100))
        var page = pages[0]
        page.nextToken = "next-1"
        try await store.storePage(page, key: "search:cats", cursor: nil, fetchedAt: Date(timeIntervalSince1970: 1_000))
        let cached = try #require(try await store.cachedPage(key: "search:cats", cursor: nil))
        #expect(cached.fetchedAt == Date(timeIntervalSince1970: 1_000))
        #expect(cached.page.tweets == page.tweets)
        #expect(cached.page.nextToken == "next-1")
        #expect(try await store.cachedPage(key: "search:cats", cursor: "other") == nil)
        let some = page.tweets.prefix(3).map(\.id)
        let looked = try await store.lookup(ids: some + [TweetID(42)])
        #expect(looked.tweets.map(\.id) == some)
        #expect(looked.errors.count == 1)
        // The API's pages form the `api` collection, searchable as one.
        var scoped = SearchRequest(query: "-zzzz", pageSize: 200)
        scoped.collection = TweetStore.apiCollection
        #expect(try await PostgresFixtures.allIDs(store, scoped).count == page.tweets.count)
    }

    @Test func anImportCutOffMidBatchResumesToExactCounts() async throws {
        let (file, tweets) = try Self.corpusFile(tweets: 3_000)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let (store, url) = try PostgresFixtures.store()
        let pid = try store.serverProcessID()
        let seen = Counter()
        // 60 lines in batches of 10: the importer's server process is ended in the middle of the third batch, as a kill -9 of the importing
        // shell would leave it: the batch's transaction never commits.
        let decode: @Sendable (Data) throws -> Page? = { line in
            if seen.increment() == 25 {
                let admin = try PGConnection(conninfo: url)
                // Lines are decoded ahead of the writer: let the first two batches commit before the cut.
                let deadline = Date().addingTimeInterval(30)
                while try admin.scalar("SELECT count(*) FROM tweets") ?? 0 < 1_000, Date() < deadline {
                    usleep(20_000)
                }
                try admin.execute("SELECT pg_terminate_backend($1)", [.integer(Int64(pid))])
            }
            return try CollectionLineDecoder.decode(line: line, keepOriginals: true)
        }
        await #expect(throws: PostgresError.self) {
            _ = try await store.importJSONL(at: file, batchLines: 10, decodeLine: decode)
        }
        #expect(try store.counts().tweets == 1_000)
        let resumed = try await store.importJSONL(at: file, batchLines: 10)
        #expect(resumed.resumedAfterLine == 20)
        #expect(resumed.lines == 60)
        #expect(resumed.tweets == tweets)
        #expect(resumed.errors == 0)
        #expect(try store.counts().tweets == 3_000)
        // A finished file is read again from the start, adding nothing.
        let again = try await store.importJSONL(at: file)
        #expect(again.resumedAfterLine == 0)
        #expect(again.newTweets == 0)
        #expect(again.tweetsThisRun == tweets)
        #expect(try store.counts().tweets == 3_000)
    }

    @Test func fourMigratorsAtOnceExactlyOneMigrates() async throws {
        let url = try PostgresTestServer.makeDatabase()
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<4 {
                group.addTask { try PostgresSchema.migrate(try PGConnection(conninfo: url)) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.filter { $0 }.count == 1)
        let check = try PGConnection(conninfo: url)
        #expect(try PostgresSchema.version(check) == PostgresSchema.currentVersion)
    }

    @Test func eightSearchersWhileOneImports() async throws {
        let (writer, url) = try PostgresFixtures.store()
        let pages = Array(DemoCorpus(seed: 8, tweetCount: 2_000, pageSize: 100))
        let searchers = try (0..<8).map { _ in try PostgresStore(address: url, migrate: false) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for page in pages { try await writer.insert([page]) }
            }
            for searcher in searchers {
                group.addTask {
                    for query in ["the", "lang:ja", "#data OR music", "-the has:links"] {
                        _ = try await searcher.search(SearchRequest(query: query, pageSize: 20), cursor: nil)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try writer.counts().tweets == 2_000)
        let all = try await PostgresFixtures.allIDs(searchers[0], SearchRequest(query: "-zzzz", pageSize: 500))
        #expect(all.count == 2_000)
    }
}

/// A thread-safe counter for closures the import calls.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}

@Suite("PostgreSQL collections", .enabled(if: PostgresFixtures.available, "PostgreSQL is not available"))
struct PostgresCollectionTests {
    @Test func collectionsScopeSearchesAndDropKeepsSharedTweets() async throws {
        let (store, _) = try PostgresFixtures.store()
        let pages = Array(DemoCorpus(seed: 13, tweetCount: 200, pageSize: 100))
        try await store.insert([pages[0]], collection: "first")
        try await store.insert(pages, collection: "second")
        let listed = try await store.collections()
        #expect(listed.map(\.name) == ["first", "second"])
        #expect(listed.map(\.tweets) == [100, 200])
        var request = SearchRequest(query: "-zzzz", pageSize: 500)
        request.collection = "first"
        #expect(try await PostgresFixtures.allIDs(store, request).count == 100)
        let dropped = try await store.drop(collection: "second")
        #expect(dropped.deleted == 100)
        #expect(dropped.kept == 100)
        #expect(try store.counts().tweets == 100)
        await #expect(throws: PostgresError.self) { try await store.drop(collection: "second") }
    }
}
