import Foundation
import PostgresStore
import PostgresTesting
import TerminalTesting
import Testing
import TweetKit
import TweetStore

/// The kinds of store the shell can hold, for tests that run the same checks on each through `CollectionStore`.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgresql

    var testDescription: String { rawValue }

    /// A new empty store of this kind: an SQLite file in `folder`, or a fresh database of the test server.
    func make(in folder: TemporaryDirectory) throws -> any CollectionStore {
        switch self {
        case .sqlite: return try TweetStore(location: .file(folder.file("tweets.sqlite")))
        case .postgresql:
            return try PostgresStore(
                address: try PostgresTestServer.makeDatabase(), history: .file(folder.file("history.sqlite")))
        }
    }
}

/// The store suite over both stores, through the protocol the shell holds: operators, paging, collections, imports,
/// originals, counts, search history and the page cache. Expected results come from the corpus's models, not from
/// the other store.
@Suite("Both stores", .enabled(if: PostgresFixtures.available, "PostgreSQL is not available"))
struct BothStoresTests {
    static let pages = Array(DemoCorpus(seed: 21, tweetCount: 400, pageSize: 100))
    static var tweets: [Tweet] { pages.flatMap(\.tweets) }

    /// Every id of a search, page by page, through the protocol.
    static func allIDs(_ store: any CollectionStore, _ request: SearchRequest) async throws -> [TweetID] {
        var ids: [TweetID] = []
        var cursor: String?
        repeat {
            let page = try await store.search(SearchQuery(parsing: request.query), request: request, cursor: cursor)
            ids += page.tweets.map(\.id)
            cursor = page.nextToken
        } while cursor != nil && ids.count < 10_000
        return ids
    }

    static func newestFirst(_ tweets: [Tweet]) -> [TweetID] { tweets.map(\.id).sorted(by: >) }

    @Test(arguments: StoreKind.allCases)
    func operatorsMatchWhatTheModelsSay(kind: StoreKind) async throws {
        let folder = TemporaryDirectory(prefix: "tweetsh-both")
        let store = try kind.make(in: folder)
        defer { store.close() }
        try await store.insert(Self.pages, collection: "one")
        let users = Dictionary(
            Self.pages.flatMap(\.users).map { ($0.id, $0.username) }, uniquingKeysWith: { a, _ in a })
        let languages = Dictionary(grouping: Self.tweets.compactMap(\.lang), by: { $0 })
        let language = try #require(languages.max { $0.value.count < $1.value.count }?.key)
        let authors = Dictionary(grouping: Self.tweets, by: { $0.authorID.flatMap { users[$0] } ?? "" })
        let author = try #require(authors.filter { !$0.key.isEmpty }.max { $0.value.count < $1.value.count }?.key)
        // The largest conversation, and one of its replies: a root is found by its id, a reply roots nothing.
        let conversations = Dictionary(grouping: Self.tweets, by: { $0.conversationID ?? $0.id })
        let (root, thread) = try #require(
            conversations.filter { entry in entry.value.contains { $0.id == entry.key } }
                .max { $0.value.count < $1.value.count })
        let reply = try #require(thread.first { $0.id != root })
        func inConversation(_ id: TweetID) -> (Tweet) -> Bool { { ($0.conversationID ?? $0.id) == id } }
        let cases: [(String, [Tweet])] = [
            ("conversation_id:\(root)", thread),
            ("conversation_id:\(reply.id)", Self.tweets.filter(inConversation(reply.id))),
            (
                "-conversation_id:\(root) lang:\(language)",
                Self.tweets.filter { !inConversation(root)($0) && $0.lang == language }
            ),
            (
                "conversation_id:\(root) OR lang:\(language)",
                Self.tweets.filter { inConversation(root)($0) || $0.lang == language }
            ),
            ("lang:\(language)", Self.tweets.filter { $0.lang == language }),
            ("-lang:\(language)", Self.tweets.filter { $0.lang != language }),
            ("from:\(author)", authors[author] ?? []),
            ("from:\(author.uppercased()) lang:\(language)", (authors[author] ?? []).filter { $0.lang == language }),
            (
                "from:\(author) OR lang:\(language)",
                Self.tweets.filter { users[$0.authorID ?? 0] == author || $0.lang == language }
            ),
        ]
        for (query, expected) in cases {
            let ids = try await Self.allIDs(store, SearchRequest(query: query, pageSize: 100))
            #expect(ids == Self.newestFirst(expected), "\(kind): \(query)")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func pagesFollowEachOtherWithoutGapsOrRepeats(kind: StoreKind) async throws {
        let folder = TemporaryDirectory(prefix: "tweetsh-both")
        let store = try kind.make(in: folder)
        defer { store.close() }
        try await store.insert(Self.pages, collection: "one")
        let language = try #require(Self.tweets.first?.lang)
        let request = SearchRequest(query: "lang:\(language)", pageSize: 7)
        let expected = Self.newestFirst(Self.tweets.filter { $0.lang == language })
        #expect(try await Self.allIDs(store, request) == expected)
        let first = try await store.search(SearchQuery(parsing: request.query), request: request, cursor: nil)
        #expect(first.tweets.count == 7)
        #expect(first.resultCount == expected.count)
        // The cursor of a page continues exactly where it ended.
        let cursor: String = try #require(first.nextToken)
        let second = try await store.search(SearchQuery(parsing: request.query), request: request, cursor: cursor)
        #expect(second.tweets.map(\.id) == Array(expected[7..<14]))
    }

