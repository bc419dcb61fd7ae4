import Foundation
import Testing
import TweetKit

@testable import TweetStore

@Suite("Importing real collection shapes")
struct StoreCollectionImportTests {
    static let twarcPage = """
        {"data":[{"id":"1001","text":"hello #Tag @bob &amp; friends","author_id":"1","created_at":"2024-01-01T00:00:00.000Z",\
        "lang":"en","conversation_id":"1001","entities":{"hashtags":[{"start":6,"end":10,"tag":"Tag"}],\
        "mentions":[{"start":11,"end":15,"username":"bob","id":"2"}]},"public_metrics":{"retweet_count":1,"reply_count":0,\
        "like_count":3,"quote_count":0}}],"includes":{"users":[{"id":"1","username":"alice","name":"Alice"}]},\
        "meta":{"newest_id":"1001","oldest_id":"1001","result_count":1},\
        "__twarc":{"url":"https://api.twitter.com/2/tweets/search/all","version":"2.0","retrieved_at":"2024-01-01T00:00:00+00:00"}}
        """

    @Test func twarcJSONLThroughTheCollectionDecoder() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("collection.jsonl")
        let lines = [Self.twarcPage, "{\"meta\":{\"result_count\":0}}", "{\"data\":[{\"id\":", Self.twarcPage]
        try Data(lines.joined(separator: "\n").utf8).write(to: file)
        let store = try TweetStore(location: .inMemory)
        let report = try await store.importJSONL(at: file)
        #expect(report.tweets == 2)
        #expect(report.errorCount == 1)
        #expect(report.problems.first?.line == 3)
        #expect(report.skippedLines == 1)
        let page = try await store.search(SearchRequest(query: "#tag from:alice @bob friends"), cursor: nil)
        #expect(page.tweets.map(\.id) == [1001])
        #expect(page.tweets.first?.metrics?.likes == 3)
        #expect(page.users.first?.username == "alice")
    }

    @Test func accountArchive() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try Data(
            """
            window.YTD.account.part0 = [{"account":{"accountId":"9","username":"me","accountDisplayName":"Me"}}]
            """.utf8
        ).write(to: data.appendingPathComponent("account.js"))
        try Data(
            """
            window.YTD.tweets.part0 = [ {"tweet": {"id_str":"77","id":"77","full_text":"archive words here",
            "created_at":"Fri Jul 12 23:40:37 +0000 2019","entities":{"hashtags":[],"user_mentions":[],"urls":[]},
            "favorite_count":"3","retweet_count":"0","lang":"en"}} ]
            """.utf8
        ).write(to: data.appendingPathComponent("tweets.js"))
        let store = try TweetStore(location: .inMemory)
        let report = try await store.importArchive(at: folder)
        #expect(report.tweets == 1)
        let page = try await store.search(
            SearchRequest(query: "archive from:me since:2019-07-12 until:2019-07-13"), cursor: nil)
        #expect(page.tweets.map(\.id) == [77])
    }
}
