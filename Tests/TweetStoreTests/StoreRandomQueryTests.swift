import Foundation
import Testing
import TweetKit

@testable import TweetStore

@Suite("Random queries against the store")
struct StoreRandomQueryTests {
    /// Every query that parses must run: whatever the compiler builds has to be valid FTS5 and SQL, with the last word
    /// taken as a prefix (as live search asks) or not.
    @Test func everyParsedQueryRuns() async throws {
        let store = try await Fixtures.store()
        let pieces = [
            "swift", "Café", "é", "\u{301}", "🚀", "_", "-", "\"a b\"", "\"🚀\"", "#", "#swiftlang", "@bob", "$AAPL",
            "OR", "(", ")", "from:alice", "to:1", "lang:fr", "is:reply", "has:links", "url:example.com",
            "url:\"a b\"", "min_likes:5", "since:2024-01-01", "until:2024-03-01", "conversation_id:100",
            "NOT", "AND", "NEAR", "*", "^", ":", "'", "\"", "東京", "ありがとう", "x_y", "a.b", "12:30",
        ]
        var random = SplitMix64(seed: 11)
        var ran = 0
        for _ in 0..<1_500 {
            let text = (0..<random.below(7) + 1).map { _ in pieces[random.below(pieces.count)] }
                .joined(separator: random.chance(0.8) ? " " : "")
            guard let query = try? SearchQuery(parsing: text) else { continue }
            let sort: SearchRequest.Sort = random.chance(0.5) ? .recency : .relevancy
            var request = SearchRequest(query: text, pageSize: 3, sort: sort)
            request.prefixLastWord = random.chance(0.5)
            do {
                let page = try await store.search(query, request: request, cursor: nil)
                if let next = page.nextToken {
                    _ = try await store.search(query, request: request, cursor: next)
                }
                ran += 1
            } catch {
                Issue.record("\(text) → \(query): \(error)")
            }
        }
        #expect(ran > 500)
    }
}
