import Foundation
import StoreTesting
import Testing
import TweetKit

@testable import TweetStore

/// How the store keeps originals: the schema step over an older file, the trained dictionary, and objects that come
/// again without an original.
@Suite("Store originals")
struct OriginalsStoreTests {
    /// A store from before the step keeps its rows, marked as having no original, and exports them from the columns.
    @Test func olderStoreIsMigratedAndItsRowsMarked() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("v2.sqlite").path
        do {
            let old = try TweetStore(location: .file(path))
            try await old.database.run { connection in
                // Back to the schema before the step (version 5, with none of the later steps' tables), as a store
                // written by that tweetsh would be.
                try connection.execute(
                    """
                    DROP TABLE originals; DROP TABLE twarc_blocks; DROP TABLE zstd_dictionaries; DROP TABLE store_facts;
                    DROP TRIGGER tweet_keys_follow_deletes; DROP TABLE tweet_keys;
                    ALTER TABLE tweets DROP COLUMN original; ALTER TABLE tweets DROP COLUMN twarc;
                    PRAGMA user_version = 5;
                    INSERT INTO users(id, username, name) VALUES (1, 'alice', 'Alice');
                    INSERT INTO tweets(id, author_id, flags, text) VALUES (100, 1, 256, 'hello swift'),
                        (200, 1, 128, 'included only');
                    INSERT INTO tweets_fts(rowid, body, tags, cashtags, mentions, urls, refs) VALUES
                        (100, 'hello swift', '', '', '', '', 'a1 c100');
                    """)
            }
        }
        let store = try TweetStore(location: .file(path))
        let facts = try await store.database.run { connection in
            (
                try connection.scalar("PRAGMA user_version"),
                try connection.scalar("SELECT value FROM store_facts WHERE key = 'tweets_before_originals'"),
                try connection.scalar("SELECT count(*) FROM tweets WHERE original IS NOT NULL")
            )
        }
        #expect(facts.0 == Int64(Schema.currentVersion))
        #expect(facts.1 == 2)
        #expect(facts.2 == 0)
        let page = try await store.search(SearchRequest(query: "swift"), cursor: nil)
        #expect(!page.tweets.isEmpty)
        let filled = try await store.withOriginals(page)
        #expect(filled.originals.tweets.isEmpty, "rows from before the step have no original")
        // Their export is the one built from the columns, as before.
        var before = PageExporter(format: .twarc2JSONL)
        var after = PageExporter(format: .twarc2JSONL)
        #expect(before.encode(page) == after.encode(filled))
        try await store.checkIntegrity()
    }

    /// Enough objects train a dictionary, which is stored, shrinks the blobs, and reads back in a new process.
    @Test func dictionaryIsTrainedStoredAndReadBack() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let corpus = DemoCorpus(seed: 7, tweetCount: 2_000)
        let file = folder.appendingPathComponent("corpus.jsonl")
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        let handle = try FileHandle(forWritingTo: file)
        try corpus.writeTwarc2JSONL(to: handle)
        try handle.close()
        let path = folder.appendingPathComponent("t.sqlite").path
        let store = try TweetStore(location: .file(path))
        let report = try await store.importJSONL(at: file)
        #expect(report.tweets == 2_000 && report.errorCount == 0)
        let sizes = try await store.database.run { connection in
            (
                try connection.scalar("SELECT count(*) FROM zstd_dictionaries"),
                try connection.scalar("SELECT sum(length(original)) FROM tweets WHERE original IS NOT NULL"),
                try connection.scalar("SELECT count(*) FROM tweets WHERE original IS NULL")
            )
        }
        #expect(sizes.0 == 1)
        #expect(sizes.2 == 0, "every tweet of a twarc2 file has its original")

        // A fresh store object (as another process would) reads the blobs through the stored dictionary.
        let reopened = try TweetStore(location: .file(path))
        let page = try await reopened.withOriginals(try await reopened.search(SearchRequest(query: "the"), cursor: nil))
        let lines = try Data(contentsOf: file).split(separator: UInt8(ascii: "\n"))
        var input = Originals()
        for line in lines { input.merge(OriginalsExtractor.extract(value: try JSONParser.parse(Data(line)))) }
        #expect(!page.tweets.isEmpty)
        for tweet in page.tweets {
            #expect(page.originals.tweets[tweet.id]?.value == input.tweets[tweet.id]?.value)
        }
        let raw = input.tweets.values.reduce(0) { $0 + $1.bytes.count }
        // Compressed with the dictionary, originals take well under half their size.
        #expect(Double(sizes.1 ?? 0) < Double(raw) * 0.5, "\(sizes.1 ?? 0) of \(raw) bytes")
    }

    /// `exportAll` expands tweets' originals off the store's queue with the dictionaries the codec has loaded; a store
    /// object opened before another one trained the dictionary still exports every original as it came.
    @Test func exportAllExpandsBlobsOfADictionaryTrainedElsewhere() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("corpus.jsonl")
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        let handle = try FileHandle(forWritingTo: file)
        try DemoCorpus(seed: 11, tweetCount: 2_000).writeTwarc2JSONL(to: handle)
        try handle.close()
        let path = folder.appendingPathComponent("t.sqlite").path
        let early = try TweetStore(location: .file(path))
        let report = try await TweetStore(location: .file(path)).importJSONL(at: file)
        #expect(report.tweets == 2_000 && report.errorCount == 0)
        #expect(try await early.database.run { try $0.scalar("SELECT count(*) FROM zstd_dictionaries") } == 1)

        let output = folder.appendingPathComponent("out.jsonl")
        #expect(FileManager.default.createFile(atPath: output.path, contents: nil))
        let outputHandle = try FileHandle(forWritingTo: output)
        let writer = ExportFileWriter(
            handle: outputHandle, format: .twarc2JSONL,
            metadata: TwarcMetadata(url: "tweetsh:test", retrievedAt: Date(timeIntervalSince1970: 0)))
        let query = "since:2000-01-01"
        let written = try await early.exportAll(
            try SearchQuery(parsing: query), request: SearchRequest(query: query, pageSize: 500), to: writer)
        try writer.finish()
        try outputHandle.close()
        #expect(written == 2_000)

        var input = Originals()
        for line in try Data(contentsOf: file).split(separator: UInt8(ascii: "\n")) {
            input.merge(OriginalsExtractor.extract(value: try JSONParser.parse(Data(line))))
        }
        var exported = Originals()
        for line in try Data(contentsOf: output).split(separator: UInt8(ascii: "\n")) {
            exported.merge(OriginalsExtractor.extract(value: try JSONParser.parse(Data(line))))
        }
        #expect(exported.tweets.count == input.tweets.count)
        for (id, original) in input.tweets { #expect(exported.tweets[id]?.value == original.value, "\(id)") }
    }

    /// A later copy without an original (an archive entry, a v1.1 status) keeps the original stored before.
    @Test func copyWithoutOriginalKeepsTheStoredOne() async throws {
        let store = try TweetStore(location: .inMemory)
        let line = Data(LosslessFixture.lines[0].utf8)
        var page = try #require(try CollectionLineDecoder.decode(line: line, keepOriginals: true))
        try await store.insert([page])
        page.originals = Originals()
        try await store.insert([page])
        let filled = try await store.withOriginals(try await store.lookup(ids: page.tweets.map(\.id)))
        #expect(filled.originals.tweets.count == 3 + 1)
        #expect(filled.originals.tweets[TweetID(1_700_000_000_000_000_001)]?.value?["context_annotations"] != nil)
        #expect(filled.originals.places.count == 1 && filled.originals.polls.count == 1)
    }

    /// The fast page decoder keeps the same originals as the tree path, whitespace aside.
    @Test func fastAndTreePathsKeepTheSameOriginals() throws {
        for line in LosslessFixture.lines {
            let data = Data(line.utf8)
            let fast = try #require(try CollectionLineDecoder.decode(line: data, keepOriginals: true)).originals
            let tree = OriginalsExtractor.extract(value: try JSONParser.parse(data))
            func values(_ originals: Originals) -> [String: JSONValue?] {
                var all: [String: JSONValue?] = [:]
                for (id, value) in originals.tweets { all["tweet:\(id)"] = value.value }
                for (id, value) in originals.users { all["user:\(id)"] = value.value }
                for (id, value) in originals.media { all["media:\(id)"] = value.value }
                for (id, value) in originals.places { all["place:\(id)"] = value.value }
                for (id, value) in originals.polls { all["poll:\(id)"] = value.value }
                all["twarc"] = originals.twarc?.value
                all["meta"] = originals.meta?.value
                return all
            }
            #expect(values(fast) == values(tree))
            #expect(values(fast).count > 5)
        }
    }

    @Test func differencesNameLostInventedAndChangedKeys() throws {
        let a = try JSONParser.parse(Data(#"{"a":1,"b":{"c":[1,2]},"d":"x"}"#.utf8))
        let b = try JSONParser.parse(Data(#"{"b":{"c":[1,3]},"d":"x","e":false}"#.utf8))
        #expect(
            LosslessComparison.differences(a, b) == ["lost .a", "invented .e", ".b.c[1]: int(2) became int(3)"])
    }
}
