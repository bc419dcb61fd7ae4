import Foundation
import StoreTesting
import Testing
import TweetKit

@testable import TweetStore

/// Import, then export: every key and value of every object comes back, and nothing is added.
@Suite("Lossless round trip")
struct LosslessRoundTripTests {
    static func exportAll(_ store: TweetStore, format: ExportFormat, to url: URL, pageSize: Int = 2) async throws
        -> Data
    {
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        let handle = try FileHandle(forWritingTo: url)
        let writer = ExportFileWriter(
            handle: handle, format: format,
            metadata: TwarcMetadata(url: "tweetsh:local:lossless", retrievedAt: Date(timeIntervalSince1970: 0)))
        let written = try await store.exportAll(
            SearchQuery(parsing: "lossless"), request: SearchRequest(query: "lossless", pageSize: pageSize), to: writer)
        try writer.finish()
        try handle.close()
        #expect(written == 6)
        return try Data(contentsOf: url)
    }

    func importedStore(_ folder: URL, _ name: String, from data: Data) async throws -> TweetStore {
        let file = folder.appendingPathComponent(name + ".jsonl")
        try data.write(to: file)
        let store = try TweetStore(location: .file(folder.appendingPathComponent(name + ".sqlite").path))
        let report = try await store.importJSONL(at: file)
        #expect(report.errorCount == 0)
        return store
    }

    @Test func twarc2ExportReproducesEveryObjectAndItsTwarcBlock() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = LosslessComparison.collect(pages: try LosslessComparison.parse(LosslessFixture.jsonl))
        let store = try await importedStore(folder, "first", from: LosslessFixture.jsonl)
        let exported = try await Self.exportAll(
            store, format: .twarc2JSONL, to: folder.appendingPathComponent("a.jsonl"))
        let output = LosslessComparison.collect(pages: try LosslessComparison.parse(exported))

        #expect(output.resultIDs.sorted() == input.resultIDs.sorted())
        #expect(Set(output.objects.keys) == Set(input.objects.keys))
        for (key, value) in output.objects {
            let expected = try #require(input.objects[key], "exported \(key) was never imported")
            #expect(LosslessComparison.differences(expected, value) == [], "\(key)")
        }
        for (id, block) in output.twarc {
            #expect(LosslessComparison.differences(try #require(input.twarc[id]), block) == [], "__twarc of \(id)")
        }
    }

    @Test func flattenedExportReproducesEveryObject() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = LosslessComparison.collect(pages: try LosslessComparison.parse(LosslessFixture.jsonl))
        let store = try await importedStore(folder, "first", from: LosslessFixture.jsonl)
        let exported = try await Self.exportAll(
            store, format: .flattenedJSONL, to: folder.appendingPathComponent("f.jsonl"))
        let lines = try LosslessComparison.parse(exported)
        #expect(lines.count == 6)
        var seen = Set<String>()
        for line in lines {
            let id = try #require(line["id"]?.string)
            // The merged-in objects are the imported ones.
            #expect(
                LosslessComparison.differences(
                    try #require(input.objects["user:" + (line["author_id"]?.string ?? "")]),
                    try #require(line["author"])) == [])
            #expect(LosslessComparison.differences(try #require(input.twarc[id]), try #require(line["__twarc"])) == [])
            // Taken apart again, the line gives back exactly the imported objects.
            let originals = OriginalsExtractor.extract(value: line)
            var parts: [(String, OriginalJSON)] = originals.tweets.map { ("tweet:\($0.key)", $0.value) }
            parts += originals.users.map { ("user:\($0.key)", $0.value) }
            parts += originals.media.map { ("media:\($0.key)", $0.value) }
            parts += originals.places.map { ("places:\($0.key)", $0.value) }
            parts += originals.polls.map { ("polls:\($0.key)", $0.value) }
            for (key, original) in parts {
                seen.insert(key)
                let expected = try #require(input.objects[key], "flattened \(key) was never imported")
                #expect(LosslessComparison.differences(expected, try #require(original.value)) == [], "\(key) in \(id)")
            }
        }
        #expect(seen == Set(input.objects.keys))
    }

    @Test func reimportedExportsAreIdentical() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try await importedStore(folder, "first", from: LosslessFixture.jsonl)
        let twarc = try await Self.exportAll(first, format: .twarc2JSONL, to: folder.appendingPathComponent("1.jsonl"))
        let second = try await importedStore(folder, "second", from: twarc)
        let again = try await Self.exportAll(second, format: .twarc2JSONL, to: folder.appendingPathComponent("2.jsonl"))
        #expect(String(decoding: again, as: UTF8.self) == String(decoding: twarc, as: UTF8.self))

        let flat = try await Self.exportAll(
            first, format: .flattenedJSONL, to: folder.appendingPathComponent("1f.jsonl"))
        let third = try await importedStore(folder, "third", from: flat)
        let flatAgain = try await Self.exportAll(
            third, format: .flattenedJSONL, to: folder.appendingPathComponent("2f.jsonl"))
        #expect(String(decoding: flatAgain, as: UTF8.self) == String(decoding: flat, as: UTF8.self))
    }

    @Test func showUsesTheFullTextOfANoteTweet() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await importedStore(folder, "first", from: LosslessFixture.jsonl)
        let page = try await store.lookup(ids: [TweetID(1_700_000_000_000_000_001)])
        #expect(page.tweets.first?.text.hasSuffix("#longform") == true)
        // Words only in the note's text are searchable.
        #expect(try await store.search(SearchRequest(query: "longform"), cursor: nil).tweets.count == 1)
    }
}
