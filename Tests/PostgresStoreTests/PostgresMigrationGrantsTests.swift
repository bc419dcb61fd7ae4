import Foundation
import PostgresTesting
import StoreTesting
import TerminalTesting
import Testing
import TweetKit
import TweetStore

@testable import PostgresStore

/// A store `tweetsh store init` set up at an older schema, then migrated by its owner: the roles it made keep their
/// rights on the tables the later versions add (the reader reads them, the importer writes them), as on a store made
/// at the current version.
@Suite("Grants across migrations", .enabled(if: PostgresFixtures.available, "PostgreSQL is not available"))
struct PostgresMigrationGrantsTests {
    /// Whether `role` has `privilege` on `table`.
    static func has(_ admin: PGConnection, _ role: String, _ privilege: String, on table: String) throws -> Bool {
        try admin.scalar(
            "SELECT has_table_privilege($1, $2, $3)::int", [.text(role), .text(table), .text(privilege)]) == 1
    }

    @Test(arguments: [1, 2])
    func rolesKeepTheirRightsOnTheTablesLaterVersionsAdd(initializedAt version: Int) async throws {
        let (url, roles) = try PostgresAccessTests.initialized(
            importerPassword: "imp-Grant-1", readerPassword: "rd-Grant-2")
        let admin = try PGConnection(conninfo: url)
        // The store as `store init` left it at that version: the later tables, and so any grant on them, not there.
        try admin.executeScript(
            "DROP TABLE object_originals; DROP TABLE twarc_blocks; ALTER TABLE tweet_originals DROP COLUMN twarc;",
            doing: "downgrading")
        if version == 1 {
            try PostgresSchemaVersion2Tests.downgrade(admin)
            try admin.executeScript("DROP TABLE IF EXISTS zstd_dictionaries;", doing: "downgrading")
        } else {
            try admin.executeScript(
                "DROP TABLE hydrated_ids; DROP TABLE reply_handles; DROP TABLE zstd_dictionaries; "
                    + "UPDATE tweetsh_schema SET version = 2;",
                doing: "downgrading")
        }
        #expect(try PostgresSchema.version(admin) == version)
        try PostgresStore(address: url).close()
        #expect(try PostgresSchema.version(admin) == PostgresSchema.currentVersion)

        let added =
            ["hydrated_ids", "reply_handles", "zstd_dictionaries", "object_originals", "twarc_blocks"]
            + (version == 1 ? ["tweet_originals"] : [])
        for table in added {
            #expect(try Self.has(admin, roles.reader, "SELECT", on: table), "reader on \(table)")
            #expect(try !Self.has(admin, roles.reader, "INSERT", on: table), "reader on \(table)")
            for privilege in ["SELECT", "INSERT", "UPDATE", "DELETE"] {
                #expect(try Self.has(admin, roles.importer, privilege, on: table), "importer \(privilege) on \(table)")
            }
        }
        // And they use them: the importer settles hydrated ids and keeps an archive's reply handles; the reader
        // reads the ledger and finds the replies by handle.
        let database = PostgresTestServer.databaseName(url)
        let importer = try PostgresStore(
            address: try PostgresTestServer.url(database: database, user: roles.importer, password: "imp-Grant-1"),
            migrate: false)
        defer { importer.close() }
        try await importer.recordHydration(
            Page(tweets: [Tweet(id: 5, text: "hydrated", authorID: 1)]), collection: "hydrated", hydrated: [5],
            missing: [HydrationMiss(id: 6, reason: "Not Found Error")])
        let folder = TemporaryDirectory(prefix: "tweetsh-pg-grants")
        let archive = try PostgresImportShapesTests.input(.archiveFolder, folder)
        _ = try await importer.importArchive(at: archive, collection: nil, progress: nil)
        let reader = try PostgresStore(
            address: try PostgresTestServer.url(database: database, user: roles.reader, password: "rd-Grant-2"),
            migrate: false)
        defer { reader.close() }
        let ledger = try await reader.hydrationLedger(collection: "hydrated")
        #expect(ledger.hydrated == [5] && Set(ledger.missing.keys) == [6])
        let replies = try await reader.search(SearchRequest(query: "to:alice", pageSize: 50), cursor: nil)
        #expect(replies.tweets.count == 10)
        // The importer keeps a collection's places, polls and `__twarc` blocks, and the reader reads them back.
        let fixture = URL(fileURLWithPath: folder.file("lossless.jsonl"))
        try LosslessFixture.jsonl.write(to: fixture)
        _ = try await importer.importJSON(from: .file(fixture), collection: nil, progress: nil)
        let page = try await reader.withOriginals(
            try await reader.search(SearchRequest(query: "lossless", pageSize: 50), cursor: nil))
        #expect(page.tweets.count == 6)
        #expect(page.tweets.allSatisfy { page.originals.twarc(for: $0.id) != nil })
        #expect(Set(page.originals.places.keys) == ["01a9a39529b27f36"])
        #expect(Set(page.originals.polls.keys) == ["1700000000000009999"])
    }
}
