import Foundation
import Testing
import TweetKit

@testable import TweetStore

/// Imports of what users hold: compressed files found by their bytes, pretty-printed documents and arrays, files that
/// are not JSON at all, values that are not tweets, and resumed imports of each.
@Suite("Import input shapes")
struct StoreInputShapeTests {
    /// A twarc2 JSONL collection of generated tweets: 600 tweets on 12 lines.
    static let collection: [UInt8] = {
        let folder = try! Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("corpus.jsonl")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try! FileHandle(forWritingTo: file)
        try! DemoCorpus(seed: 7, tweetCount: 600, pageSize: 50).writeTwarc2JSONL(to: handle)
        try! handle.close()
        return Array(try! Data(contentsOf: file))
    }()

    static var collectionLines: [[UInt8]] {
        collection.split(separator: 0x0A).map(Array.init)
    }

    struct Counts: Equatable {
        var tweets: Int
        var stored: Int
        var users: Int
        var errors: Int
    }

    func importBytes(_ bytes: [UInt8], named name: String = "input.bin") async throws -> (ImportReport, Counts) {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        let store = try TweetStore(location: .inMemory)
        let report = try await store.importJSON(
            from: .file(file), decodeLine: { try CollectionLineDecoder.decode(line: $0) })
        let statistics = try await store.statistics()
        try await store.checkIntegrity()
        return (
            report,
            Counts(
                tweets: report.tweets, stored: statistics.tweets, users: statistics.users, errors: report.errorCount)
        )
    }

    @Test func eachCompressionGivesTheCountsOfThePlainFile() async throws {
        let (plainReport, plain) = try await importBytes(Self.collection, named: "plain.jsonl")
        #expect(plain.tweets == 600 && plain.stored == 600 && plain.errors == 0)
        #expect(plainReport.lines == 12 && plainReport.framing == .lines && plainReport.compression.isEmpty)
        #expect(plainReport.newTweets == 600 && plainReport.tweetsThisRun == 600)
        for format in Compression.allCases {
            // A name that says nothing: the format is found by its first bytes.
            let compressed = FixtureCompressor.compress(Self.collection, as: format)
            let (report, counts) = try await importBytes(compressed, named: "collection.data")
            #expect(counts == plain, "\(format)")
            #expect(report.compression == [format] && report.lines == 12 && report.streamProblem == nil, "\(format)")
            // Two members or streams one after the other (`cat a.gz b.gz`, pbzip2, zstd frames) read as one.
            let middle = Self.collection.count / 2
            let split =
                FixtureCompressor.compress(Array(Self.collection[..<middle]), as: format)
                + FixtureCompressor.compress(Array(Self.collection[middle...]), as: format)
            let (_, splitCounts) = try await importBytes(split)
            #expect(splitCounts == plain, "\(format) in two parts")
        }
    }

