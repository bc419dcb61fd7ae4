import Foundation
import PostgresStore
import PostgresTesting
import Synchronization
import TerminalTesting
import Testing
import TweetKit
import TweetStore

/// Ctrl-C during an import (the shell cancels the importing task): the import stops within the batch it is writing
/// (its statement cancelled on the server, the batch rolled back) or before the next one, the batches committed
/// before stay with the `imports` row that lets the next run resume after them, and the progress heard last says
/// how many tweets that is.
///
/// The importer is held at known places: decoding waits at one line (`DecodeGate`), and a batch's statement waits
/// for a lock another session holds on `tweets`; a watchdog ends that session after a minute, so an import that does not
/// stop fails the test instead of hanging it.
@Suite("Ctrl-C during a PostgreSQL import", .enabled(if: PostgresFixtures.available, "PostgreSQL is not available"))
struct PostgresCancelledImportTests {
    typealias Watchdog = PostgresConnectionQueueTests.Watchdog

    /// A `decodeLine` that holds the importer's decoding (its own queue) at line `line` until `open()`, and says when
    /// it got there.
    final class DecodeGate: Sendable {
        private let line: Int
        private let state = Mutex<(lines: Int, reached: Bool)>((0, false))
        private let gate = DispatchSemaphore(value: 0)

        init(at line: Int) { self.line = line }

        var reached: Bool { state.withLock { $0.reached } }

        func open() { gate.signal() }

        func decode(_ data: Data) throws -> Page? {
            let hold = state.withLock { state -> Bool in
                state.lines += 1
                guard state.lines == line else { return false }
                state.reached = true
                return true
            }
            if hold { gate.wait() }
            return try CollectionLineDecoder.decode(line: data, keepOriginals: true)
        }
    }

    /// The progress an import reported last.
    final class LastProgress: Sendable {
        private let last = Mutex<ImportProgress?>(nil)
        var value: ImportProgress? { last.withLock { $0 } }
        func hear(_ progress: ImportProgress) { last.withLock { $0 = progress } }
    }

    /// The file's `imports` row: line, tweets, finished.
    static func recorded(_ admin: PGConnection) throws -> [[Int64]] {
        try admin.rows("SELECT line, tweets, finished::int FROM imports") { [$0.int64(0), $0.int64(1), $0.int64(2)] }
    }

    @Test func cancellingMidBatchCancelsItsStatementRollsTheBatchBackAndResumesExactly() async throws {
        let (file, tweets) = try PostgresStoreTests.corpusFile(tweets: 3_000, seed: 31)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let (store, url) = try PostgresFixtures.store()
        defer { store.close() }
        // A store that holds a tweet already: the import keeps the text index (no bulk load) and writes through it.
        try await store.insert([Page(tweets: [Tweet(id: 1, text: "already here", authorID: 1)])])
        let pid = try store.serverProcessID()
        let admin = try PGConnection(conninfo: url)
        let gate = DecodeGate(at: 25)
        let progress = LastProgress()
        let importing = Task {
            try await store.importJSONL(at: file, batchLines: 10, decodeLine: gate.decode, progress: progress.hear)
        }
        try await PostgresFailureTests.waitUntil("two batches to commit and the third to wait in decoding") {
            gate.reached && progress.value?.lines == 20
        }
        let blocker = try PostgresFailureTests.blocker(url)
        gate.open()
        try await PostgresFailureTests.waitUntil("the third batch to wait for the lock") {
            try PostgresConnectionQueueTests.waitsForLock(admin, pid)
        }
        // Counted from the cancel: how soon the import stops is under test, not how long a loaded machine took to
        // get here (with the clock started at the beginning, a slow CI run once spent the whole minute before it).
        let watchdog = Watchdog(
            after: PostgresConnectionQueueTests.watchdogSeconds, url: url, terminating: blocker.serverProcessID)
        defer { watchdog.cancel() }
        importing.cancel()
        await #expect(throws: CancellationError.self) { _ = try await importing.value }
        // Stopped while the lock is still held: the batch's statement was cancelled on the server.
        #expect(!watchdog.fired, "the import went on until the watchdog ended the lock")
        #expect(try !PostgresConnectionQueueTests.waitsForLock(admin, pid))
        try blocker.execute("ROLLBACK")
        #expect(!watchdog.cancel())
        // The first two batches stay, the third rolled back, and the last progress heard says how many that is.
        let committed = try #require(progress.value?.tweets)
        #expect(committed == 1_000)
        #expect(try store.counts().tweets == 1 + committed)
        #expect(try Self.recorded(admin) == [[20, Int64(committed), 0]])
        let resumed = try await store.importJSONL(at: file, batchLines: 10)
        #expect(resumed.resumedAfterLine == 20)
        #expect(resumed.tweets == tweets && resumed.tweetsThisRun == tweets - committed)
        #expect(try store.counts().tweets == 1 + tweets)
    }

