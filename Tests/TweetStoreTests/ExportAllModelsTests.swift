import Foundation
import Testing
import TweetKit

@testable import TweetStore

/// `exportAll` reads a tweet that has an original with only the relations its page's includes come from
/// (`TweetRecord.relations(from:offset:)`). Whatever the format, its file must equal the pages a search reads with
/// whole models and `withOriginals` fills in, written one after another, also on a store mixing rows that have no
/// original.
@Suite("Export all reads relations only")
struct ExportAllModelsTests {
    @Test(arguments: [ExportFormat.twarc2JSONL, .flattenedJSONL, .csv])
    func exportEqualsPagesOfWholeModels(format: ExportFormat) async throws {
        let (folder, store) = try await Self.demoStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected = try await Self.pagesExport(store, format: format)
        Self.expectSameLines(try await Self.exportAll(store, format: format, folder: folder), expected)
    }

    @Test(arguments: [ExportFormat.twarc2JSONL, .flattenedJSONL, .csv])
    func mixedStoreExportEqualsPagesOfWholeModels(format: ExportFormat) async throws {
        let (folder, store) = try await Self.demoStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        // As if every third row had been written before the store kept originals.
        let cleared = try await store.database.run { connection in
            try connection.execute("UPDATE tweets SET original = NULL, twarc = NULL WHERE id % 3 = 0")
            return connection.changes
        }
        #expect(cleared > 100)
        let expected = try await Self.pagesExport(store, format: format)
        let exported = try await Self.exportAll(store, format: format, folder: folder)
        Self.expectSameLines(exported, expected)
        // Rows without an original are written from their whole models: their text is there.
        let sample = try await store.database.run { connection in
            try connection.rows("SELECT text FROM tweets WHERE id % 3 = 0 AND original IS NULL LIMIT 5") {
                $0.text(0)
            }
        }
        #expect(sample.count == 5)
        let text = String(decoding: exported, as: UTF8.self)
        for body in sample {
            let escaped = String(decoding: try JSONEncoder().encode(body), as: UTF8.self).dropFirst().dropLast()
            #expect(format == .csv || text.contains(escaped), "\(body)")
        }
    }

    /// Equal files, or the first line that differs (a failure printing two whole exports says nothing).
    private static func expectSameLines(_ exported: [UInt8], _ expected: [UInt8]) {
        let got = String(decoding: exported, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let want = String(decoding: expected, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(got.count == want.count, "line counts")
        if let line = (0..<min(got.count, want.count)).first(where: { got[$0] != want[$0] }) {
            Issue.record("line \(line + 1) differs:\n\(got[line].prefix(400))\n\(want[line].prefix(400))")
        }
    }

    private static let query = "since:2000-01-01"
    private static let pageSize = 300

    private static func demoStore() async throws -> (URL, TweetStore) {
        let folder = try Fixtures.temporaryDirectory()
        let file = folder.appendingPathComponent("corpus.jsonl")
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        let handle = try FileHandle(forWritingTo: file)
        try DemoCorpus(seed: 5, tweetCount: 1_500).writeTwarc2JSONL(to: handle)
        try handle.close()
        let store = try TweetStore(location: .file(folder.appendingPathComponent("t.sqlite").path))
        let report = try await store.importJSONL(at: file)
        #expect(report.tweets == 1_500 && report.errorCount == 0)
        return (folder, store)
    }

    private static var metadata: TwarcMetadata {
        TwarcMetadata(url: "tweetsh:test", retrievedAt: Date(timeIntervalSince1970: 0))
    }

    /// The pages a search reads, with whole models and their originals, encoded one after another.
    private static func pagesExport(_ store: TweetStore, format: ExportFormat) async throws -> [UInt8] {
        var exporter = PageExporter(format: format, metadata: metadata)
        var output = JSONWriter(capacity: 1 << 20)
        var request = SearchRequest(query: query, pageSize: pageSize)
        request.prefixLastWord = false
        var cursor: String?
        var pages = 0
        repeat {
            var page = try await store.withOriginals(try await store.search(request, cursor: cursor))
            cursor = page.nextToken
            page.nextToken = nil
            exporter.encode(page, into: &output)
            pages += 1
        } while cursor != nil
        #expect(pages > 3)
        return output.bytes
    }

    private static func exportAll(_ store: TweetStore, format: ExportFormat, folder: URL) async throws -> [UInt8] {
        let output = folder.appendingPathComponent("export-\(format).out")
        #expect(FileManager.default.createFile(atPath: output.path, contents: nil))
        let handle = try FileHandle(forWritingTo: output)
        let writer = ExportFileWriter(handle: handle, format: format, metadata: metadata)
        _ = try await store.exportAll(
            try SearchQuery(parsing: query), request: SearchRequest(query: query, pageSize: pageSize), to: writer)
        try writer.finish()
        try handle.close()
        return Array(try Data(contentsOf: output))
    }
}
