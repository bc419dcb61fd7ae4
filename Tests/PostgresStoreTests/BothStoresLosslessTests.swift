import Foundation
import PostgresTesting
import StoreTesting
import TerminalTesting
import Testing
import TweetKit
import TweetStore

@testable import PostgresStore

/// The lossless round trip on both stores: a twarc2 collection in every shape the contract describes (places, polls,
/// media variants, edits, withheld content, note tweets, URL details, two `__twarc` blocks) is imported, exported in
/// twarc2 and flattened JSON Lines, and compared object by object with what came in; an export imported into a new
/// store exports the same bytes again.
@Suite("Lossless round trip on both stores", .enabled(if: PostgresFixtures.available, "PostgreSQL is not available"))
struct BothStoresLosslessTests {
    /// A new store of `kind` in `folder` holding the fixture (or `data`, imported from a file in `folder`).
    static func imported(
        _ kind: StoreKind, in folder: TemporaryDirectory, from data: Data = LosslessFixture.jsonl
    ) async throws -> any CollectionStore {
        let (store, report) = try await StoreExport.imported(kind, data, in: folder)
        #expect(report.errorCount == 0 && report.tweets == 6, "\(kind)")
        return store
    }

    /// Every match of `lossless`, written by `exportAll` in `format`, two tweets a page.
    static func exportAll(_ store: any CollectionStore, _ format: ExportFormat, _ folder: TemporaryDirectory)
        async throws -> Data
    {
        let (data, written) = try await StoreExport.all(store, query: "lossless", format: format, in: folder)
        #expect(written == 6)
        return data
    }

    @Test(arguments: StoreKind.allCases)
    func twarc2ExportReproducesEveryObjectAndItsTwarcBlock(kind: StoreKind) async throws {
        let folder = TemporaryDirectory(prefix: "tweetsh-lossless")
        let input = LosslessComparison.collect(pages: try LosslessComparison.parse(LosslessFixture.jsonl))
        let store = try await Self.imported(kind, in: folder)
        defer { store.close() }
        let output = LosslessComparison.collect(
            pages: try LosslessComparison.parse(try await Self.exportAll(store, .twarc2JSONL, folder)))

        #expect(output.resultIDs.sorted() == input.resultIDs.sorted())
        #expect(Set(output.objects.keys) == Set(input.objects.keys), "places and polls included")
        for (key, value) in output.objects {
            let expected = try #require(input.objects[key], "exported \(key) was never imported")
            #expect(LosslessComparison.differences(expected, value) == [], "\(kind): \(key)")
        }
        #expect(output.twarc.count == input.twarc.count)
        for (id, block) in output.twarc {
            let expected = try #require(input.twarc[id])
            #expect(LosslessComparison.differences(expected, block) == [], "\(kind): __twarc of \(id)")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func flattenedExportCarriesEachTweetsPlaceAndTwarcBlock(kind: StoreKind) async throws {
        let folder = TemporaryDirectory(prefix: "tweetsh-lossless-flat")
        let input = LosslessComparison.collect(pages: try LosslessComparison.parse(LosslessFixture.jsonl))
        let store = try await Self.imported(kind, in: folder)
        defer { store.close() }
        let lines = try LosslessComparison.parse(try await Self.exportAll(store, .flattenedJSONL, folder))
        #expect(lines.count == 6)
        var seen = Set<String>()
        for line in lines {
            let id = try #require(line["id"]?.string)
            #expect(
                LosslessComparison.differences(try #require(input.twarc[id]), try #require(line["__twarc"])) == [],
                "\(kind): __twarc of \(id)")
            let originals = OriginalsExtractor.extract(value: line)
            for (key, original) in originals.places.map({ ("places:\($0.key)", $0.value) })
                + originals.polls.map({ ("polls:\($0.key)", $0.value) })
            {
                seen.insert(key)
                let expected = try #require(input.objects[key], "\(key) was never imported")
                #expect(LosslessComparison.differences(expected, try #require(original.value)) == [], "\(kind): \(key)")
            }
        }
        #expect(seen == ["places:01a9a39529b27f36", "polls:1700000000000009999"], "\(kind)")
    }

    @Test(arguments: StoreKind.allCases)
    func anExportImportedAgainExportsTheSameBytes(kind: StoreKind) async throws {
        let folder = TemporaryDirectory(prefix: "tweetsh-lossless-again")
        let other = TemporaryDirectory(prefix: "tweetsh-lossless-again")
        let first = try await Self.imported(kind, in: folder)
        defer { first.close() }
        let twarc = try await Self.exportAll(first, .twarc2JSONL, folder)
        let second = try await Self.imported(kind, in: other, from: twarc)
        defer { second.close() }
        let again = try await Self.exportAll(second, .twarc2JSONL, other)
        #expect(String(decoding: again, as: UTF8.self) == String(decoding: twarc, as: UTF8.self), "\(kind)")
    }
    /// A stored `__twarc` block under the key of a different one (a hash collision, made by hand) stops the import
    /// with a message, and none of its tweets is stored with the wrong block.
    @Test func aBlockWhoseKeyHoldsAnotherBlockStopsTheImport() async throws {
        let folder = TemporaryDirectory(prefix: "tweetsh-lossless-collision")
        let file = URL(fileURLWithPath: folder.file("collection.jsonl"))
        try LosslessFixture.jsonl.write(to: file)
        let (first, firstURL) = try PostgresFixtures.store()
        defer { first.close() }
        _ = try await first.importJSON(from: .file(file), collection: nil, progress: nil)
        let keys = try PGConnection(conninfo: firstURL).rows("SELECT id FROM twarc_blocks ORDER BY id") { $0.int64(0) }
        #expect(keys.count == 2, "one block per page")

        let (second, secondURL) = try PostgresFixtures.store()
        defer { second.close() }
        let admin = try PGConnection(conninfo: secondURL)
        try admin.execute(
            "INSERT INTO twarc_blocks(id, body) VALUES ($1, convert_to('{\"url\":\"elsewhere\"}', 'UTF8'))",
            [.integer(keys[0])])
        await #expect {
            _ = try await second.importJSON(from: .file(file), collection: nil, progress: nil)
        } throws: { error in
            "\(error)".contains("two different ones have the same key")
        }
        #expect(try admin.scalar("SELECT count(*) FROM tweets") == 0)
        #expect(try admin.scalar("SELECT count(*) FROM twarc_blocks") == 1)
    }
}
