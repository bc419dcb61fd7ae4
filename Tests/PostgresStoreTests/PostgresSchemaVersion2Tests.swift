import Foundation
import PostgresTesting
import Testing
import TweetKit
import TweetStore

@testable import PostgresStore

/// Schema version 2: the originals in a table of their own, flags and languages as lexemes, the migration of a
/// version-1 store, and the text index an import into an empty store builds after the load.
@Suite("PostgreSQL schema version 2", .enabled(if: PostgresFixtures.available, "PostgreSQL is not available"))
struct PostgresSchemaVersion2Tests {
    static let queries = [
        "is:reply", "-is:retweet", "is:quote OR has:media", "lang:en", "-lang:EN", "has:links lang:es",
        "is:reply -is:retweet", "has:hashtags has:mentions", "a", "-a is:reply",
    ]

    /// The ids of every match of each query, newest first.
    static func results(_ store: some TweetSource) async throws -> [[UInt64]] {
        var all: [[UInt64]] = []
        for query in queries {
            all.append(try await PostgresFixtures.allIDs(store, SearchRequest(query: query, pageSize: 100)))
        }
        return all
    }

    /// Turns a current store back into what version 1 left: the originals inline, no filter lexemes, and none of
    /// version 3's hydration tables.
    static func downgrade(_ connection: PGConnection) throws {
        try connection.executeScript(
            """
            ALTER TABLE tweets ADD COLUMN original bytea;
            UPDATE tweets t SET original = o.original FROM tweet_originals o WHERE o.id = t.id;
            DROP TABLE tweet_originals;
            DROP TABLE hydrated_ids;
            DROP TABLE reply_handles;
            UPDATE tweets SET doc = ts_delete(doc, ARRAY(
                SELECT lexeme FROM unnest(tsvector_to_array(doc)) AS lexeme WHERE lexeme LIKE '=%'));
            UPDATE tweetsh_schema SET version = 1;
            """, doing: "downgrading")
    }

    @Test func filterQueriesMatchTheSQLiteStore() async throws {
        let pages = Array(DemoCorpus(seed: 11, tweetCount: 1_500, pageSize: 100))
        let (postgres, _) = try PostgresFixtures.store()
        defer { postgres.close() }
        try await postgres.insert(pages)
        let sqlite = try TweetStore(location: .inMemory)
        try await sqlite.insert(pages)
        let expected = try await Self.results(sqlite)
        #expect(expected.allSatisfy { !$0.isEmpty })
        #expect(try await Self.results(postgres) == expected)
    }

