import Foundation
import PostgresTesting
import TerminalTesting
import Testing
import TweetKit

@testable import PostgresStore

@Suite("A killed PostgreSQL importer", .enabled(if: PostgresFixtures.available, "PostgreSQL is not available"))
struct PostgresKilledImportTests {
    /// An importing process is killed with SIGKILL in its third batch; the import run again resumes after the
    /// second and ends with every tweet exactly once (the third batch, blocked in its decoding, never commits).
    @Test func killNineThenResumeGivesExactCounts() async throws {
        let (file, tweets) = try PostgresStoreTests.corpusFile(tweets: 3_000, seed: 21)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let (store, url) = try PostgresFixtures.store()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: builtProductsDirectory() + "/postgres-import-probe")
        process.arguments = [url, file.path, "10", "25"]
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        // Synchronise on the probe's own word that it reached line 25 (two batches committed), then kill it.
        var heard = ""
        while !heard.contains("stopped 25") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            heard += String(decoding: chunk, as: UTF8.self)
        }
        #expect(heard.contains("stopped 25"))
        // The importer decodes ahead of what it writes: the first two batches commit while the third one's decoding
        // waits at line 25. Wait (bounded) until they have, so the kill lands after them and before the third.
        let deadline = Date().addingTimeInterval(30)
        while try store.counts().tweets < 1_000, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(try store.counts().tweets == 1_000)
        let resumed = try await store.importJSONL(at: file, batchLines: 10)
        #expect(resumed.resumedAfterLine == 20)
        #expect(resumed.tweets == tweets)
        #expect(try store.counts().tweets == tweets)
    }
}
