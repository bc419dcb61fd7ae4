import Foundation
import PostgresTesting
import TerminalTesting
import Testing
import TweetKit
import TweetStore

@testable import PostgresStore

/// The import's ledger: users written unchanged are left out of later batches, and tweets the import has not seen
/// are COPY'd straight into `tweets`, falling back to the upsert when the store holds one after all. Neither may
/// change what is stored: the fallbacks are tested against a real server.
@Suite("PostgreSQL import ledger")
struct PostgresImportLedgerTests {
    @Test func theIDFilterNeverForgetsAnIDAndRarelyInventsOne() {
        let ledger = PostgresImportLedger(keepsTrying: true)
        // Past the first filter's capacity (2^20), so a second, larger one is used too.
        let seen = (0..<1_200_000).map { UInt64($0) &* 0x9E37_79B9 &+ 17 }
        // A new id may be taken for seen (then it takes the staged way), rarely.
        let firstSights = seen.count { ledger.isUnseen(tweet: $0) }
        #expect(firstSights > 1_150_000, "\(firstSights) of 1,200,000 new ids")
        // Never the other way: every id given is seen from then on.
        #expect(seen.allSatisfy { !ledger.isUnseen(tweet: $0) })
        // Ids never given: about 1% come back "seen" (a Bloom filter's false positives), never all.
        let others = (0..<100_000).map { UInt64($0) &* 0x9E37_79B9 &+ 18 }
        let wronglySeen = others.count { !ledger.isUnseen(tweet: $0) }
        #expect(wronglySeen < 3_000, "\(wronglySeen) of 100,000 new ids taken for seen")
    }

    @Test func aUserIsWrittenAgainOnlyWhenItChanged() {
        let ledger = PostgresImportLedger(keepsTrying: false)
        #expect(ledger.mustWrite(user: 7, fingerprint: 1))
        #expect(!ledger.mustWrite(user: 7, fingerprint: 1))
        #expect(ledger.mustWrite(user: 7, fingerprint: 2))
        #expect(ledger.mustWrite(user: 8, fingerprint: 2))
        #expect(!ledger.mustWrite(user: 7, fingerprint: 2))
    }

    private static func tweet(_ id: UInt64, _ text: String) -> Tweet {
        Tweet(id: TweetID(id), text: text, authorID: UserID(1))
    }

    /// Writes `batch` in a transaction and returns what it added and how many rows went through the staging table.
    private static func write(
        _ batch: PostgresBatchRows, ledger: PostgresImportLedger, _ connection: PGConnection
    ) throws -> (added: Int, staged: Int64) {
        let writer = PostgresWriter(connection: connection, codec: OriginalsCodec(), ledger: ledger)
        return try connection.transaction {
            let added = try writer.write(batch, collection: "ledger")
            let staged = try connection.scalar("SELECT count(*) FROM tweets_staging") ?? -1
            return (added, staged)
        }
    }