    @Test func aVersion1StoreMigratesKeepingResultsOriginalsAndGrants() async throws {
        let (file, tweets) = try PostgresStoreTests.corpusFile(tweets: 1_200, seed: 12)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let (store, url) = try PostgresFixtures.store()
        _ = try await store.importJSONL(at: file)
        let before = try await Self.results(store)
        let export = SearchRequest(query: "-zzzz", pageSize: 50)
        let page = try await store.search(export, cursor: nil)
        let originals = try await store.withOriginals(page).originals.tweets
        #expect(originals.count >= page.tweets.count)
        store.close()

        let admin = try PGConnection(conninfo: url)
        let role = "tweetsh_v2_\(UInt32.random(in: 0...UInt32.max))"
        try admin.execute("CREATE ROLE \(role) NOLOGIN")
        defer {
            _ = try? admin.execute("DROP OWNED BY \(role)")
            _ = try? admin.execute("DROP ROLE \(role)")
        }
        try admin.execute("GRANT SELECT ON tweets TO \(role)")
        try Self.downgrade(admin)
        #expect(try PostgresSchema.version(admin) == 1)

        let migrated = try PostgresStore(address: url)
        defer { migrated.close() }
        #expect(try PostgresSchema.version(admin) == PostgresSchema.currentVersion)
        #expect(PostgresSchema.currentVersion == 5)
        // Version 5's tables are there, and the rows from version 1, which kept no `__twarc` blocks, name none.
        #expect(try admin.scalar("SELECT count(*) FROM object_originals") == 0)
        #expect(try admin.scalar("SELECT count(*) FROM tweet_originals WHERE twarc IS NOT NULL") == 0)
        #expect(try admin.scalar("SELECT count(*) FROM hydrated_ids") == 0, "version 3's table is there")
        #expect(try admin.scalar("SELECT count(*) FROM tweet_originals") ?? 0 >= Int64(tweets))
        #expect(
            try admin.scalar(
                "SELECT count(*) FROM information_schema.columns WHERE table_name = 'tweets' "
                    + "AND column_name = 'original'") == 0)
        #expect(
            try admin.scalar("SELECT has_table_privilege($1, 'tweet_originals', 'SELECT')::int", [.text(role)]) == 1)
        #expect(try await Self.results(migrated) == before)
        let again = try await migrated.withOriginals(try await migrated.search(export, cursor: nil))
        #expect(again.originals.tweets == originals)
    }

    @Test func anImportIntoAnEmptyStoreKeepsTheTextIndexAndAnalyzesAfterTheLoad() async throws {
        let (file, tweets) = try PostgresStoreTests.corpusFile(tweets: 600, seed: 13)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let (store, url) = try PostgresFixtures.store()
        defer { store.close() }
        let admin = try PGConnection(conninfo: url)
        // While the load runs the index is there and takes the rows, and autovacuum is off for `tweets`; the decoder
        // looks when it reads the first line.
        let probe = IndexProbe()
        let autovacuumProbe = IndexProbe()
        let autovacuumOff =
            "SELECT (coalesce(reloptions, '{}') @> ARRAY['autovacuum_enabled=false'])::int "
            + "FROM pg_class WHERE oid = 'tweets'::regclass"
        let decode: @Sendable (Data) throws -> Page? = { line in
            try probe.once {
                try PGConnection(conninfo: url).scalar("SELECT (to_regclass('tweets_doc') IS NOT NULL)::int") == 1
            }
            try autovacuumProbe.once { try PGConnection(conninfo: url).scalar(autovacuumOff) == 1 }
            return try CollectionLineDecoder.decode(line: line, keepOriginals: true)
        }
        let report = try await store.importJSONL(at: file, batchLines: 4, decodeLine: decode)
        #expect(report.tweets == tweets)
        #expect(probe.indexPresent == true)
        #expect(autovacuumProbe.indexPresent == true, "autovacuum off during the load")
        #expect(try admin.scalar("SELECT (to_regclass('tweets_doc') IS NOT NULL)::int") == 1)
        #expect(try admin.scalar(autovacuumOff) == 0, "autovacuum back on after it")
        // The load ends with the index's pending list merged, so searches need not scan it, and with statistics.
        try admin.execute("CREATE EXTENSION IF NOT EXISTS pgstattuple")
        #expect(try admin.scalar("SELECT pending_pages::bigint FROM pgstatginindex('tweets_doc')") == 0)
        #expect(
            try admin.scalar("SELECT (last_analyze IS NOT NULL)::int FROM pg_stat_user_tables WHERE relname = 'tweets'")
                == 1)
        // Every column has statistics (the document's and the others' come from two samples), and so does the
        // statistics object on `flags & 128`.
        #expect(
            try admin.scalar(
                "SELECT count(*) FROM pg_attribute WHERE attrelid = 'tweets'::regclass AND attnum > 0 "
                    + "AND NOT attisdropped AND attname NOT IN (SELECT attname FROM pg_stats WHERE tablename = 'tweets')"
            )
                == 0)
        #expect(
            try admin.scalar(
                "SELECT count(*) FROM pg_statistic_ext_data d JOIN pg_statistic_ext e ON e.oid = d.stxoid "
                    + "WHERE e.stxname = 'tweets_included_only' AND d.stxdexpr IS NOT NULL") == 1)
        let sqlite = try TweetStore(location: .inMemory)
        _ = try await sqlite.importJSONL(at: file)
        #expect(try await Self.results(store) == (try await Self.results(sqlite)))

        // An index an earlier tweetsh's killed load left missing, and autovacuum left off, are restored by the next
        // import.
        try admin.execute("DROP INDEX tweets_doc")
        try admin.execute("ALTER TABLE tweets SET (autovacuum_enabled = false)")
        _ = try await store.importJSONL(at: file)
        #expect(try admin.scalar("SELECT (to_regclass('tweets_doc') IS NOT NULL)::int") == 1)
        #expect(try admin.scalar(autovacuumOff) == 0)
        // Killed before autovacuum came back: the next import turns it on.
        try admin.execute("ALTER TABLE tweets SET (autovacuum_enabled = false)")
        _ = try await store.importJSONL(at: file)
        #expect(try admin.scalar(autovacuumOff) == 0)
    }
}

/// What an import's decoder saw the first time it looked (the text index there, autovacuum off), for closures the
/// import calls.
final class IndexProbe: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var indexPresent: Bool?

    /// Records `look()`'s answer the first time only.
    func once(_ look: () throws -> Bool) throws {
        lock.lock()
        defer { lock.unlock() }
        if indexPresent == nil { indexPresent = try look() }
    }
}

@Suite("PostgreSQL count estimates")
struct PostgresCountEstimateTests {
    @Test func theTopNodesEstimateIsRead() {
        let plan = """
            [{"Plan": {"Node Type": "Bitmap Heap Scan", "Plan Rows": 51234, "Plans": [{"Plan Rows": 7}]}}]
            """
        #expect(PostgresSearch.planRows(plan) == 51_234)
        #expect(PostgresSearch.planRows("[]") == nil)
    }
}
