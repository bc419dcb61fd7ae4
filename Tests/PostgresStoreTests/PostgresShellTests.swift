import Foundation
import PostgresStore
import PostgresTesting
import TerminalTesting
import Testing
import TweetKit

/// The tweetsh binary on a PostgreSQL store: the same session prints the same as on SQLite, `store init` makes the
/// roles, a reader is refused on import and keeps its search history on its own machine, and a server that drops the
/// shell's session costs one command, not the shell.
@Suite("The shell on PostgreSQL", .enabled(if: PostgresFixtures.available, "PostgreSQL is not available"))
struct PostgresShellTests {
    /// A private HOME with XDG folders inside it, as the end-to-end tests use.
    final class Home {
        let folder = TemporaryDirectory(prefix: "tweetsh-pg-shell")

        var environment: [String: String] {
            [
                "HOME": folder.path, "XDG_CONFIG_HOME": folder.file("config"), "XDG_DATA_HOME": folder.file("data"),
                "XDG_STATE_HOME": folder.file("state"), "PATH": "/usr/bin:/bin", "TERM": "xterm-256color",
                "NO_COLOR": "1", "LANG": "C.UTF-8",
            ]
        }

        func run(_ arguments: [String], extra: [String: String] = [:]) throws -> ProcessRun {
            try ProcessRun.run(
                builtProductsDirectory() + "/tweetsh", arguments: arguments,
                environment: environment.merging(extra) { $1 }, input: "")
        }
    }

    static func corpus(_ tweets: Int, seed: UInt64) throws -> (URL, () -> Void) {
        let (file, _) = try PostgresStoreTests.corpusFile(tweets: tweets, seed: seed)
        return (file, { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) })
    }

    @Test func aSessionPrintsTheSameOnBothStores() throws {
        let (file, remove) = try Self.corpus(80, seed: 41)
        defer { remove() }
        let script = "import \(file.path); search lang:en; more; show 3; count lang:en --by day; search from:nobody"
        let sqliteHome = Home()
        let sqlite = try sqliteHome.run(["--store", sqliteHome.folder.file("tweets.sqlite"), "-c", script])
        let postgres = try Home().run(["--store", try PostgresTestServer.makeDatabase(), "-c", script])
        #expect(sqlite.status == 0, Comment(rawValue: sqlite.standardError))
        #expect(postgres.status == 0, Comment(rawValue: postgres.standardError))
        #expect(postgres.standardOutput.contains("imported 80 tweets"))
        #expect(postgres.standardOutput == sqlite.standardOutput)
        #expect(!postgres.standardError.contains("error"), Comment(rawValue: postgres.standardError))
    }

    @Test func storeInitMakesAReaderThatSearchesButCannotImport() throws {
        let owner = try PostgresTestServer.makeDatabase()
        let database = PostgresTestServer.databaseName(owner)
        let (importer, reader) = ("imp_" + database, "rd_" + database)
        let secrets = ["imp-\(UUID().uuidString.prefix(8))", "rd-\(UUID().uuidString.prefix(8))"]
        let home = Home()
        let made = try home.run(
            ["store", "init", owner, "--importer", importer, "--reader", reader],
            extra: ["TWEETSH_IMPORTER_PASSWORD": secrets[0], "TWEETSH_READER_PASSWORD": secrets[1]])
        #expect(made.status == 0, Comment(rawValue: made.standardError))
        #expect(made.standardOutput.contains("created the PostgreSQL store"))
        let (file, remove) = try Self.corpus(40, seed: 42)
        defer { remove() }
        let importerURL = try PostgresTestServer.url(database: database, user: importer, password: secrets[0])
        let imported = try home.run(["--store", importerURL, "-c", "import \(file.path)"])
        #expect(imported.status == 0, Comment(rawValue: imported.standardError))
        #expect(imported.standardOutput.contains("imported 40 tweets"))

        let readerURL = try PostgresTestServer.url(database: database, user: reader, password: secrets[1])
        let refused = try home.run(["--store", readerURL, "-c", "import \(file.path)"])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("this store is read-only for you"))
        let searched = try home.run(["--store", readerURL, "-c", "search lang:en; collections"])
        #expect(searched.status == 0, Comment(rawValue: searched.standardError))
        #expect(searched.standardOutput.contains("corpus"))
        #expect(searched.standardError.contains("is read-only for you"))
        // The reader's search history is on its own machine, and no password is anywhere.
        let historyFolder = home.folder.file("state") + "/tweetsh/postgres"
        let files = (try? FileManager.default.contentsOfDirectory(atPath: historyFolder)) ?? []
        #expect(files.contains { $0.hasSuffix(".sqlite") })
        for run in [made, imported, refused, searched] {
            for secret in secrets {
                #expect(!run.standardOutput.contains(secret) && !run.standardError.contains(secret))
            }
        }
        for name in files {
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: historyFolder + "/" + name))) ?? Data()
            for secret in secrets { #expect(bytes.range(of: Data(secret.utf8)) == nil) }
        }
        let history = try home.run(["--store", readerURL, "-c", "history searches"])
        #expect(history.standardOutput.contains("lang:en"))
    }

    @Test func aDroppedSessionFailsOneCommandAndTheNextReconnects() throws {
        let url = try PostgresTestServer.makeDatabase()
        let (file, remove) = try Self.corpus(30, seed: 43)
        defer { remove() }
        let home = Home()
        let seeded = try home.run(["--store", url, "-c", "import \(file.path)"])
        #expect(seeded.status == 0, Comment(rawValue: seeded.standardError))
        let terminal = try PseudoTerminal(
            executable: builtProductsDirectory() + "/tweetsh", arguments: ["--store", url],
            environment: home.environment, columns: 120, rows: 40)
        let prompt = "tweetsh (local, no key)> "
        try terminal.waitForPrompt(prompt, timeout: 20)
        terminal.type("search lang:en\r")
        try terminal.waitForPrompt(prompt, timeout: 20)
        // The server ends the shell's session, as a restart or a failover would.
        let admin = try PGConnection(conninfo: url)
        try admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
            [.text(PostgresTestServer.databaseName(url))])
        terminal.type("search lang:en\r")
        let failed = try terminal.waitFor("the next command connects again", timeout: 20)
        #expect(!failed.contains("FATAL") && !failed.contains("terminat") && !failed.contains("pg_"))
        try terminal.waitForPrompt(prompt, timeout: 20)
        terminal.type("search from:nobody\r")
        _ = try terminal.waitFor("no results", timeout: 20)
        try terminal.waitForPrompt(prompt, timeout: 20)
        terminal.type("quit\r")
        #expect(try terminal.waitForExit(timeout: 20) == 0)
    }

    @Test func aRoleThatCannotCreateTheSchemaIsToldToRunStoreInit() throws {
        // A reader role made by `store init` on another database (roles belong to the cluster) opens an empty one.
        let other = try PostgresTestServer.makeDatabase()
        let role = "rd_" + PostgresTestServer.databaseName(other)
        try PostgresStore.initialize(
            address: other,
            roles: PostgresRoles(importer: "imp_" + PostgresTestServer.databaseName(other), reader: role),
            importerPassword: nil, readerPassword: "plain-secret")
        let empty = PostgresTestServer.databaseName(try PostgresTestServer.makeDatabase())
        let address = try PostgresTestServer.url(database: empty, user: role, password: "plain-secret")
        let run = try Home().run(["--store", address, "-c", "search x"])
        #expect(run.status == 1)
        #expect(run.standardError.contains("has no tweetsh schema yet; run `tweetsh store init` as its owner"))
    }
}
