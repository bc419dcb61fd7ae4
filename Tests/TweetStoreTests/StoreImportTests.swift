import Foundation
import Testing
import TweetKit

@testable import TweetStore

@Suite("Store import")
struct StoreImportTests {
    func write(_ lines: [String], to url: URL) throws {
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
    }

    @Test func badLinesAreCountedAndReportedWithoutStopping() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("mixed.jsonl")
        var lines: [String] = []
        for n in 1...30 {
            switch n {
            case 4: lines.append("{\"id\":\"4\",\"text\":")
            case 9: lines.append("not json at all")
            case 10: lines.append("")
            case 11: lines.append("{\"meta\":{\"result_count\":0}}")
            case 20...29: lines.append("{\"id\":\"x\"}")
            default: lines.append(Fixtures.line(id: n, text: "tweet number \(n)"))
            }
        }
        try write(lines, to: file)
        let store = try TweetStore(location: .file(folder.appendingPathComponent("t.sqlite").path))
        let report = try await store.importJSONL(at: file, decodeLine: Fixtures.decodeLine)
        #expect(report.lines == 30)
        #expect(report.tweets == 16)
        #expect(report.errorCount == 12)
        #expect(report.skippedLines == 1)
        #expect(report.problems.count == TweetStore.reportedProblems)
        #expect(report.problems.map(\.line).prefix(3) == [4, 9, 20])
        #expect(report.problems[0].message == "not a JSON object")
        #expect(report.problems[0].excerpt == "{\"id\":\"4\",\"text\":")
        #expect(report.problems[0].description == "line 4: not a JSON object")
        #expect(report.problems[2].message == "missing id or text")
        #expect(try await store.statistics().tweets == 16)
    }

    @Test func reimportIsIdempotent() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("tweets.jsonl")
        try write(
            (1...12_000).map { Fixtures.line(id: $0, text: "word\($0 % 50) shared text", author: "a\($0 % 7)") },
            to: file)
        let store = try TweetStore(location: .file(folder.appendingPathComponent("t.sqlite").path))
        let progress = ProgressLog()
        let first = try await store.importJSONL(at: file, decodeLine: Fixtures.decodeLine) { progress.append($0) }
        #expect(first.tweets == 12_000 && first.errorCount == 0)
        let updates = progress.values
        #expect(updates.count >= 3)
        #expect(updates.last?.bytesRead == updates.last?.totalBytes)
        #expect(updates.map(\.tweets) == updates.map(\.tweets).sorted())
        let before = try await store.search(SearchRequest(query: "word7", pageSize: 1_000), cursor: nil)
        let second = try await store.importJSONL(at: file, decodeLine: Fixtures.decodeLine)
        #expect(second.resumedAfterLine == nil)
        let after = try await store.search(SearchRequest(query: "word7", pageSize: 1_000), cursor: nil)
        #expect(before.tweets == after.tweets)
        #expect(after.tweets.count == 240)
        let stats = try await store.statistics()
        #expect(stats.tweets == 12_000 && stats.users == 7)
        try await store.checkIntegrity()
    }

    @Test func cancelledImportLeavesAConsistentStoreAndRerunCompletesIt() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("big.jsonl")
        try write((1...40_000).map { Fixtures.line(id: $0, text: "item \($0) alpha") }, to: file)
        let path = folder.appendingPathComponent("t.sqlite").path
        do {
            let store = try TweetStore(location: .file(path))
            let gate = ProgressLog()
            let task = Task {
                try await store.importJSONL(at: file, decodeLine: Fixtures.decodeLine) { gate.append($0) }
            }
            while gate.values.count < 2 { try await Task.sleep(for: .milliseconds(1)) }
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
            let stats = try await store.statistics()
            #expect(stats.tweets > 0 && stats.tweets < 40_000)
            // Every committed batch is whole: the import record and the tables agree.
            let recorded = try await store.database.run {
                try ImportState.load($0, path: file.standardizedFileURL.path)
            }
            #expect(recorded?.tweets == stats.tweets)
            #expect(recorded?.line == stats.tweets)
            try await store.checkIntegrity()
        }
        // A new process opening the same file continues where the first stopped.
        let reopened = try TweetStore(location: .file(path))
        let report = try await reopened.importJSONL(at: file, decodeLine: Fixtures.decodeLine)
        #expect(report.resumedAfterLine != nil)
        #expect(report.lines == 40_000 && report.tweets == 40_000)
        #expect(try await reopened.statistics().tweets == 40_000)
        let alpha = try await reopened.search(SearchRequest(query: "alpha", pageSize: 5), cursor: nil)
        #expect(alpha.tweets.map(\.id) == [40_000, 39_999, 39_998, 39_997, 39_996])
        try await reopened.checkIntegrity()
    }

    /// Batches are queued on the writer ahead of time, so when one fails the one queued behind it must not commit:
    /// its progress record would claim the failed batch's lines, and running the import again would skip them.
    @Test func batchQueuedBehindAFailedOneDoesNotCommit() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("four-batches.jsonl")
        try write((1...16_000).map { Fixtures.line(id: $0, text: "row \($0) beta") }, to: file)
        let path = folder.appendingPathComponent("t.sqlite").path
        let store = try TweetStore(location: .file(path))
        // The second batch (lines 5,001-10,000) fails inside its transaction; the third is queued behind it by then.
        try await store.database.run {
            try $0.execute(
                "CREATE TRIGGER fail_once BEFORE INSERT ON tweets WHEN NEW.id = 7000 BEGIN SELECT RAISE(ABORT, 'injected failure'); END"
            )
        }
        let failed = await #expect(throws: StoreError.self) {
            try await store.importJSONL(at: file, decodeLine: Fixtures.decodeLine)
        }
        // SQLite's words stay out of the message; the diagnostic keeps them for debugging.
        #expect(failed?.diagnostic?.contains("injected failure") == true, "\(String(describing: failed))")
        try await store.database.run { try $0.execute("DROP TRIGGER fail_once") }
        let recorded = try await store.database.run { try ImportState.load($0, path: file.standardizedFileURL.path) }
        #expect(recorded?.line == 5_000 && recorded?.tweets == 5_000)
        #expect(try await store.statistics().tweets == 5_000)
        let report = try await store.importJSONL(at: file, decodeLine: Fixtures.decodeLine)
        #expect(report.resumedAfterLine == 5_000)
        #expect(try await store.statistics().tweets == 16_000)
        try await store.checkIntegrity()
    }

    @Test func transactionKilledMidBatchRollsBack() async throws {
        // What a kill during a write leaves behind: a transaction that never committed. SQLite discards it when the
        // next connection opens the file, and the import record still names the last whole batch.
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("t.sqlite").path
        do {
            let store = try TweetStore(location: .file(path))
            try await store.insert([Fixtures.page])
            try await store.database.run { connection in
                try connection.execute("BEGIN IMMEDIATE")
                let writer = try Writer(connection: connection)
                try writer.write(Page(tweets: [Tweet(id: 9_999, text: "half written")]))
                // No COMMIT: the connection closes with the transaction open.
            }
        }
        let reopened = try TweetStore(location: .file(path))
        #expect(try await reopened.search(SearchRequest(query: "half"), cursor: nil).tweets.isEmpty)
        #expect(try await reopened.statistics().tweets == 6)
        try await reopened.checkIntegrity()
    }

    @Test func lineReaderHandlesChunkBoundariesAndCRLF() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("lines.txt")
        try Data("one\r\ntwo\n\nthree-is-longer\nlast".utf8).write(to: file)
        let reader = RecordReader(source: try DescriptorSource(path: file.path), framing: .lines, chunkSize: 3)
        var lines: [String] = []
        var numbers: [Int] = []
        while let line = try reader.next() {
            if case .text(let data, let number) = line {
                lines.append(String(decoding: data, as: UTF8.self))
                numbers.append(number)
            }
        }
        #expect(lines == ["one", "two", "", "three-is-longer", "last"])
        #expect(numbers == [1, 2, 3, 4, 5])
        #expect(reader.offset == 30)
    }
}

/// Collects progress reports from the importer's callback.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [ImportProgress] = []
    func append(_ progress: ImportProgress) { lock.withLock { stored.append(progress) } }
    var values: [ImportProgress] { lock.withLock { stored } }
}
