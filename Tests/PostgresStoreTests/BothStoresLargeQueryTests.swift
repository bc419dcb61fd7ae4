import Foundation
import PostgresStore
import PostgresTesting
import TerminalTesting
import Testing
import TweetKit
import TweetStore

/// Queries of thousands of terms, as a script builds them (a list of words to leave out, one `OR` per account):
/// both stores answer them, and one too large for a store is refused with a message that says so. SQLite refused a
/// chain of 1,000 `OR`s as too deep, and PostgreSQL's `tsquery` input ran out of stack at about 20,000 terms; both
/// came out as "this is a bug".
@Suite("Large queries on both stores", .enabled(if: PostgresFixtures.available, "PostgreSQL is not available"))
struct BothStoresLargeQueryTests {
    static let pages = Array(DemoCorpus(seed: 23, tweetCount: 200, pageSize: 100))

    /// The ids a query finds, up to 500, newest first.
    static func ids(_ store: any CollectionStore, _ query: String) async throws -> [UInt64] {
        let request = SearchRequest(query: query, pageSize: 500)
        return try await store.search(SearchQuery(parsing: query), request: request, cursor: nil).tweets.map(
            \.id.rawValue)
    }

    @Test(arguments: StoreKind.allCases)
    func thousandsOfTermsAreAnsweredAndTooManyAreRefusedClearly(kind: StoreKind) async throws {
        let folder = TemporaryDirectory(prefix: "tweetsh-large-query")
        let store = try kind.make(in: folder)
        defer { store.close() }
        try await store.insert(Self.pages, collection: "large")
        let all = Self.pages.flatMap(\.tweets).map(\.id.rawValue).sorted(by: >)
        // Words no tweet has, each left out: every tweet matches, whether the negations are OR-ed or AND-ed.
        let absent = (0..<25_000).map { "-zzabsent\($0)" }
        #expect(try await Self.ids(store, absent.joined(separator: " OR ")) == all, "\(kind)")
        #expect(try await Self.ids(store, absent.prefix(3_000).joined(separator: " ")) == all, "\(kind)")
        // Words OR-ed with metadata: SQL conditions on both stores. One real word among them finds its tweets.
        let word = "the"
        let expected = try await Self.ids(store, word)
        #expect(!expected.isEmpty)
        let mixed = (0..<1_500).map { "(zzabsent\($0) min_likes:\($0 + 1))" } + ["(\(word) min_likes:0)"]
        #expect(try await Self.ids(store, mixed.joined(separator: " OR ")) == expected, "\(kind)")
        // Past what one statement can carry: refused, with the count, as a query error.
        let tooMany = (0..<40_000).map { "(zzabsent\($0) min_likes:1)" }.joined(separator: " OR ")
        await #expect {
            _ = try await Self.ids(store, tooMany)
        } throws: { error in
            (error as? QueryParseError)?.message.hasPrefix("the query is too large for the store: it has 80000") == true
        }
    }
}
