import Foundation
import PostgresStore
import PostgresTesting
import StoreTesting
import TerminalTesting
import Testing
import TweetKit
import TweetStore

/// `drop` on both stores: a collection takes with it what only its tweets name (included tweets, users, media,
/// places, polls, `__twarc` blocks), keeps what remaining tweets name, and leaves the other collections' exports as
/// they were. The fixture's two pages share users and tweets: the second page's retweet and reply name tweets and
/// users of the first.
@Suite("Drop on both stores", .enabled(if: PostgresFixtures.available, "PostgreSQL is not available"))
struct BothStoresDropTests {
    /// A store of `kind` and a way to count rows behind its back (`SELECT count(*) …`).
    static func store(_ kind: StoreKind, in folder: TemporaryDirectory) throws -> (
        any CollectionStore, (String) throws -> Int
    ) {
        switch kind {
        case .sqlite:
            let path = folder.file("tweets.sqlite")
            return (
                try TweetStore(location: .file(path)),
                { Int(try StoreInspection(path: path).query($0).last ?? "0") ?? 0 }
            )
        case .postgresql:
            let url = try PostgresTestServer.makeDatabase()
            return (
                try PostgresStore(address: url, history: .file(folder.file("history.sqlite"))),
                { Int(try PGConnection(conninfo: url).scalar($0) ?? 0) }
            )
        }
    }

    /// Imports line `line` of the lossless fixture as the collection `name`.
    static func importLine(_ line: Int, as name: String, into store: any CollectionStore, _ folder: TemporaryDirectory)
        async throws
    {
        let file = URL(fileURLWithPath: folder.file("\(name).jsonl"))
        try Data((LosslessFixture.lines[line] + "\n").utf8).write(to: file)
        let report = try await store.importJSON(from: .file(file), collection: name, progress: nil)
        #expect(report.errorCount == 0 && report.tweets == 3)
    }

    /// Every object `exportAll` writes for the collection `name`, by kind and id.
    static func exported(_ store: any CollectionStore, collection name: String, _ folder: TemporaryDirectory)
        async throws -> LosslessComparison.Collected
    {
        let (data, _) = try await StoreExport.all(
            store, query: "lossless", format: .twarc2JSONL, collection: name, in: folder)
        return LosslessComparison.collect(pages: try LosslessComparison.parse(data))
    }

    /// A store of `kind` holding the fixture's two lines as the collections `one` and `two`.
    static func twoCollections(_ kind: StoreKind, in folder: TemporaryDirectory) async throws -> (
        any CollectionStore, (String) throws -> Int
    ) {
        let (store, count) = try Self.store(kind, in: folder)
        try await Self.importLine(0, as: "one", into: store, folder)
        try await Self.importLine(1, as: "two", into: store, folder)
        return (store, count)
    }

    /// The table that holds places' and polls' originals, and their kinds' numbers (the same in both stores).
    static func objectsTable(_ kind: StoreKind) -> String { kind == .sqlite ? "originals" : "object_originals" }

    @Test(arguments: StoreKind.allCases)
    func aDropTakesWhatOnlyItNamesAndLeavesTheOtherCollectionsExportAsItWas(kind: StoreKind) async throws {
        let folder = TemporaryDirectory(prefix: "tweetsh-drop")
        let (store, count) = try await Self.twoCollections(kind, in: folder)
        defer { store.close() }
        let before = try await Self.exported(store, collection: "two", folder)
        #expect(before.objects.keys.contains { $0.contains("1700000000000000001") }, "the reply's parent is included")

        let report = try await store.drop(collection: "one")
        // 3 (a quote with a video) and 2 (a poll) go; 1, replied to by two's 6, stays out of searches.
        #expect(report.deleted == 2 && report.kept == 0 && report.referenced == 1)
        #expect(report.media == 1 && report.users == 0 && report.includedTweets == 0, "\(report)")

        let after = try await Self.exported(store, collection: "two", folder)
        #expect(after.resultIDs.sorted() == before.resultIDs.sorted())
        #expect(Set(after.objects.keys) == Set(before.objects.keys))
        for (key, value) in before.objects {
            #expect(LosslessComparison.differences(value, after.objects[key] ?? .null).isEmpty, "\(key)")
        }
        let everything = SearchRequest(query: "lossless", pageSize: 100)
        let results = try await store.search(SearchQuery(parsing: "lossless"), request: everything, cursor: nil)
        #expect(
            results.tweets.map(\.id.rawValue) == [
                1_700_000_000_000_000_007, 1_700_000_000_000_000_006, 1_700_000_000_000_000_005,
            ])
        #expect(try count("SELECT count(*) FROM tweets") == 5, "two's three, the parent and the retweeted tweet")
        #expect(try count("SELECT count(*) FROM media") == 0, "the video went with its tweet")
        let objects = Self.objectsTable(kind)
        #expect(try count("SELECT count(*) FROM \(objects) WHERE kind = 4") == 0, "the poll went with its tweet")
        #expect(try count("SELECT count(*) FROM \(objects) WHERE kind = 3") == 1, "the parent keeps its place")
        #expect(try count("SELECT count(*) FROM users") == 3)
    }

    @Test(arguments: StoreKind.allCases)
    func droppingEveryCollectionLeavesNothingOfThemBehind(kind: StoreKind) async throws {
        let folder = TemporaryDirectory(prefix: "tweetsh-drop")
        let (store, count) = try await Self.twoCollections(kind, in: folder)
        defer { store.close() }
        #expect(try count("SELECT count(*) FROM users") == 3)

        let first = try await store.drop(collection: "two")
        #expect(first.deleted == 3 && first.users == 0, "one still names every user: \(first)")
        let second = try await store.drop(collection: "one")
        #expect(second.deleted == 3 && second.includedTweets == 1 && second.users == 3 && second.media == 1)
        let tables =
            ["tweets", "users", "media", "twarc_blocks", "reply_handles", Self.objectsTable(kind)]
            + (kind == .sqlite ? ["tweet_keys", "collection_members"] : ["tweet_originals", "collection_tweets"])
        for table in tables {
            #expect(try count("SELECT count(*) FROM \(table)") == 0, "\(table)")
        }
        if kind == .sqlite {
            try await (store as? TweetStore)?.checkIntegrity()
        }
    }
}
