import Foundation
import PostgresStore
import PostgresTesting
import StoreTesting
import TerminalTesting
import Testing
import TweetKit
import TweetStore

/// A capture of the filtered stream (`twarc2 stream` writes one line per tweet, with the rules it matched) imported
/// into either store exports with each tweet's `matching_rules` and `__twarc` as they came, in every format. The
/// store used to keep only the `__twarc` block, so the rules were lost on the way through.
@Suite("Stream captures on both stores", .enabled(if: PostgresFixtures.available, "PostgreSQL is not available"))
struct BothStoresStreamCaptureTests {
    static let twarc =
        #"{"url":"https://api.twitter.com/2/tweets/search/stream?expansions=author_id","version":"2.14.0","#
        + #""retrieved_at":"2024-03-01T10:00:01+00:00"}"#
    static let alpha = #"[{"id":"1600000000000000001","tag":"alpha"}]"#
    static let both = #"[{"id":"1600000000000000001","tag":"alpha"},{"id":"1600000000000000002","tag":"beta"}]"#
    static let untagged = #"[{"id":"1600000000000000003"}]"#

    /// Three lines: one rule, two rules with the same `__twarc`, and a line with rules but no `__twarc` (the stream
    /// as X sends it, saved by another tool).
    static let lines = [
        line(1, rules: alpha, twarc: twarc), line(2, rules: both, twarc: twarc), line(3, rules: untagged, twarc: nil),
    ]

    static func line(_ number: Int, rules: String, twarc: String?) -> String {
        #"{"data":{"id":"171000000000000000\#(number)","text":"streamed capture \#(number)","author_id":"201","#
            + #""created_at":"2024-03-01T10:00:0\#(number).000Z","edit_history_tweet_ids":["171000000000000000\#(number)"]},"#
            + #""includes":{"users":[{"id":"201","name":"Dee","username":"dee"}]},"matching_rules":\#(rules)"#
            + (twarc.map { #","__twarc":\#($0)"# } ?? "") + "}"
    }

    static func imported(_ kind: StoreKind, _ folder: TemporaryDirectory, _ data: Data) async throws
        -> any CollectionStore
    {
        let (store, report) = try await StoreExport.imported(kind, data, in: folder)
        #expect(report.errorCount == 0 && report.tweets == 3, "\(kind)")
        return store
    }

    static func exportAll(_ store: any CollectionStore, _ format: ExportFormat, _ folder: TemporaryDirectory)
        async throws -> Data
    {
        let (data, written) = try await StoreExport.all(
            store, query: "streamed", format: format, pageSize: 10, in: folder)
        #expect(written == 3)
        return data
    }

    /// The rules (and block) each line gave its tweet, by tweet id.
    static var expected: [String: (rules: JSONValue, twarc: JSONValue?)] {
        var expected: [String: (rules: JSONValue, twarc: JSONValue?)] = [:]
        for line in lines {
            let value = try? JSONParser.parse(Data(line.utf8))
            guard let id = value?["data"]?["id"]?.string, let rules = value?["matching_rules"] else { continue }
            expected[id] = (rules, value?["__twarc"])
        }
        return expected
    }

    static var capture: Data { Data((lines.joined(separator: "\n") + "\n").utf8) }

    @Test(arguments: StoreKind.allCases)
    func twarc2AndFlattenedExportsCarryEachTweetsRules(kind: StoreKind) async throws {
        let folder = TemporaryDirectory(prefix: "tweetsh-capture")
        let store = try await Self.imported(kind, folder, Self.capture)
        defer { store.close() }
        let expected = Self.expected

        let pages = try LosslessComparison.parse(try await Self.exportAll(store, .twarc2JSONL, folder))
        #expect(pages.count == 3, "tweets with different rules are on lines of their own")
        for page in pages {
            for tweet in page["data"]?.array ?? [] {
                let id = try #require(tweet["id"]?.string)
                let want = try #require(expected[id])
                #expect(page["matching_rules"] == want.rules, "\(kind): rules of \(id)")
                if let twarc = want.twarc { #expect(page["__twarc"] == twarc, "\(kind): __twarc of \(id)") }
            }
        }

        let flat = try LosslessComparison.parse(try await Self.exportAll(store, .flattenedJSONL, folder))
        #expect(flat.count == 3)
        for tweet in flat {
            let id = try #require(tweet["id"]?.string)
            let want = try #require(expected[id])
            #expect(tweet["matching_rules"] == want.rules, "\(kind): flattened rules of \(id)")
            if let twarc = want.twarc { #expect(tweet["__twarc"] == twarc, "\(kind): flattened __twarc of \(id)") }
        }

        let csv = String(decoding: try await Self.exportAll(store, .csv, folder), as: UTF8.self)
        let rows = csv.split(separator: "\n")
        let column = try #require(rows.first?.split(separator: ",").firstIndex(of: "matching_rules"))
        #expect(column > 0)
        let cell = #"[{""id"": ""1600000000000000001"", ""tag"": ""alpha""}, {""id"": ""1600000000000000002"""#
        #expect(csv.contains(cell), "the two rules in json.dumps form, in a quoted cell")
    }

    @Test(arguments: StoreKind.allCases)
    func aCaptureExportedAndImportedAgainExportsTheSameBytes(kind: StoreKind) async throws {
        let folder = TemporaryDirectory(prefix: "tweetsh-capture")
        let other = TemporaryDirectory(prefix: "tweetsh-capture")
        let first = try await Self.imported(kind, folder, Self.capture)
        defer { first.close() }
        let exported = try await Self.exportAll(first, .twarc2JSONL, folder)
        let second = try await Self.imported(kind, other, exported)
        defer { second.close() }
        let again = try await Self.exportAll(second, .twarc2JSONL, other)
        #expect(String(decoding: again, as: UTF8.self) == String(decoding: exported, as: UTF8.self), "\(kind)")
    }

    /// Exported as twarc2 JSONL, a capture is the capture: each line in the stream's own shape (`data` one object, no
    /// `meta`), byte for byte; the line that came without `__twarc` gets one and is otherwise the same.
    @Test(arguments: StoreKind.allCases)
    func aCapturesTwarc2ExportIsTheCaptureItself(kind: StoreKind) async throws {
        let folder = TemporaryDirectory(prefix: "tweetsh-capture")
        let store = try await Self.imported(kind, folder, Self.capture)
        defer { store.close() }
        let exported = String(decoding: try await Self.exportAll(store, .twarc2JSONL, folder), as: UTF8.self)
        let lines = exported.split(separator: "\n").map(String.init)
        #expect(Set(lines.filter { $0.contains(#""version":"2.14.0""#) }) == Set(Self.lines.prefix(2)), "\(kind)")
        let last = try #require(lines.first { $0.contains("1710000000000000003") })
        let withoutBlock = try #require(last.range(of: #","__twarc":"#))
        #expect(String(last[..<withoutBlock.lowerBound]) + "}" == Self.lines[2], "\(kind)")
        #expect(!exported.contains(#""meta""#) && !exported.contains(#""data":["#), "\(kind)")
    }
}