    @Test func cancellingABulkLoadBetweenBatchesStopsBeforeTheNextAndKeepsTheIndex() async throws {
        let (file, tweets) = try PostgresStoreTests.corpusFile(tweets: 3_000, seed: 32)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let (store, url) = try PostgresFixtures.store()
        defer { store.close() }
        let admin = try PGConnection(conninfo: url)
        let gate = DecodeGate(at: 25)
        let progress = LastProgress()
        let importing = Task {
            try await store.importJSONL(at: file, batchLines: 10, decodeLine: gate.decode, progress: progress.hear)
        }
        try await PostgresFailureTests.waitUntil("two batches to commit and the third to wait in decoding") {
            gate.reached && progress.value?.lines == 20
        }
        // Cancelled while the importer waits for the third batch's rows, between statements.
        importing.cancel()
        gate.open()
        await #expect(throws: CancellationError.self) { _ = try await importing.value }
        #expect(progress.value?.lines == 20)
        #expect(try store.counts().tweets == 1_000)
        #expect(try Self.recorded(admin) == [[20, 1_000, 0]])
        // The load into the empty store still ends as a load does: the text index is there for what was committed,
        // and autovacuum is back on.
        #expect(try admin.scalar("SELECT (to_regclass('tweets_doc') IS NOT NULL)::int") == 1)
        #expect(
            try admin.scalar(
                "SELECT (coalesce(reloptions, '{}') @> ARRAY['autovacuum_enabled=false'])::int FROM pg_class "
                    + "WHERE oid = 'tweets'::regclass") == 0)
        let resumed = try await store.importJSONL(at: file, batchLines: 10)
        #expect(resumed.resumedAfterLine == 20 && resumed.tweets == tweets)
        #expect(try store.counts().tweets == tweets)
    }

    @Test func cancellingACompressedImportCancelsItsWaitingBatch() async throws {
        let folder = TemporaryDirectory(prefix: "tweetsh-pg-cancel")
        let input = try PostgresImportShapesTests.input(.gzip, folder)
        let (store, url) = try PostgresFixtures.store()
        defer { store.close() }
        let pid = try store.serverProcessID()
        let admin = try PGConnection(conninfo: url)
        let blocker = try PostgresFailureTests.blocker(url)
        let importing = Task { try await store.importJSON(from: .file(input), collection: nil, progress: nil) }
        try await PostgresFailureTests.waitUntil("the batch to wait for the lock") {
            try PostgresConnectionQueueTests.waitsForLock(admin, pid)
        }
        // Counted from the cancel, as above.
        let watchdog = Watchdog(
            after: PostgresConnectionQueueTests.watchdogSeconds, url: url, terminating: blocker.serverProcessID)
        defer { watchdog.cancel() }
        importing.cancel()
        await #expect(throws: CancellationError.self) { _ = try await importing.value }
        #expect(!watchdog.fired, "the import went on until the watchdog ended the lock")
        try blocker.execute("ROLLBACK")
        #expect(!watchdog.cancel())
        // Nothing committed, nothing recorded; run again, it imports the whole file.
        #expect(try store.counts().tweets == 0)
        #expect(try Self.recorded(admin).isEmpty)
        let again = try await store.importJSON(from: .file(input), collection: nil, progress: nil)
        #expect(again.tweets == 120 && again.resumedAfterLine == nil)
        #expect(try store.counts().tweets == 120)
    }

    /// Ctrl-C (SIGINT) in `tweetsh -c 'import A B'` while B's first batch waits on the server: the shell prints what A
    /// brought, then says B was interrupted and how many of its tweets are committed.
    @Test func controlCInTheShellSaysWhatTheImportCommitted() async throws {
        let url = try PostgresTestServer.makeDatabase()
        let database = PostgresTestServer.databaseName(url)
        let (first, removeFirst) = try PostgresShellTests.corpus(30, seed: 48)
        defer { removeFirst() }
        let (corpus, removeSecond) = try PostgresShellTests.corpus(40, seed: 49)
        defer { removeSecond() }
        let second = corpus.deletingLastPathComponent().appendingPathComponent("second.jsonl")
        try FileManager.default.moveItem(at: corpus, to: second)
        try PostgresStore(address: url).close()
        let admin = try PGConnection(conninfo: url)
        // A collection row of the second file's name, inserted and not committed: its first batch waits for it.
        let blocker = try PGConnection(conninfo: url)
        try blocker.execute("BEGIN")
        try blocker.execute("INSERT INTO collections(name, created_at) VALUES ('second', 0)")
        let watchdog = Watchdog(
            after: PostgresConnectionQueueTests.watchdogSeconds, url: url, terminating: blocker.serverProcessID)
        defer { watchdog.cancel() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: builtProductsDirectory() + "/tweetsh")
        process.arguments = ["--store", url, "-c", "import \(first.path) \(second.path)"]
        process.environment = PostgresShellTests.Home().environment
        let (output, errors) = (Pipe(), Pipe())
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        try await PostgresFailureTests.waitUntil("the second file's batch to wait on the server") {
            try watchdog.fired || PostgresFailureTests.waiting(admin, database) == 1
        }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(!watchdog.fired, "the import went on until the watchdog ended the lock")
        try blocker.execute("ROLLBACK")
        #expect(process.terminationStatus == 1)
        #expect(printed.contains("imported 30 tweets from 1 line"), Comment(rawValue: printed))
        #expect(
            said.contains(
                "import of \(second.path) interrupted before any of its tweets were committed; running import again "
                    + "completes it"), Comment(rawValue: said))
        #expect(try PostgresStore(address: url, migrate: false).counts().tweets == 30)
    }
}
