import Foundation
import Synchronization
import Testing
import TweetKit

@testable import TweetStore

@Suite("Store file, cache, history and cancellation")
struct StoreFileTests {
    @Test func defaultPathFollowsXDG() {
        #expect(
            StoreLocation.defaultPath(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/u"])
                == "/data/tweetsh/tweets.sqlite")
        #expect(
            StoreLocation.defaultPath(environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/u"])
                == "/home/u/.local/share/tweetsh/tweets.sqlite")
        #expect(
            StoreLocation.defaultPath(environment: ["HOME": "/home/u"]) == "/home/u/.local/share/tweetsh/tweets.sqlite")
    }

    @Test func tildeMeansHome() {
        #expect(StoreLocation.file("~/x/t.sqlite").sqlitePath == NSHomeDirectory() + "/x/t.sqlite")
        #expect(StoreLocation.inMemory.sqlitePath == ":memory:")
    }

    @Test func fileStoreIsWALVersionedAndPersists() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("nested/dir/tweets.sqlite").path
        do {
            let store = try TweetStore(location: .file(path))
            try await store.insert([Fixtures.page])
            let mode = try await store.database.run { try $0.rows("PRAGMA journal_mode") { $0.text(0) } }
            #expect(mode == ["wal"])
            #expect(
                try await store.database.run { try $0.scalar("PRAGMA user_version") } == Int64(Schema.currentVersion))
        }
        let attributes = try FileManager.default.attributesOfItem(
            atPath: folder.appendingPathComponent("nested/dir").path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        let reopened = try TweetStore(location: .file(path))
        #expect(try await reopened.search(SearchRequest(query: "#SwiftLang"), cursor: nil).tweets.map(\.id) == [100])
    }

    /// A new file is made with the import settings (8 KB pages, FTS5 `hashsize` and `automerge`); a file made before,
    /// with SQLite's defaults, keeps its own when it is upgraded, and takes writes and searches as before.
    @Test func newStoresGetImportSettingsAndOlderOnesKeepTheirs() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        func settings(_ store: TweetStore) async throws -> (pageSize: Int64?, index: [String]) {
            try await store.database.run { connection in
                let index = try connection.rows(
                    "SELECT k, v FROM tweets_fts_config WHERE k IN ('automerge', 'hashsize') ORDER BY k"
                ) { "\($0.text(0))=\($0.int(1))" }
                return (try connection.scalar("PRAGMA page_size"), index)
            }
        }
        let fresh = try TweetStore(location: .file(folder.appendingPathComponent("new.sqlite").path))
        try await fresh.insert([Fixtures.page])
        let made = try await settings(fresh)
        #expect(made.pageSize == Int64(Schema.newStorePageSize))
        #expect(made.index == ["automerge=16", "hashsize=16777216"])
        #expect(try await fresh.search(SearchRequest(query: "#SwiftLang"), cursor: nil).tweets.map(\.id) == [100])

        let oldPath = folder.appendingPathComponent("old.sqlite").path
        do {
            let connection = try Connection(path: oldPath)
            try connection.execute(Schema.migrations[0].sql + "; PRAGMA user_version = 1;")
            connection.close()
        }
        let upgraded = try TweetStore(location: .file(oldPath))
        try await upgraded.insert([Fixtures.page])
        let kept = try await settings(upgraded)
        #expect(kept.pageSize == 4_096)
        #expect(kept.index.isEmpty)
        #expect(try await upgraded.search(SearchRequest(query: "#SwiftLang"), cursor: nil).tweets.map(\.id) == [100])
    }

    /// A store written by the first schema (B-tree indexes for from:, to: and conversation_id:) opens with its index
    /// rebuilt: every operator still finds what it did, and the index agrees with the rows.
    @Test func versionOneStoreIsMigrated() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("v1.sqlite").path
        do {
            let connection = try Connection(path: path)
            try connection.execute(Schema.migrations[0].sql + "; PRAGMA user_version = 1;")
            try connection.execute(
                """
                INSERT INTO users(id, username, name) VALUES (1, 'alice', 'Alice'), (2, 'bob', 'Bob');
                INSERT INTO tweets(id, author_id, conversation_id, reply_to_user, flags, text) VALUES
                    (100, 1, NULL, NULL, 256, 'hello swift'),
                    (200, 2, 100, 1, 2, '@alice swift is nice'),
                    (300, 2, NULL, NULL, 128, 'included only');
                INSERT INTO tweets_fts(rowid, body, tags, cashtags, mentions, urls) VALUES
                    (100, 'hello swift', '', '', '', ''), (200, '@alice swift is nice', '', '', 'alice', '');
                """)
            connection.close()
        }
        let announced = Mutex<[Int]>([])
        let store = try TweetStore(location: .file(path)) { tweets in announced.withLock { $0.append(tweets) } }
        #expect(announced.withLock { $0 } == [2], "the two results are indexed again; the included tweet is not")
        #expect(try await store.database.run { try $0.scalar("PRAGMA user_version") } == Int64(Schema.currentVersion))
        _ = try TweetStore(location: .file(path)) { _ in Issue.record("a current file needs no upgrade") }
        _ = try TweetStore(location: .inMemory) { _ in Issue.record("a new store needs no upgrade") }
        let indexes = try await store.database.run {
            try $0.scalar("SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name LIKE 'tweets_%'")
        }
        #expect(indexes == 0)
        func ids(_ query: String) async throws -> [UInt64] {
            try await store.search(SearchRequest(query: query), cursor: nil).tweets.map(\.id.rawValue)
        }
        #expect(try await ids("swift") == [200, 100])
        #expect(try await ids("from:alice") == [100])
        #expect(try await ids("from:bob") == [200])
        #expect(try await ids("to:alice") == [200])
        #expect(try await ids("conversation_id:100") == [200, 100])
        #expect(try await ids("swift -from:bob") == [100])
        #expect(try await ids("included") == [])
        try await store.checkIntegrity()
    }

    @Test func newerSchemaIsRefused() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("t.sqlite").path
        do {
            let store = try TweetStore(location: .file(path))
            try await store.database.run { try $0.execute("PRAGMA user_version = 99") }
        }
        #expect(throws: StoreError.self) { try TweetStore(location: .file(path)) }
    }

    @Test func cachedPagesComeBackWithFetchTimeAndAreSearchable() async throws {
        let store = try TweetStore(location: .inMemory)
        var page = Fixtures.page
        page.nextToken = "abc"
        page.newestID = 600
        page.oldestID = 100
        page.resultCount = 6
        page.errors = [PartialError(value: "7", detail: "gone", title: "Not Found Error", section: "includes")]
        let fetched = Date(timeIntervalSince1970: 1_700_000_000)
        try await store.storePage(page, key: "recent:swift", cursor: nil, fetchedAt: fetched)
        let cached = try #require(try await store.cachedPage(key: "recent:swift", cursor: nil))
        #expect(cached.fetchedAt == fetched)
        #expect(cached.page == page)
        #expect(try await store.cachedPage(key: "recent:swift", cursor: "abc") == nil)
        #expect(try await store.search(SearchRequest(query: "rust"), cursor: nil).tweets.map(\.id) == [200])
        try await store.removeCachedPages(fetchedBefore: fetched.addingTimeInterval(1))
        #expect(try await store.cachedPage(key: "recent:swift", cursor: nil) == nil)
    }

    @Test func historySurvivesRestartAndKeepsTheNewestID() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("t.sqlite").path
        do {
            let store = try TweetStore(location: .file(path))
            try await store.recordSearch(
                SearchHistoryEntry(
                    query: "swift", source: "x", lastRun: Date(timeIntervalSince1970: 10), newestID: 500,
                    nextCursor: "n1"))
            try await store.recordSearch(
                SearchHistoryEntry(query: "rust", source: "local", lastRun: Date(timeIntervalSince1970: 20)))
            try await store.recordSearch(
                SearchHistoryEntry(
                    query: "swift", source: "x", lastRun: Date(timeIntervalSince1970: 30), newestID: 400,
                    nextCursor: "n2"))
        }
        let store = try TweetStore(location: .file(path))
        let history = try await store.searchHistory()
        #expect(history.map(\.query) == ["swift", "rust"])
        #expect(history[0].newestID == 500)
        #expect(history[0].nextCursor == "n2")
        #expect(history[0].lastRun == Date(timeIntervalSince1970: 30))
        #expect(try await store.lastSearch(query: "rust", source: "local")?.newestID == nil)
        #expect(try await store.lastSearch(query: "rust", source: "x") == nil)
    }

    @Test func cancellingATaskInterruptsItsQueryOnly() async throws {
        let store = try TweetStore(location: .inMemory)
        let slow = Task {
            try await store.database.run { connection in
                try connection.scalar(
                    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n")
            }
        }
        try await Task.sleep(for: .milliseconds(50))
        slow.cancel()
        await #expect(throws: CancellationError.self) { try await slow.value }
        // The connection is fine afterwards, and other work was not affected.
        try await store.insert([Fixtures.page])
        #expect(try await store.search(SearchRequest(query: "swift"), cursor: nil).tweets.count == 2)
    }

    @Test func concurrentUseFromManyTasks() async throws {
        let store = try await Fixtures.store()
        try await withThrowingTaskGroup(of: Int.self) { group in
            for n in 0..<40 {
                group.addTask {
                    if n % 4 == 0 {
                        try await store.insert([
                            Page(tweets: [Tweet(id: TweetID(UInt64(10_000 + n)), text: "swift task \(n)")])
                        ])
                        return 0
                    }
                    return try await store.search(SearchRequest(query: "swift"), cursor: nil).tweets.count
                }
            }
            for try await count in group { #expect(count == 0 || count >= 2) }
        }
        #expect(try await store.search(SearchRequest(query: "task", pageSize: 100), cursor: nil).tweets.count == 10)
    }
}