    @Test(arguments: StoreKind.allCases)
    func collectionsListAndDropKeepingSharedTweets(kind: StoreKind) async throws {
        let folder = TemporaryDirectory(prefix: "tweetsh-both")
        let store = try kind.make(in: folder)
        defer { store.close() }
        try await store.insert([Self.pages[0]], collection: "first")
        try await store.insert(Self.pages, collection: "second")
        let listed = try await store.collections().filter { !$0.hidden }
        #expect(listed.map(\.name).sorted() == ["first", "second"])
        #expect(listed.first { $0.name == "second" }?.tweets == 400)
        #expect(listed.first { $0.name == "first" }?.tweets == 100)
        #expect(
            try await store.collectionNames() == store.collections().map(\.name),
            "\(kind): the names alone, in the list's order")
        let dropped = try await store.drop(collection: "second")
        #expect(dropped.deleted == 300)
        #expect(dropped.kept == 100)
        #expect(try await store.collections().map(\.name).filter { $0 == "second" }.isEmpty)
        #expect(try await !store.collectionNames().contains("second"), "\(kind)")
        var inFirst = SearchRequest(query: "-zzzzqq", pageSize: 100)
        inFirst.collection = "first"
        #expect(try await Self.allIDs(store, inFirst) == Self.newestFirst(Self.pages[0].tweets))
        await #expect(throws: (any Error).self) { try await store.drop(collection: "second") }
    }

    @Test(arguments: StoreKind.allCases)
    func importingAFileTwiceAddsNothingAndKeepsOriginals(kind: StoreKind) async throws {
        let folder = TemporaryDirectory(prefix: "tweetsh-both")
        let store = try kind.make(in: folder)
        defer { store.close() }
        let (file, _) = try PostgresStoreTests.corpusFile(tweets: 150, seed: 31)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let report = try await store.importJSON(from: .file(file), collection: nil, progress: nil)
        #expect(report.tweets == 150)
        #expect(report.newTweets == 150)
        #expect(report.errorCount == 0)
        let again = try await store.importJSON(from: .file(file), collection: nil, progress: nil)
        #expect(again.newTweets == 0)
        #expect(try await store.collections().map(\.name).contains("corpus"))
        let all = try await Self.allIDs(store, SearchRequest(query: "-zzzzqq", pageSize: 100))
        #expect(all.count == 150)
        // Exports write back what came in: every tweet of a page has its original, with its own id, on both stores
        // (`importJSON(from:)` is the shell's `import`).
        let page = try await store.search(
            SearchQuery(parsing: "-zzzzqq"), request: SearchRequest(query: "-zzzzqq", pageSize: 20), cursor: nil)
        let filled = try await store.withOriginals(page)
        for tweet in page.tweets {
            let original = try #require(filled.originals.tweets[tweet.id], "\(kind): no original for \(tweet.id)")
            #expect(original.text.contains("\"\(tweet.id)\""))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func countsByDayAddUpToTheMatches(kind: StoreKind) async throws {
        let folder = TemporaryDirectory(prefix: "tweetsh-both")
        let store = try kind.make(in: folder)
        defer { store.close() }
        try await store.insert(Self.pages, collection: "one")
        let language = try #require(Self.tweets.first?.lang)
        let request = SearchRequest(query: "lang:\(language)", pageSize: 20)
        let series = try await store.countByTime(
            SearchQuery(parsing: request.query), request: request, granularity: .day)
        #expect(series.total == Self.tweets.filter { $0.lang == language }.count)
        let days = Set(
            Self.tweets.filter { $0.lang == language }.compactMap(\.createdAt).map {
                Int64($0.timeIntervalSince1970) / 86_400
            })
        #expect(series.buckets.filter { $0.count > 0 }.count == days.count)
    }

    @Test(arguments: StoreKind.allCases)
    func searchHistoryKeepsTheNewestIDAndTheLatestCursor(kind: StoreKind) async throws {
        let folder = TemporaryDirectory(prefix: "tweetsh-both")
        let store = try kind.make(in: folder)
        defer { store.close() }
        let early = Date(timeIntervalSince1970: 1_000)
        try await store.recordSearch(
            SearchHistoryEntry(query: "cats", source: "local", lastRun: early, newestID: 500, nextCursor: "r400"))
        try await store.recordSearch(
            SearchHistoryEntry(query: "dogs", source: "local", lastRun: early.addingTimeInterval(10)))
        try await store.recordSearch(
            SearchHistoryEntry(
                query: "cats", source: "local", lastRun: early.addingTimeInterval(20), newestID: 300,
                nextCursor: "r200"))
        #expect(try await store.searchHistory(limit: 10).map(\.query) == ["cats", "dogs"])
        let cats = try #require(try await store.lastSearch(query: "cats", source: "local"))
        #expect(cats.newestID == 500)
        #expect(cats.nextCursor == "r200")
        #expect(try await store.lastSearch(query: "cats", source: "x") == nil)
    }

    /// A cached page lists its tweets; once one of them has left the store, replaying the page would show the
    /// search without it (and an emptied first page skipped ahead to the next one), so it must be a miss that sends
    /// the search back to the API. `drop api` forgets every cached page with the API's tweets.
    @Test(arguments: StoreKind.allCases)
    func aCachedPageWhoseTweetsAreGoneIsNotReplayed(kind: StoreKind) async throws {
        let folder = TemporaryDirectory(prefix: "tweetsh-both")
        // Raw SQL behind the store's back, on its own file or database.
        let store: any CollectionStore
        let sql: (String) throws -> Int
        switch kind {
        case .sqlite:
            let path = folder.file("tweets.sqlite")
            store = try TweetStore(location: .file(path))
            sql = { Int(try StoreInspection(path: path).query($0).last ?? "0") ?? 0 }
        case .postgresql:
            let url = try PostgresTestServer.makeDatabase()
            store = try PostgresStore(address: url, history: .file(folder.file("history.sqlite")))
            sql = { Int(try PGConnection(conninfo: url).scalar($0) ?? 0) }
        }
        defer { store.close() }
        let fetched = Date(timeIntervalSince1970: 2_000)
        try await store.storePage(Self.pages[1], key: "search:dogs", cursor: nil, fetchedAt: fetched)
        try await store.storePage(Self.pages[2], key: "search:cats", cursor: nil, fetchedAt: fetched)
        let gone = try #require(Self.pages[1].tweets.last?.id)
        _ = try sql("DELETE FROM tweets WHERE id = \(gone.rawValue)")
        #expect(try sql("SELECT count(*) FROM tweets WHERE id = \(gone.rawValue)") == 0)
        #expect(try await store.cachedPage(key: "search:dogs", cursor: nil) == nil, "a page short of a tweet")
        let cats = try await store.cachedPage(key: "search:cats", cursor: nil)
        #expect(cats?.page.tweets.map(\.id) == Self.pages[2].tweets.map(\.id), "a whole page still replays")

        let report = try await store.drop(collection: TweetStore.apiCollection)
        #expect(report.deleted == Set(Self.pages[1].tweets.map(\.id) + Self.pages[2].tweets.map(\.id)).count - 1)
        #expect(try sql("SELECT count(*) FROM cached_pages") == 0, "drop api forgets the cached pages")
        #expect(try await store.cachedPage(key: "search:cats", cursor: nil) == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func cachedPagesComeBackByKeyAndCursor(kind: StoreKind) async throws {
        let folder = TemporaryDirectory(prefix: "tweetsh-both")
        let store = try kind.make(in: folder)
        defer { store.close() }
        let page = Self.pages[1]
        let fetched = Date(timeIntervalSince1970: 2_000)
        try await store.storePage(page, key: "search:dogs", cursor: "next-1", fetchedAt: fetched)
        let cached = try #require(try await store.cachedPage(key: "search:dogs", cursor: "next-1"))
        #expect(cached.page.tweets.map(\.id) == page.tweets.map(\.id))
        #expect(cached.fetchedAt == fetched)
        #expect(try await store.cachedPage(key: "search:dogs", cursor: nil) == nil)
        // Its tweets are searchable afterwards, in the API's collection.
        let id = try #require(page.tweets.first?.id)
        #expect(try await store.lookup(ids: [id]).tweets.map(\.id) == [id])
    }
}

