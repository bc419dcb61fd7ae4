import Foundation
import PostgresStore
import PostgresTesting
import TerminalTesting
import Testing
import TweetKit
import TweetStore
import XAPIStub

/// `hydrate` in the real binary on a PostgreSQL store against the loopback stub, beside the same session on SQLite:
/// the same report, the ledger on the server keeps a second run from asking X again, and `dehydrate` lists the same.
@Suite("Hydrate on PostgreSQL", .enabled(if: PostgresFixtures.available, "PostgreSQL is not available"))
struct PostgresHydrateTests {
    static func ids(_ count: Int) -> [TweetID] {
        (0..<count).map { TweetID(1_470_000_000_000_000_000 + UInt64($0) * 11) }
    }

    /// Runs the session on a store, with its own stub; returns the run and the ids the stub was asked for.
    static func session(store: (PostgresShellTests.Home) throws -> String) throws -> (ProcessRun, [String]) {
        let stub = try StubServer()
        defer { stub.stop() }
        stub.lookupWorld.answersAnyID = true
        let ids = Self.ids(250)
        stub.lookupWorld.setMissing([ids[3]], reason: .deleted)
        stub.lookupWorld.setMissing([ids[200]], reason: .suspended)
        let home = PostgresShellTests.Home()
        let first = home.folder.file("first.txt")
        let all = home.folder.file("all.txt")
        try ids.prefix(150).map(\.description).joined(separator: "\n").write(
            toFile: first, atomically: true, encoding: .utf8)
        try (ids.map { "https://x.com/someone/status/\($0)" } + ["# a comment", "not-an-id"]).joined(separator: "\n")
            .write(toFile: all, atomically: true, encoding: .utf8)
        let run = try home.run(
            [
                "--store", try store(home), "-c",
                "hydrate \(first) --into saved; hydrate \(all) --into saved; dehydrate --in saved",
            ],
            extra: ["TWEETSH_API_BASE": stub.baseURL.absoluteString, "X_BEARER_TOKEN": StubServer.defaultBearerToken])
        let asked = stub.requests(path: "/2/tweets").flatMap {
            ($0.query["ids"] ?? "").split(separator: ",").map(String.init)
        }
        return (run, asked)
    }

    @Test func aSecondHydrationAsksOnlyForWhatTheLedgerLacksOnBothStores() throws {
        let (sqlite, sqliteAsked) = try Self.session { $0.folder.file("tweets.sqlite") }
        let (postgres, asked) = try Self.session { _ in try PostgresTestServer.makeDatabase() }
        // The line that is no id makes both exit 1, after a warning naming it; everything else ran.
        #expect(postgres.status == sqlite.status, Comment(rawValue: postgres.standardError))
        #expect(asked.count == 250 && Set(asked).count == 250, "every id asked for once")
        #expect(sqliteAsked.count == 250)
        #expect(postgres.standardOutput.contains("149 hydrated, 1 missing (1 deleted) into collection 'saved'"))
        #expect(
            postgres.standardOutput.contains(
                "248 hydrated, 2 missing (1 deleted, 1 suspended) into collection 'saved' (resumed: 150 ids"),
            Comment(rawValue: postgres.standardOutput))
        #expect(postgres.standardOutput == sqlite.standardOutput)
        // The two reports, then the 248 stored ids.
        #expect(postgres.standardOutput.split(separator: "\n").count == 2 + 248)
        #expect(postgres.standardError.contains("not-an-id"))
        #expect(!postgres.standardError.contains("not available"), Comment(rawValue: postgres.standardError))
    }

    @Test func theLedgerForgetsADroppedCollectionAndKeepsTheLastAnswer() async throws {
        let (store, _) = try PostgresFixtures.store()
        defer { store.close() }
        let ids = Self.ids(4)
        let page = Page(tweets: [Tweet(id: ids[0], text: "one"), Tweet(id: ids[1], text: "two")])
        // ids[1] comes back, then a later batch finds it deleted: the last answer stands.
        let first = store.prepareHydration(page, hydrated: [ids[0], ids[1]], missing: [])
        let second = store.prepareHydration(
            Page(tweets: []), hydrated: [],
            missing: [HydrationMiss(id: ids[1], reason: "deleted"), HydrationMiss(id: ids[2], reason: "protected")])
        try await store.recordHydrations([first, second], collection: "c")
        var ledger = try await store.hydrationLedger(collection: "c")
        #expect(ledger.hydrated == [ids[0]])
        #expect(ledger.missing.keys.sorted() == [ids[1], ids[2]])
        #expect(ledger.missing[ids[2]]?.reason == "protected")
        #expect(try await store.hydrationLedger(collection: "other").hydrated.isEmpty)
        try await store.recordHydration(Page(tweets: []), collection: "empty", hydrated: [], missing: [])
        #expect(try await store.collections().map(\.name).sorted() == ["c", "empty"])
        _ = try await store.drop(collection: "c")
        ledger = try await store.hydrationLedger(collection: "c")
        #expect(ledger.hydrated.isEmpty && ledger.missing.isEmpty)
    }
}
