import Foundation
import PostgresStore
import PostgresTesting
import TerminalTesting
import Testing
import TweetKit
import TweetStore

/// A whole collection is every tweet in it. `search --in NAME`, `count --in NAME` and `dehydrate --in NAME` without a
/// query run `min_likes:0`, and that once compiled to `likes >= 0`: a tweet whose file gave it a negative count
/// (imported files are hostile input) was left out of the ids a researcher shares. `min_likes:0` and its kin now ask
/// for no minimum, on both stores.
@Suite("A whole collection on both stores", .enabled(if: PostgresFixtures.available, "PostgreSQL is not available"))
struct BothStoresWholeCollectionTests {
    static let ids: [UInt64] = [
        1_800_000_000_000_000_001, 1_800_000_000_000_000_002, 1_800_000_000_000_000_003,
        1_800_000_000_000_000_004,
    ]

    /// One page of four tweets: a negative like count, retweet count, reply count, and one with ordinary counts.
    static func file(in folder: TemporaryDirectory) throws -> URL {
        let counts = [(-5, 0, 0), (0, -1, 0), (0, 0, -2), (3, 1, 1)]
        let tweets = zip(ids, counts).map { id, counts in
            #"{"id":"\#(id)","text":"counted \#(id)","author_id":"42","created_at":"2024-05-01T00:00:00.000Z","#
                + #""public_metrics":{"like_count":\#(counts.0),"retweet_count":\#(counts.1),"#
                + #""reply_count":\#(counts.2),"quote_count":0},"edit_history_tweet_ids":["\#(id)"]}"#
        }
        let path = folder.file("counted.jsonl")
        try (#"{"data":["# + tweets.joined(separator: ",") + "]}\n").write(
            toFile: path, atomically: true, encoding: .utf8)
        return URL(fileURLWithPath: path)
    }

    @Test(arguments: StoreKind.allCases)
    func aZeroMinimumMatchesEveryTweetAndAPositiveOneStillFilters(kind: StoreKind) async throws {
        let folder = TemporaryDirectory(prefix: "tweetsh-whole")
        let store = try kind.make(in: folder)
        defer { store.close() }
        _ = try await store.importJSON(from: .file(try Self.file(in: folder)), collection: "counted", progress: nil)
        func ids(_ query: String) async throws -> [UInt64] {
            var request = SearchRequest(query: query, pageSize: 10)
            request.collection = "counted"
            let page = try await store.search(SearchQuery(parsing: query), request: request, cursor: nil)
            return page.tweets.map(\.id.rawValue)
        }
        let all = Array(Self.ids.reversed())
        for query in ["min_likes:0", "min_reposts:0", "min_replies:0", "counted min_likes:0"] {
            #expect(try await ids(query) == all, "\(kind): \(query)")
        }
        #expect(try await ids("min_likes:1") == [Self.ids[3]], "\(kind)")
        #expect(try await ids("min_reposts:1") == [Self.ids[3]], "\(kind)")
        #expect(try await ids("min_replies:1 OR min_likes:3") == [Self.ids[3]], "\(kind)")
        #expect(try await ids("-min_likes:0").isEmpty, "\(kind)")
    }

    /// The real binary: `dehydrate --in` and `count --in` without a query cover every tweet, on both stores alike.
    @Test func dehydrateAndCountOfACollectionLeaveNoTweetOut() throws {
        var outputs: [String] = []
        for kind in StoreKind.allCases {
            let home = PostgresShellTests.Home()
            let file = try Self.file(in: home.folder)
            let store = kind == .sqlite ? home.folder.file("tweets.sqlite") : try PostgresTestServer.makeDatabase()
            let run = try home.run([
                "--store", store, "-c", "import \(file.path); dehydrate --in counted; count --in counted",
            ])
            #expect(run.status == 0, Comment(rawValue: run.standardError))
            let lines = run.standardOutput.split(separator: "\n").map(String.init)
            #expect(Self.ids.allSatisfy { lines.contains(String($0)) }, "\(kind): \(run.standardOutput)")
            #expect(lines.contains { $0.hasPrefix("4 tweets") }, "\(kind): \(run.standardOutput)")
            outputs.append(run.standardOutput)
        }
        #expect(outputs[0] == outputs[1])
    }
}