/// A query parsed for X may hold operators only X evaluates; handed to a store anyway, each store refuses it with the
/// reason, as it refuses the same text it parses itself, instead of searching without the operator.
@Suite("Both stores refuse X-only operators", .enabled(if: PostgresFixtures.available, "PostgreSQL is not available"))
struct BothStoresXOnlyTests {
    @Test(arguments: StoreKind.allCases)
    func aQueryParsedForXIsRefused(kind: StoreKind) async throws {
        let folder = TemporaryDirectory(prefix: "tweetsh-both")
        let store = try kind.make(in: folder)
        defer { store.close() }
        try await store.insert(BothStoresTests.pages, collection: "one")
        for (text, column) in [("data has:geo", 6), ("data -is:verified", 7), ("data OR place_country:US", 9)] {
            let parsed = try SearchQuery(parsing: text, for: .xSearch)
            await #expect(throws: QueryParseError.self, "\(text)") {
                _ = try await store.search(parsed, request: SearchRequest(query: text), cursor: nil)
            }
            do {
                _ = try await store.search(SearchRequest(query: text), cursor: nil)
                Issue.record("\(text): the store searched a query with an operator it cannot evaluate")
            } catch let error as QueryParseError {
                #expect(error.message.contains("matched by X only"), "\(text): \(error)")
                #expect(error.column == column, "\(text): \(error)")
            }
        }
        // The same words without the operator still search.
        #expect(try await store.search(SearchRequest(query: "data"), cursor: nil).tweets.isEmpty == false)
    }
}

