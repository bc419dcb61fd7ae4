import Foundation
import PostgresTesting
import TerminalTesting
import Testing
import TweetKit
import TweetStore

@testable import PostgresStore

/// The PostgreSQL store compresses originals with a zstd dictionary trained from its first large batch and stored in
/// `zstd_dictionaries` (schema 4), as the SQLite store does: blobs come out smaller than without one, and every store
/// object reads them back, also one opened before the dictionary existed.
@Suite("PostgreSQL originals' dictionary", .enabled(if: PostgresFixtures.available, "PostgreSQL is not available"))
struct PostgresDictionaryTests {
    @Test func firstLargeImportTrainsAStoredDictionaryThatEveryStoreObjectReads() async throws {
        let folder = TemporaryDirectory(prefix: "tweetsh-pg-dictionary")
        let file = URL(fileURLWithPath: folder.file("corpus.jsonl"))
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        let handle = try FileHandle(forWritingTo: file)
        try DemoCorpus(seed: 23, tweetCount: 2_000).writeTwarc2JSONL(to: handle)
        try handle.close()
        var input = Originals()
        for line in try Data(contentsOf: file).split(separator: UInt8(ascii: "\n")) {
            input.merge(OriginalsExtractor.extract(value: try JSONParser.parse(Data(line))))
        }

        let (early, url) = try PostgresFixtures.store()
        defer { early.close() }
        let importer = try PostgresStore(address: url)
        let report = try await importer.importJSONL(at: file)
        importer.close()
        #expect(report.tweets == 2_000)

        let admin = try PGConnection(conninfo: url)
        #expect(try admin.scalar("SELECT count(*) FROM zstd_dictionaries") == 1)
        // Smaller than the same tweets compressed one by one without a dictionary.
        let stored = try admin.scalar("SELECT sum(length(original)) FROM tweet_originals") ?? 0
        let plain = input.tweets.values.reduce(0) { $0 + OriginalsCodec().compress($1.bytes, dictionary: nil).count }
        #expect(stored > 0 && Double(stored) < 0.75 * Double(plain), "\(stored) B stored, \(plain) B without one")

        // `early` opened before the dictionary existed and fetches it; a store opened now has it from the start.
        let late = try PostgresStore(address: url)
        defer { late.close() }
        for store in [early, late] {
            var exported = Originals()
            var cursor: String?
            repeat {
                let page = try await store.search(SearchRequest(query: "-lang:zz", pageSize: 500), cursor: cursor)
                exported.merge(try await store.withOriginals(page).originals)
                cursor = page.nextToken
            } while cursor != nil
            #expect(exported.tweets.count == input.tweets.count)
            for (id, original) in input.tweets { #expect(exported.tweets[id]?.value == original.value, "\(id)") }
        }
    }
}