    static func pretty(_ line: [UInt8]) throws -> [UInt8] {
        let object = try JSONSerialization.jsonObject(with: Data(line))
        return Array(try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted]))
    }

    @Test func prettyPrintedDocumentsAndArraysGiveTheCountsOfThePlainFile() async throws {
        let (_, plain) = try await importBytes(Self.collection)
        let pages = try Self.collectionLines.map(Self.pretty)
        // `jq .` output: pretty-printed pages one after another.
        let concatenated = Array(pages.joined(separator: Array("\n".utf8)))
        let (report, counts) = try await importBytes(concatenated)
        #expect(counts == plain)
        #expect(report.framing == .values && report.lines == 12)
        // One JSON array of pages, pretty-printed, and the same gzip-compressed.
        let array = Array("[\n".utf8) + Array(pages.joined(separator: Array(",\n".utf8))) + Array("\n]\n".utf8)
        #expect(try await importBytes(array).1 == plain)
        #expect(try await importBytes(FixtureCompressor.compress(array, as: .gzip)).1 == plain)
        // An array of bare tweets (the `data` of each page): every tweet, with no authors to go with them.
        let tweets = try Self.collectionLines.flatMap { line -> [Any] in
            let page = try JSONSerialization.jsonObject(with: Data(line)) as! [String: Any]
            return page["data"] as! [Any]
        }
        let tweetArray = Array(try JSONSerialization.data(withJSONObject: tweets, options: [.prettyPrinted]))
        let (tweetReport, tweetCounts) = try await importBytes(tweetArray)
        #expect(tweetCounts.tweets == 600 && tweetCounts.stored == 600 && tweetCounts.errors == 0)
        #expect(tweetReport.lines == 600)
        // A single pretty-printed API response.
        let (single, singleCounts) = try await importBytes(pages[0])
        #expect(singleCounts.tweets == 50 && single.lines == 1 && single.framing == .values)
    }

    @Test func aBadValueInADocumentIsReportedAtItsLine() async throws {
        let pages = try Self.collectionLines.prefix(2).map(Self.pretty)
        let document = pages[0] + Array("\n[1, {\"id\": \"x\"}]\n".utf8) + pages[1]
        let (report, counts) = try await importBytes(document)
        let firstLines = pages[0].filter { $0 == 0x0A }.count + 1
        #expect(counts.tweets == 100)
        #expect(report.notTweets == ["a number": 1])
        #expect(report.errorCount == 1 && report.problems.map(\.line) == [firstLines + 1])
    }

    @Test func filesThatAreNotJSONAreRefusedInOneLine() async throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 7, count: 300)
        var random = SplitMix64(seed: 3)
        let noise = (0..<5_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let cases: [([UInt8], String)] = [
            (png, "not JSON text: looks like a PNG image"),
            (Array("PK".utf8) + [3, 4] + [UInt8](repeating: 0, count: 40), "not JSON text: looks like a ZIP archive"),
            (noise, "not JSON text: looks like binary data"),
            (FixtureCompressor.compress(png, as: .xz), "not JSON text: looks like a PNG image (inside xz data)"),
            (Array("id,text,author\n1,hello,me\n".utf8), "not JSON text: looks like CSV or TSV text"),
            (Array("<!DOCTYPE html><html>".utf8), "not JSON text: looks like HTML or XML"),
            (Array("hello there\n".utf8), "not JSON text: looks like plain text"),
        ]
        for (bytes, message) in cases {
            await #expect(throws: ImportInputError(message: message)) { try await importBytes(bytes) }
        }
    }

    @Test func aTruncatedCompressedFileKeepsWhatCameBeforeAndSaysSo() async throws {
        for format in Compression.allCases {
            let compressed = FixtureCompressor.compress(Self.collection, as: format)
            let (report, counts) = try await importBytes(Array(compressed.prefix(compressed.count * 2 / 3)))
            #expect(report.streamProblem == "the \(format.rawValue) data ends early: the file is truncated")
            #expect(counts.stored == counts.tweets && counts.tweets < 600, "\(format)")
        }
        var corrupt = FixtureCompressor.compress(Self.collection, as: .gzip)
        for index in stride(from: 200, to: corrupt.count - 100, by: 97) { corrupt[index] ^= 0x55 }
        let (report, _) = try await importBytes(corrupt)
        #expect(report.streamProblem?.hasPrefix("the gzip data is corrupt after") == true)
    }

    @Test func valuesThatAreNotTweetsAreNamed() async throws {
        let lines = [
            #"{"data":[{"id":"5","username":"someone","name":"Some One"}],"meta":{"result_count":1}}"#,
            #"{"data":{"id":"6","username":"other","name":"Other"}}"#,
            #"{"tweet":{"id_str":"1","full_text":"archive entry"}}"#,
            #""just a string""#,
        ]
        let (report, counts) = try await importBytes(Array((lines.joined(separator: "\n") + "\n").utf8))
        #expect(counts.tweets == 0 && counts.errors == 0)
        #expect(
            report.notTweets == [
                "a page of users": 1, "a user lookup": 1, "a string": 1,
                "an X archive entry; import the archive's folder or its tweets.js": 1,
            ])
    }

    /// Cancels the importing task from its first progress report: exactly the first batch is committed, as when an
    /// import is killed after one commit.
    func interruptedImport(_ store: TweetStore, _ input: ImportInput) async throws {
        let task = Task {
            try await store.importJSON(from: input, decodeLine: Fixtures.decodeLine) { _ in
                withUnsafeCurrentTask { $0?.cancel() }
            }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test(arguments: [nil, Compression.gzip, Compression.zstd])
    func aResumedImportSaysWhatThisRunAdded(compression: Compression?) async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Pretty-printed when compressed, so the resumed run has to find its place by reading again.
        let tweets = (1...6_000).map { Fixtures.line(id: $0, text: "resumed \($0)") }
        let text =
            compression == nil ? tweets.joined(separator: "\n") : "[\n" + tweets.joined(separator: ",\n  ") + "\n]"
        let plain = Array(text.utf8)
        let file = folder.appendingPathComponent("collection")
        try Data(compression.map { FixtureCompressor.compress(plain, as: $0) } ?? plain).write(to: file)
        let store = try TweetStore(location: .file(folder.appendingPathComponent("t.sqlite").path))
        try await interruptedImport(store, .file(file))
        #expect(try await store.statistics().tweets == TweetStore.importBatchTweets)

        let report = try await store.importJSON(from: .file(file), decodeLine: Fixtures.decodeLine)
        #expect(report.resumedAfterLine == TweetStore.importBatchTweets)
        #expect(report.tweets == 6_000 && report.lines == 6_000)
        #expect(report.tweetsThisRun == 6_000 - TweetStore.importBatchTweets)
        #expect(report.newTweets == report.tweetsThisRun)
        #expect(try await store.statistics().tweets == 6_000)
        try await store.checkIntegrity()

        // Imported again in full: nothing is new.
        let again = try await store.importJSON(from: .file(file), decodeLine: Fixtures.decodeLine)
        #expect(again.resumedAfterLine == nil && again.tweetsThisRun == 6_000 && again.newTweets == 0)
    }
}
