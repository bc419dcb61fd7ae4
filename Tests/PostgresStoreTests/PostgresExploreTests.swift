import Foundation
import PostgresStore
import PostgresTesting
import TerminalTesting
import Testing
import TweetKit
import TweetStore

/// `top`, `stats` and `export --all` on PostgreSQL against the SQLite store over the same tweets: the same rankings,
/// the same overview, the same exported lines, and the same shell output.
@Suite("Explore on PostgreSQL", .enabled(if: PostgresFixtures.available, "PostgreSQL is not available"))
struct PostgresExploreTests {
    /// An SQLite and a PostgreSQL store holding the same pages in collection `one`, the first page also in `two`.
    static func stores(_ folder: TemporaryDirectory) async throws -> [any CollectionStore] {
        var stores: [any CollectionStore] = []
        for kind in StoreKind.allCases {
            let store = try kind.make(in: folder)
            try await store.insert(BothStoresTests.pages, collection: "one")
            try await store.insert([BothStoresTests.pages[0]], collection: "two")
            stores.append(store)
        }
        return stores
    }

    @Test func topListsEqualTheSQLiteStores() async throws {
        let folder = TemporaryDirectory(prefix: "tweetsh-pg-top")
        let stores = try await Self.stores(folder)
        defer { for store in stores { store.close() } }
        let language = try #require(BothStoresTests.tweets.first?.lang)
        let queries: [(String?, String?)] = [(nil, nil), ("lang:\(language)", nil), (nil, "two"), ("-lang:zz", "one")]
        for kind in TopKind.allCases {
            for (text, collection) in queries {
                var request = SearchRequest(query: text ?? "")
                request.collection = collection
                let query = try text.map { try SearchQuery(parsing: $0) }
                let sqlite = try await stores[0].topList(kind, query: query, request: request, limit: 10)
                let postgres = try await stores[1].topList(kind, query: query, request: request, limit: 10)
                #expect(!sqlite.rows.isEmpty, "\(kind) \(text ?? "all") in \(collection ?? "all")")
                #expect(postgres == sqlite, "\(kind) \(text ?? "all") in \(collection ?? "all")")
            }
        }
    }

    @Test func overviewsEqualTheSQLiteStores() async throws {
        let folder = TemporaryDirectory(prefix: "tweetsh-pg-stats")
        let stores = try await Self.stores(folder)
        defer { for store in stores { store.close() } }
        for collection in [nil, "one", "two"] {
            let sqlite = try await stores[0].overview(collection: collection)
            let postgres = try await stores[1].overview(collection: collection)
            #expect(sqlite.tweets > 0 && !sqlite.topHashtags.isEmpty && !sqlite.mostLiked.isEmpty)
            #expect(postgres == sqlite, "\(collection ?? "all")")
        }
        await #expect(throws: StoreError.self) { try await stores[1].overview(collection: "nowhere") }
    }

    @Test func exportAllWritesEveryMatchOncePageByPage() async throws {
        let folder = TemporaryDirectory(prefix: "tweetsh-pg-export")
        let stores = try await Self.stores(folder)
        defer { for store in stores { store.close() } }
        var outputs: [[String]] = []
        for (index, store) in stores.enumerated() {
            let path = folder.file("export-\(index).jsonl")
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            let writer = ExportFileWriter(handle: handle, format: .twarc2JSONL)
            // Pages of 7 over 400 tweets: the walk crosses many page boundaries and ends on a short page.
            var request = SearchRequest(query: "-lang:zz", pageSize: 7)
            request.collection = "one"
            let written = try await store.exportAll(
                try SearchQuery(parsing: request.query), request: request, to: writer, progress: nil)
            try writer.finish()
            try handle.close()
            #expect(written == BothStoresTests.tweets.count)
            let text = try String(contentsOfFile: path, encoding: .utf8)
            outputs.append(text.split(separator: "\n").map(String.init))
        }
        #expect(outputs[0].count == (BothStoresTests.tweets.count + 6) / 7)
        var ids: [TweetID] = []
        for line in outputs[1] {
            let page = try APIResponseDecoder.decodePage(from: Data(line.utf8))
            ids += page.tweets.map(\.id)
        }
        #expect(ids == BothStoresTests.newestFirst(BothStoresTests.tweets))
        #expect(outputs[1] == outputs[0])
    }

    @Test func topAndStatsPrintTheSameOnBothStores() throws {
        let (file, remove) = try PostgresShellTests.corpus(120, seed: 44)
        defer { remove() }
        let script =
            "import \(file.path); search -lang:zz; top hashtags; top mentions lang:en --limit 3; top authors; "
            + "top langs; top words; top domains; top hashtags lang:en --in corpus; drill 1; stats; stats corpus"
        let sqliteHome = PostgresShellTests.Home()
        let sqlite = try sqliteHome.run(["--store", sqliteHome.folder.file("tweets.sqlite"), "-c", script])
        let postgres = try PostgresShellTests.Home().run([
            "--store", try PostgresTestServer.makeDatabase(), "-c", script,
        ])
        #expect(sqlite.status == 0, Comment(rawValue: sqlite.standardError))
        #expect(postgres.status == 0, Comment(rawValue: postgres.standardError))
        #expect(!postgres.standardOutput.contains("not available"))
        #expect(postgres.standardOutput.contains("#"))
        #expect(postgres.standardOutput == sqlite.standardOutput)
        #expect(!postgres.standardError.contains("error"), Comment(rawValue: postgres.standardError))
    }
}
