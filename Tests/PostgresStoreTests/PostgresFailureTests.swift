import Foundation
import PostgresStore
import PostgresTesting
import TerminalTesting
import Testing
import TweetKit

/// A server that stops while a search is in flight, and Ctrl-C during a long query: the search is held in flight by
/// a lock another session takes on `tweets`, so "the query is running on the server" is an observable state
/// (`pg_stat_activity`), not a guess about timing.
@Suite("PostgreSQL failures", .enabled(if: PostgresFixtures.available, "PostgreSQL is not available"))
struct PostgresFailureTests {
    static let prompt = "tweetsh (local, no key)> "

    struct TimedOut: Error, CustomStringConvertible { var description: String }

    /// Polls `condition` until it holds (60 s at most, a bound for a loaded machine): it reads the server's state,
    /// which has no event to wait on.
    static func waitUntil(_ what: String, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(60)
        while try !condition() {
            guard Date() < deadline else { throw TimedOut(description: "timed out waiting for \(what)") }
            usleep(20_000)
        }
    }

    /// `waitUntil` for async tests: it sleeps without holding a thread of the task pool, which the task it waits
    /// for needs (two threads on this machine, shared by every test running at once).
    static func waitUntil(_ what: String, _ condition: () throws -> Bool) async throws {
        let deadline = Date().addingTimeInterval(60)
        while try !condition() {
            guard Date() < deadline else { throw TimedOut(description: "timed out waiting for \(what)") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Sessions of `database` other than `admin`'s whose statement waits for a lock.
    static func waiting(_ admin: PGConnection, _ database: String) throws -> Int64 {
        try admin.scalar(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() "
                + "AND wait_event_type = 'Lock'", [.text(database)]) ?? 0
    }

    /// A session holding an exclusive lock on `tweets` until its transaction ends.
    static func blocker(_ url: String) throws -> PGConnection {
        let blocker = try PGConnection(conninfo: url)
        try blocker.execute("BEGIN")
        try blocker.execute("LOCK TABLE tweets IN ACCESS EXCLUSIVE MODE")
        return blocker
    }

    @Test func cancellingASearchStopsItOnTheServerAndKeepsTheConnection() async throws {
        let (store, url) = try PostgresFixtures.store()
        defer { store.close() }
        try await store.insert(Array(DemoCorpus(seed: 3, tweetCount: 60, pageSize: 60)))
        let pid = try store.serverProcessID()
        let admin = try PGConnection(conninfo: url)
        let blocker = try Self.blocker(url)
        let request = SearchRequest(query: "lang:en", pageSize: 10)
        let search = Task { try await store.search(request, cursor: nil) }
        try await Self.waitUntil("the search to wait on the server") {
            try admin.scalar(
                "SELECT count(*) FROM pg_stat_activity WHERE pid = $1 AND wait_event_type = 'Lock'",
                [.integer(Int64(pid))]) == 1
        }
        search.cancel()
        // Cancelled on the server while the lock is still held: nothing of that session runs any more. (Without the
        // cancel this times out, and the lock goes with `blocker` at the end, so the test fails instead of hanging.)
        try await Self.waitUntil("the server to end the cancelled statement") {
            try admin.scalar(
                "SELECT count(*) FROM pg_stat_activity WHERE pid = $1 AND state = 'active'", [.integer(Int64(pid))])
                == 0
        }
        await #expect(throws: CancellationError.self) { _ = try await search.value }
        try blocker.execute("ROLLBACK")
        #expect(try store.serverProcessID() == pid, "the connection is kept")
        #expect(try await store.search(request, cursor: nil).tweets.count == 10)
    }

    @Test func controlCDuringALongQueryCancelsItOnTheServer() throws {
        let url = try PostgresTestServer.makeDatabase()
        let database = PostgresTestServer.databaseName(url)
        let (file, remove) = try PostgresShellTests.corpus(30, seed: 46)
        defer { remove() }
        let home = PostgresShellTests.Home()
        let seeded = try home.run(["--store", url, "-c", "import \(file.path)"])
        #expect(seeded.status == 0, Comment(rawValue: seeded.standardError))
        let terminal = try PseudoTerminal(
            executable: builtProductsDirectory() + "/tweetsh", arguments: ["--store", url],
            environment: home.environment, columns: 120, rows: 40)
        try terminal.waitForPrompt(Self.prompt, timeout: 20)
        let admin = try PGConnection(conninfo: url)
        let blocker = try Self.blocker(url)
        terminal.type("search lang:en\r")
        try Self.waitUntil("the shell's search to wait on the server") { try Self.waiting(admin, database) == 1 }
        terminal.type("\u{03}")
        try terminal.waitForPrompt(Self.prompt, timeout: 20)
        // The lock is still held, and no statement of the shell's waits for it any more.
        try Self.waitUntil("the server to drop the cancelled statement") { try Self.waiting(admin, database) == 0 }
        try blocker.execute("ROLLBACK")
        terminal.type("search from:nobody\r")
        let answer = try terminal.waitFor("no results", timeout: 20)
        #expect(!answer.contains("canceling statement") && !answer.contains("57014"))
        try terminal.waitForPrompt(Self.prompt, timeout: 20)
        terminal.type("quit\r")
        #expect(try terminal.waitForExit(timeout: 20) == 0)
    }

    @Test func aServerStoppedMidSearchCostsOneCommandAndTheShellReconnects() throws {
        let cluster = try PrivateTestCluster()
        let (file, remove) = try PostgresShellTests.corpus(30, seed: 47)
        defer { remove() }
        let home = PostgresShellTests.Home()
        let seeded = try home.run(["--store", cluster.url, "-c", "import \(file.path)"])
        #expect(seeded.status == 0, Comment(rawValue: seeded.standardError))
        let terminal = try PseudoTerminal(
            executable: builtProductsDirectory() + "/tweetsh", arguments: ["--store", cluster.url],
            environment: home.environment, columns: 120, rows: 40)
        try terminal.waitForPrompt(Self.prompt, timeout: 20)
        let admin = try PGConnection(conninfo: cluster.url)
        let blocker = try Self.blocker(cluster.url)
        terminal.type("search lang:en\r")
        try Self.waitUntil("the shell's search to wait on the server") { try Self.waiting(admin, "postgres") == 1 }
        try cluster.stop(mode: "immediate")
        _ = blocker
        let failed = try terminal.waitFor("the next command connects again", timeout: 20)
        try terminal.waitForPrompt(Self.prompt, timeout: 20)
        // While the server is down, a command says so in a sentence, and the shell stays.
        terminal.type("search lang:en\r")
        let down = try terminal.waitFor("cannot reach", timeout: 20)
        try terminal.waitForPrompt(Self.prompt, timeout: 20)
        try cluster.start()
        terminal.type("search from:nobody\r")
        _ = try terminal.waitFor("no results", timeout: 20)
        try terminal.waitForPrompt(Self.prompt, timeout: 20)
        for text in [failed, down] {
            for leak in ["FATAL", "terminat", "server closed", "pg_", "SQLSTATE", "libpq", "57P", "unexpectedly"] {
                #expect(!text.contains(leak), "\(leak) in \(text)")
            }
        }
        terminal.type("quit\r")
        #expect(try terminal.waitForExit(timeout: 20) == 0)
    }
}
