import Foundation
import TerminalTesting
import XCTest

/// The schema version a store opened by this tweetsh has (TweetStore's `Schema.currentVersion`; these tests see the
/// binary only).
private let storeSchemaVersion = "7"

/// Many shells opening one store at the same moment, through the real binary: a new store that several processes
/// create at once, and an old one that several upgrade at once. Every process must succeed, and the store must end
/// sound, current and consistent. Before the schema steps took the write lock and read the version again under it,
/// two shells started together on a new store failed 4 times in 6 (`table tweets already exists`).
final class StoreRaceTests: XCTestCase {
    private static let rounds = 20

    func testEightShellsCreatingOneNewStoreAtOnce() throws {
        let tweetsh = Tweetsh()
        for round in 1...Self.rounds {
            let store = tweetsh.home.file("new-\(round).sqlite")
            let line = StartingLine(directory: tweetsh.home.path)
            for _ in 0..<8 { try line.add(["--store", store, "-c", "source"], environment: tweetsh.environment()) }
            let results = line.release()
            for (index, result) in results.enumerated() {
                XCTAssertEqual(result.status, 0, "round \(round), shell \(index + 1): \(result.error)")
                XCTAssertFalse(result.error.contains("error"), "round \(round), shell \(index + 1): \(result.error)")
                for leak in sqlLeaks { XCTAssertFalse(result.error.contains(leak), result.error) }
            }
            let seeders = results.filter { $0.error.contains("First run") }
            XCTAssertEqual(seeders.count, 1, "round \(round): exactly one shell seeds the new store")
            let inspection = StoreInspection(path: store)
            XCTAssertEqual(inspection.integrityProblems(), [], "round \(round)")
            XCTAssertEqual(try inspection.query("PRAGMA user_version;"), [storeSchemaVersion], "round \(round)")
            let counts = try inspection.counts()
            XCTAssertTrue(counts.isConsistent, "round \(round): \(counts)")
            XCTAssertEqual(counts.searchable, demoCorpusTweets, "round \(round): the demo corpus, once")
            if round == 1 { print("store-race: round 1 of \(Self.rounds) done") }
        }
    }

    func testFourShellsUpgradingOneVersionOneStoreAtOnce() throws {
        let tweetsh = Tweetsh()
        // A version 1 store: the demo corpus, indexed without the `refs` column, with v1's three B-tree indexes and
        // none of the tables later versions add.
        let template = tweetsh.home.file("v1.sqlite")
        let seeding = try tweetsh.run(["--store", template, "-c", "source"])
        XCTAssertEqual(seeding.status, 0, seeding.standardError)
        _ = try StoreInspection(path: template).query(
            """
            DROP TABLE tweets_fts;
            CREATE VIRTUAL TABLE tweets_fts USING fts5(body, tags, cashtags, mentions, urls, content = '',
                tokenize = "unicode61 remove_diacritics 2 tokenchars '_'");
            INSERT INTO tweets_fts(rowid, body, tags, cashtags, mentions, urls)
                SELECT id, text, '', '', '', '' FROM tweets WHERE flags & 128 = 0;
            CREATE INDEX tweets_author ON tweets(author_id);
            CREATE INDEX tweets_conversation ON tweets(conversation_id) WHERE conversation_id IS NOT NULL;
            CREATE INDEX tweets_reply_to ON tweets(reply_to_user) WHERE reply_to_user IS NOT NULL;
            DROP TABLE reply_handles;
            DROP TABLE collections;
            DROP TABLE collection_members;
            DROP TABLE store_settings;
            DROP TABLE originals;
            DROP TABLE twarc_blocks;
            DROP TABLE zstd_dictionaries;
            DROP TABLE store_facts;
            DROP TRIGGER tweet_keys_follow_deletes;
            DROP TABLE tweet_keys;
            ALTER TABLE tweets DROP COLUMN original;
            ALTER TABLE tweets DROP COLUMN twarc;
            PRAGMA user_version = 1;
            """)
        XCTAssertFalse(FileManager.default.fileExists(atPath: template + "-wal"))
        let handle = try XCTUnwrap(
            try StoreInspection(path: template).query("SELECT username FROM users ORDER BY id LIMIT 1;").first)

        for round in 1...Self.rounds {
            let store = tweetsh.home.file("old-\(round).sqlite")
            try FileManager.default.copyItem(atPath: template, toPath: store)
            let line = StartingLine(directory: tweetsh.home.path)
            for _ in 0..<4 {
                try line.add(["--store", store, "-c", "search from:\(handle)"], environment: tweetsh.environment())
            }
            let results = line.release()
            for (index, result) in results.enumerated() {
                XCTAssertEqual(result.status, 0, "round \(round), shell \(index + 1): \(result.error)")
                XCTAssertFalse(result.error.contains("error"), "round \(round), shell \(index + 1): \(result.error)")
                XCTAssertFalse(result.output.isEmpty, "round \(round), shell \(index + 1) found \(handle)'s tweets")
            }
            let upgraders = results.filter { $0.error.contains("upgrading the store's search index") }
            XCTAssertEqual(upgraders.count, 1, "round \(round): exactly one shell upgrades, the others wait for it")
            let inspection = StoreInspection(path: store)
            XCTAssertEqual(inspection.integrityProblems(), [], "round \(round)")
            XCTAssertEqual(try inspection.query("PRAGMA user_version;"), [storeSchemaVersion], "round \(round)")
            XCTAssertEqual(
                try inspection.query(
                    "SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name LIKE 'tweets_%';"),
                ["0"], "round \(round): v1's indexes are gone")
            let counts = try inspection.counts()
            XCTAssertTrue(counts.isConsistent, "round \(round): \(counts)")
            XCTAssertEqual(counts.searchable, demoCorpusTweets, "round \(round)")
        }
    }
}
