import Foundation
import PostgresStore
import PostgresTesting
import Synchronization
import TerminalTesting
import Testing
import TweetKit
import TweetStore

/// The store's connection runs on a queue of its own: queries that wait on the server hold no thread of Swift's
/// cooperative pool, and `close()` cancels the running statement instead of waiting for it.
///
/// The waits are made by a lock another session takes on `tweets`, so "the query is running on the server" is an
/// observable state (`pg_stat_activity`). Code that blocks pool threads starves the test itself, so a watchdog on a
/// thread of its own ends the locking session after a minute: such code fails the test instead of hanging it.
@Suite(
    "The PostgreSQL store's connection queue", .enabled(if: PostgresFixtures.available, "PostgreSQL is not available"))
struct PostgresConnectionQueueTests {
    /// How long a watchdog waits: far longer than any wait it guards takes on a loaded machine (milliseconds here).
    static let watchdogSeconds = 60

    /// Ends the session `pid` of the database at `url` after `seconds` unless cancelled first, from a dispatch
    /// thread (never the cooperative pool, which the code under test may have starved).
    final class Watchdog: Sendable {
        private let state = Mutex<(fired: Bool, cancelled: Bool)>((false, false))

        init(after seconds: Int, url: String, terminating pid: Int32) {
            DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(seconds)) {
                self.fire(url: url, terminating: pid)
            }
        }

        private func fire(url: String, terminating pid: Int32) {
            let fire = state.withLock { state -> Bool in
                guard !state.cancelled else { return false }
                state.fired = true
                return true
            }
            guard fire, let admin = try? PGConnection(conninfo: url) else { return }
            _ = try? admin.execute("SELECT pg_terminate_backend($1)", [.integer(Int64(pid))])
        }

        /// Whether the watchdog had to end the session: the code under test did not get there by itself.
        var fired: Bool { state.withLock { $0.fired } }

        /// Stops the watchdog; returns whether it had fired already.
        @discardableResult
        func cancel() -> Bool {
            state.withLock { state in
                state.cancelled = true
                return state.fired
            }
        }
    }

    /// Holds the first caller of `pass()` until `open()`, and counts the callers.
    final class FirstPassGate: Sendable {
        private let state = Mutex<(passes: Int, reached: Bool)>((0, false))
        private let gate = DispatchSemaphore(value: 0)

        var reached: Bool { state.withLock { $0.reached } }
        var passes: Int { state.withLock { $0.passes } }

        func open() { gate.signal() }

        func pass() {
            let first = state.withLock { state -> Bool in
                state.passes += 1
                state.reached = true
                return state.passes == 1
            }
            if first { gate.wait() }
        }
    }

    /// Whether the server session `pid` is waiting for a lock.
    static func waitsForLock(_ admin: PGConnection, _ pid: Int32) throws -> Bool {
        try admin.scalar(
            "SELECT count(*) FROM pg_stat_activity WHERE pid = $1 AND wait_event_type = 'Lock'",
            [.integer(Int64(pid))]) == 1
    }

    @Test func queriesWaitingOnTheServerLeaveThePoolFreeForOtherWork() async throws {
        let (store, url) = try PostgresFixtures.store()
        defer { store.close() }
        try await store.insert(Array(DemoCorpus(seed: 3, tweetCount: 60, pageSize: 60)))
        let pid = try store.serverProcessID()
        let admin = try PGConnection(conninfo: url)
        let blocker = try PostgresFailureTests.blocker(url)
        let watchdog = Watchdog(after: Self.watchdogSeconds, url: url, terminating: blocker.serverProcessID)
        defer { watchdog.cancel() }
        // More searches than the pool has threads: one waits for the lock on the server, the others for the store's
        // connection. Blocking, each would hold a pool thread.
        let searchers = 2 * ProcessInfo.processInfo.activeProcessorCount + 2
        let request = SearchRequest(query: "lang:en", pageSize: 10)
        let searches = (0..<searchers).map { _ in Task { try await store.search(request, cursor: nil).tweets.count } }
        try await PostgresFailureTests.waitUntil("the store's search to wait on the server") {
            try watchdog.fired || Self.waitsForLock(admin, pid)
        }
        try #require(!watchdog.fired, "the pool was starved until the watchdog ended the lock")
        // Other async work runs meanwhile: a task of its own, and the store's own search history (an SQLite file on
        // its own queue).
        let other = try await Task {
            try await store.recordSearch(SearchHistoryEntry(query: "meanwhile", source: "local", lastRun: Date()))
            return try await store.searchHistory(limit: 5).map(\.query)
        }.value
        #expect(other == ["meanwhile"])
        #expect(try Self.waitsForLock(admin, pid), "the searches were still waiting while the other work ran")
        #expect(!watchdog.fired)
        try blocker.execute("ROLLBACK")
        for search in searches { #expect(try await search.value == 10) }
        #expect(!watchdog.cancel())
    }

    @Test func closeCancelsTheRunningStatementAndReturnsAtOnce() async throws {
        let (store, url) = try PostgresFixtures.store()
        defer { store.close() }
        try await store.insert(Array(DemoCorpus(seed: 4, tweetCount: 60, pageSize: 60)))
        let pid = try store.serverProcessID()
        let admin = try PGConnection(conninfo: url)
        let blocker = try PostgresFailureTests.blocker(url)
        let watchdog = Watchdog(after: Self.watchdogSeconds, url: url, terminating: blocker.serverProcessID)
        defer { watchdog.cancel() }
        let request = SearchRequest(query: "lang:en", pageSize: 10)
        let running = Task { try await store.search(request, cursor: nil).tweets.count }
        try await PostgresFailureTests.waitUntil("the search to wait on the server") {
            try watchdog.fired || Self.waitsForLock(admin, pid)
        }
        store.close()
        // The lock is still held: close did not wait for the query to end, it cancelled it.
        #expect(!watchdog.fired, "close waited until the watchdog ended the lock")
        let error = await #expect(throws: PostgresError.self) { try await running.value }
        #expect(error?.kind == .closed)
        try await PostgresFailureTests.waitUntil("the cancelled statement to leave the server") {
            try !Self.waitsForLock(admin, pid)
        }
        #expect(!watchdog.fired)
        try blocker.execute("ROLLBACK")
        // The next command connects again.
        #expect(try await store.search(request, cursor: nil).tweets.count == 10)
        #expect(try store.serverProcessID() != pid)
        #expect(!watchdog.cancel())
    }

    @Test func anExportCancelledBetweenPagesStopsAtItsNextFetch() async throws {
        let (store, _) = try PostgresFixtures.store()
        defer { store.close() }
        try await store.insert(Array(DemoCorpus(seed: 5, tweetCount: 200, pageSize: 100)))
        let folder = TemporaryDirectory(prefix: "tweetsh-pg-export-cancel")
        let path = folder.file("export.jsonl")
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let writer = ExportFileWriter(handle: handle, format: .twarc2JSONL)
        let gate = FirstPassGate()
        let request = SearchRequest(query: "-zzzz", pageSize: 10)
        let query = try SearchQuery(parsing: request.query)
        let export = Task { try await store.exportAll(query, request: request, to: writer) { _ in gate.pass() } }
        try await PostgresFailureTests.waitUntil("the first page to be written") { gate.reached }
        // Cancelled while the store writes the first page and the server is idle, where a `PQcancel` does nothing:
        // the export stops at its next `FETCH`.
        export.cancel()
        gate.open()
        await #expect(throws: CancellationError.self) { _ = try await export.value }
        #expect(gate.passes == 1)
        #expect(try await store.search(request, cursor: nil).tweets.count == 10)
    }
}