/// `demo`, `api` and `all` are tweetsh's own names: an import into one of them, named so or after its file, is
/// refused by each store before anything is written, so a user's tweets never join the generated corpus.
@Suite(
    "Both stores keep the reserved collection names",
    .enabled(if: PostgresFixtures.available, "PostgreSQL is not available"))
struct BothStoresReservedNameTests {
    @Test(arguments: StoreKind.allCases)
    func importsIntoReservedNamesAreRefused(kind: StoreKind) async throws {
        let folder = TemporaryDirectory(prefix: "tweetsh-both")
        let store = try kind.make(in: folder)
        defer { store.close() }
        let line = String(decoding: try JSONEncoder().encode(["data": [["id": "77", "text": "mine"]]]), as: UTF8.self)
        for name in ["demo", "API", "all", "tweets"] {
            try (line + "\n").write(toFile: folder.file(name + ".jsonl"), atomically: true, encoding: .utf8)
        }
        for (file, given) in [("demo", nil), ("API", nil), ("all", nil), ("tweets", "Demo"), ("tweets", " ")] {
            let url = URL(fileURLWithPath: folder.file(file + ".jsonl"))
            await #expect(throws: CollectionNameError.self, "\(file) as \(given ?? "its name")") {
                _ = try await store.importJSON(from: .file(url), collection: given, progress: nil)
            }
        }
        #expect(try await store.collections().isEmpty, "nothing was written")
        let report = try await store.importJSON(
            from: .file(URL(fileURLWithPath: folder.file("tweets.jsonl"))), collection: nil, progress: nil)
        #expect(report.tweets == 1)
        #expect(try await store.collections().map(\.name) == ["tweets"])
        // The store remembers which file it imported, so that `export` never writes over it.
        let imported = ImportInput.file(URL(fileURLWithPath: folder.file("tweets.jsonl"))).path
        #expect(try await store.hasImported(path: imported))
        #expect(
            try await store.hasImported(path: folder.file("demo.jsonl")) == false, "a refused import left no record")
    }
}
