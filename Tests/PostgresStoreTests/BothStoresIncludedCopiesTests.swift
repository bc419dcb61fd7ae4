import Foundation
import PostgresStore
import PostgresTesting
import TerminalTesting
import Testing
import TweetKit
import TweetStore

/// Imports leave out included copies of results they already hold (`KnownResults`); what the store ends with must be
/// what writing every copy gave. Each line of the file is a page of one result whose includes copy the result of the
/// line before, of a line of the batch before (5,000 lines back) and of the line after, with texts of their own,
/// so a copy that won over a result would show. Line 100 is broken: its result is never stored, so none of its copies
/// may be left out, and the last one is what lookups find.
@Suite("Included copies on both stores", .enabled(if: PostgresFixtures.available, "PostgreSQL is not available"))
struct BothStoresIncludedCopiesTests {
    static let lines = 6_000
    static let broken = 100

    static func id(_ line: Int) -> Int { 1_700_000_000_000_000_000 + line }

    static func object(_ line: Int, _ text: String) -> String {
        #"{"id": "\#(id(line))", "text": "\#(text)", "author_id": "7", "edit_history_tweet_ids": ["\#(id(line))"]}"#
    }

    static var file: Data {
        var text = ""
        for line in 1...lines {
            if line == broken {
                text += #"{"data":[{"id":"\#(id(line))","text":"lost result"}"# + "\n"
                continue
            }
            var copies: [String] = []
            if line > 1 { copies.append(object(line - 1, "copy of \(line - 1) on \(line)")) }
            if line > 5_001 { copies.append(object(line - 5_000, "copy of \(line - 5_000) on \(line)")) }
            if line < lines { copies.append(object(line + 1, "copy of \(line + 1) on \(line)")) }
            let user = #"{"id": "7", "name": "Seven", "username": "seven"}"#
            text +=
                #"{"data": [\#(object(line, "result \(line)"))], "includes": {"tweets": ["#
                + copies.joined(separator: ", ") + #"], "users": [\#(user)]}, "meta": {"result_count": 1}}"# + "\n"
        }
        return Data(text.utf8)
    }

    @Test(arguments: StoreKind.allCases)
    func theStoreHoldsWhatWritingEveryCopyGave(kind: StoreKind) async throws {
        let folder = TemporaryDirectory(prefix: "tweetsh-copies")
        let (store, report) = try await StoreExport.imported(kind, Self.file, in: folder)
        defer { store.close() }
        #expect(report.tweets == Self.lines - 1 && report.errorCount == 1, "\(kind)")

        // Every result kept its own text, and the store holds it as a result.
        let results = (1...Self.lines).filter { $0 != Self.broken }
        var texts: [TweetID: String] = [:]
        for chunk in stride(from: 0, to: results.count, by: 500) {
            let ids = results[chunk..<min(chunk + 500, results.count)].map { TweetID(UInt64(Self.id($0))) }
            for tweet in try await store.lookup(ids: ids).tweets { texts[tweet.id] = tweet.text }
        }
        #expect(texts.count == results.count, "\(kind)")
        let wrong = results.filter { texts[TweetID(UInt64(Self.id($0)))] != "result \($0)" }
        #expect(wrong.isEmpty, "\(kind): results with another text: \(wrong.prefix(5))")
        let request = SearchRequest(query: "result", pageSize: 100)
        let first = try await store.search(SearchQuery(parsing: "result"), request: request, cursor: nil)
        #expect(first.tweets.count == 100, "\(kind)")

        // The broken line's tweet is there for lookups, from the last of its three copies (lines 99, 101 and, in the
        // next batch, 5100), and is no result.
        let lost = try await store.lookup(ids: [TweetID(UInt64(Self.id(Self.broken)))])
        #expect(lost.tweets.map(\.text) == ["copy of \(Self.broken) on \(Self.broken + 5_000)"], "\(kind)")
        let copies = try await store.search(
            SearchQuery(parsing: "copy"), request: SearchRequest(query: "copy", pageSize: 10), cursor: nil)
        #expect(copies.tweets.isEmpty, "\(kind): included copies are never results")
    }
}