    @Test(.enabled(if: PostgresFixtures.available, "PostgreSQL is not available"))
    func unseenTweetsGoStraightInAndAStoredOneSendsTheBatchTheStagedWay() async throws {
        let (store, url) = try PostgresFixtures.store()
        defer { store.close() }
        // Tweet 2 is stored only as a reference (quoted by 1).
        try await store.insert([Page(tweets: [Self.tweet(1, "first")], includedTweets: [Self.tweet(2, "quoted")])])
        let connection = try PGConnection(conninfo: url)
        let ledger = PostgresImportLedger(keepsTrying: false)

        // 3 and 4 are new: they go in by COPY, the staging table stays empty, and the collection gains them.
        let fresh = PostgresBatchRows(
            [Page(tweets: [Self.tweet(3, "three"), Self.tweet(4, "four")])], codec: OriginalsCodec(), ledger: ledger)
        #expect(fresh.unseen.count == 2 && fresh.tweets.isEmpty)
        let first = try Self.write(fresh, ledger: ledger, connection)
        #expect(first.added == 2 && first.staged == 0)
        #expect(ledger.sendsUnseen)

        // 2 arrives as a result: unseen by this import, but stored. The COPY fails, the batch is upserted, 2 becomes
        // a result (and counts as new, as a reference did not count), and the ledger stops sending directly.
        let stored = PostgresBatchRows(
            [Page(tweets: [Self.tweet(2, "quoted, now a result"), Self.tweet(5, "five")])], codec: OriginalsCodec(),
            ledger: ledger)
        #expect(stored.unseen.count == 2)
        let second = try Self.write(stored, ledger: ledger, connection)
        #expect(second.added == 2 && second.staged == 2)
        #expect(!ledger.sendsUnseen)
        let later = PostgresBatchRows([Page(tweets: [Self.tweet(6, "six")])], codec: OriginalsCodec(), ledger: ledger)
        #expect(later.unseen.isEmpty && later.tweets.count == 1)

        #expect(try connection.scalar("SELECT count(*) FROM tweets") == 5)
        #expect(try connection.scalar("SELECT count(*) FROM tweets WHERE (flags & 128) <> 0") == 0)
        #expect(
            try connection.scalar("SELECT count(*) FROM tweets WHERE id = 2 AND text = 'quoted, now a result'") == 1)
        #expect(
            try connection.scalar("SELECT count(*) FROM collection_tweets WHERE collection = 'ledger'") == 4,
            "3, 4 sent directly; 2, 5 upserted")
        let found = try await PostgresFixtures.allIDs(store, SearchRequest(query: "five OR four OR result"))
        #expect(found.sorted() == [2, 4, 5])
    }

    @Test(.enabled(if: PostgresFixtures.available, "PostgreSQL is not available"))
    func aLoadKeepsSendingDirectlyAfterAFewFallbacks() async throws {
        let (store, url) = try PostgresFixtures.store()
        defer { store.close() }
        try await store.insert([Page(tweets: [Self.tweet(10, "ten"), Self.tweet(11, "eleven")])])
        let connection = try PGConnection(conninfo: url)
        let ledger = PostgresImportLedger(keepsTrying: true)
        for (attempt, id) in [10, 11].enumerated() {
            let batch = PostgresBatchRows(
                [Page(tweets: [Self.tweet(UInt64(id), "again"), Self.tweet(UInt64(20 + attempt), "new")])],
                codec: OriginalsCodec(), ledger: ledger)
            let written = try Self.write(batch, ledger: ledger, connection)
            #expect(written.added == 1 && written.staged == 2)
            #expect(ledger.sendsUnseen, "a load tries again after fallback \(attempt + 1)")
        }
        #expect(try connection.scalar("SELECT count(*) FROM tweets") == 4)
        #expect(try connection.scalar("SELECT count(*) FROM tweets WHERE text = 'again'") == 2)
    }

    @Test(.enabled(if: PostgresFixtures.available, "PostgreSQL is not available"))
    func usersWrittenUnchangedAreNotRewrittenButAChangeIsWritten() async throws {
        let folder = TemporaryDirectory(prefix: "tweetsh-pg-ledger")
        let file = URL(fileURLWithPath: folder.file("users.jsonl"))
        func line(_ id: Int, name: String) -> String {
            """
            {"data":[{"id":"\(id)","text":"tweet \(id)","author_id":"42"}],\
            "includes":{"users":[{"id":"42","username":"someone","name":"\(name)"}]}}
            """
        }
        let lines = [line(1, name: "Before"), line(2, name: "Before"), line(3, name: "After"), line(4, name: "After")]
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let (store, url) = try PostgresFixtures.store()
        defer { store.close() }
        // One line a batch, so each line commits in a transaction of its own; after each, the user row's version.
        let versions = UserVersions(try PGConnection(conninfo: url))
        let report = try await store.importJSONL(at: file, batchLines: 1, progress: { _ in versions.record() })
        #expect(report.tweets == 4)

        let connection = try PGConnection(conninfo: url)
        #expect(try connection.rows("SELECT name FROM users WHERE id = 42") { $0.text(0) } == ["After"])
        // Written with line 1, not again with line 2 (unchanged), again with line 3 (renamed), not with line 4.
        // (The last batch, after the final newline, is empty.)
        let seen = versions.seen.prefix(4)
        #expect(seen == [seen[0], seen[0], seen[2], seen[2]] && seen[0] != seen[2], "\(versions.seen)")
    }
}

/// The `xmin` (the writing transaction) of user 42's row, read after each committed batch.
private final class UserVersions: @unchecked Sendable {
    /// Unchecked: `connection` and `versions` are used under `lock` only.
    private let lock = NSLock()
    private let connection: PGConnection
    private var versions: [String] = []

    init(_ connection: PGConnection) { self.connection = connection }

    func record() {
        lock.withLock {
            let version = try? connection.rows("SELECT xmin::text FROM users WHERE id = 42") { $0.text(0) }.first
            versions.append(version ?? "none")
        }
    }

    var seen: [String] { lock.withLock { versions } }
}
