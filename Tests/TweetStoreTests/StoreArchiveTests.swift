import Foundation
import Testing
import TweetKit

@testable import TweetStore

/// X account archives as the two layouts write them: retweets, `to:handle`, reply chains, a missing `account.js`
/// and the entry count.
@Suite("Importing X account archives")
struct StoreArchiveTests {
    /// The archive layouts: 2020's `tweet.js` (`window.YTD.tweet.part0`) and 2023's `tweets.js`
    /// (`window.YTD.tweets.part0`).
    enum Layout: String, CaseIterable, Sendable {
        case of2020 = "tweet"
        case of2023 = "tweets"
    }

    static func entry(
        _ id: Int, _ text: String, replyTo: (status: Int, user: Int, handle: String)? = nil,
        mentions: [(handle: String, id: Int, start: Int)] = []
    ) -> String {
        let reply =
            replyTo.map {
                "\"in_reply_to_status_id_str\":\"\($0.status)\",\"in_reply_to_status_id\":\"\($0.status)\","
                    + "\"in_reply_to_user_id_str\":\"\($0.user)\",\"in_reply_to_user_id\":\"\($0.user)\","
                    + "\"in_reply_to_screen_name\":\"\($0.handle)\","
            } ?? ""
        let mentionList = mentions.map {
            "{\"name\":\"\($0.handle)\",\"screen_name\":\"\($0.handle)\",\"indices\":[\"\($0.start)\","
                + "\"\($0.start + 1 + $0.handle.count)\"],\"id_str\":\"\($0.id)\",\"id\":\"\($0.id)\"}"
        }
        return """
            {"tweet":{"id_str":"\(id)","id":"\(id)",\(reply)"full_text":"\(text)","retweeted":false,
            "created_at":"Fri Jul 12 23:40:\(10 + id % 50) +0000 2019","favorite_count":"0","retweet_count":"0",
            "entities":{"hashtags":[],"symbols":[],"urls":[],"user_mentions":[\(mentionList.joined(separator: ","))]},
            "lang":"en","source":"<a href=\\"https://x.com\\">Web</a>"}}
            """
    }

    /// An archive folder holding `account.js` (unless left out) and the tweets file of `layout`.
    static func archive(_ layout: Layout, account: Bool = true) throws -> URL {
        let folder = try Fixtures.temporaryDirectory()
        let data = folder.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        if account {
            try Data(
                """
                window.YTD.account.part0 = [{"account":{"accountId":"9","username":"owner","accountDisplayName":"O",
                "createdAt":"2009-03-01T10:00:00.000Z"}}]
                """.utf8
            ).write(to: data.appendingPathComponent("account.js"))
        }
        let entries = [
            entry(100, "hello archive world"),
            entry(200, "@alice thanks", replyTo: (150, 5, "alice"), mentions: [("alice", 5, 0)]),
            entry(300, "@owner and more", replyTo: (100, 9, "owner"), mentions: [("owner", 9, 0)]),
            entry(400, "@owner the end of it", replyTo: (300, 9, "owner"), mentions: [("owner", 9, 0)]),
            entry(500, "RT @bob: something great", mentions: [("bob", 7, 3)]),
            "{\"tweet\":{\"full_text\":\"an entry without an id\"}}",
            entry(700, "RT @ not a retweet"),
        ]
        try Data(
            "window.YTD.\(layout.rawValue).part0 = [ \(entries.joined(separator: ",\n")) ]".utf8
        ).write(to: data.appendingPathComponent("\(layout.rawValue).js"))
        return folder
    }

    func ids(_ store: TweetStore, _ query: String) async throws -> [UInt64] {
        try await store.search(SearchRequest(query: query, pageSize: 100), cursor: nil).tweets.map(\.id.rawValue)
    }

    @Test(arguments: Layout.allCases)
    func retweetsAreRetweetsAndKnowWhomTheyRetweet(_ layout: Layout) async throws {
        let folder = try Self.archive(layout)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try TweetStore(location: .inMemory)
        _ = try await store.importArchive(at: folder)
        #expect(try await ids(store, "is:retweet") == [500])
        #expect(
            try await ids(store, "-is:retweet") == [700, 400, 300, 200, 100], "`RT @ ` without a handle is not one")
        let retweet = try #require(try await store.lookup(ids: [500]).tweets.first)
        #expect(retweet.retweetsUnidentifiedOriginal && retweet.isRetweet && retweet.retweetedID == nil)
        #expect(retweet.retweetedUsernameFromText == "bob")
        let plain = try #require(try await store.lookup(ids: [100]).tweets.first)
        #expect(!plain.isRetweet)
    }

    @Test(arguments: Layout.allCases)
    func toHandleFindsRepliesByTheirScreenName(_ layout: Layout) async throws {
        let folder = try Self.archive(layout)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try TweetStore(location: .inMemory)
        _ = try await store.importArchive(at: folder)
        #expect(try await ids(store, "to:alice") == [200])
        #expect(try await ids(store, "to:ALICE") == [200])
        #expect(try await ids(store, "to:5") == [200])
        #expect(try await ids(store, "to:owner") == [400, 300])
        #expect(try await ids(store, "to:bob") == [], "a mention is not a reply")
        #expect(try await ids(store, "from:owner to:alice") == [200])
        let users = try await store.statistics().users
        #expect(users == 1, "reply handles are not made into users")
    }

    @Test(arguments: Layout.allCases)
    func threadFollowsReplyChainsThatAreInTheStore(_ layout: Layout) async throws {
        let folder = try Self.archive(layout)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try TweetStore(location: .inMemory)
        _ = try await store.importArchive(at: folder)
        for start: TweetID in [100, 300, 400] {
            let (root, page) = try await store.thread(of: start)
            #expect(root == 100, "from \(start)")
            #expect(page.tweets.map(\.id) == [100, 300, 400], "from \(start)")
        }
        let (root, page) = try await store.thread(of: 200)
        #expect(root == 200 && page.tweets.map(\.id) == [200], "its parent 150 is not in the store")
        #expect(try await store.thread(of: 400, limit: 2).page.tweets.count == 2)
        // A parent imported later joins the chain.
        try await store.insert([Page(tweets: [Tweet(id: 150, text: "the question", authorID: 5, conversationID: 150)])])
        let joined = try await store.thread(of: 200)
        #expect(joined.root == 150 && joined.page.tweets.map(\.id) == [150, 200])
    }

    @Test(arguments: Layout.allCases)
    func theReportCountsEntriesAndAMissingAccountIsAWarning(_ layout: Layout) async throws {
        let folder = try Self.archive(layout)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try TweetStore(location: .inMemory)
        let report = try await store.importArchive(at: folder)
        #expect(report.entries == 7 && report.tweets == 6 && report.errorCount == 1)
        #expect(report.warnings.isEmpty)

        let bare = try Self.archive(layout, account: false)
        defer { try? FileManager.default.removeItem(at: bare) }
        let other = try TweetStore(location: .inMemory)
        let bareReport = try await other.importArchive(at: bare)
        #expect(bareReport.tweets == 6)
        #expect(bareReport.warnings.count == 1)
        let warning = try #require(bareReport.warnings.first)
        #expect(warning.contains("account.js is missing") && warning.contains("no author"), "\(warning)")
        #expect(try await other.lookup(ids: [100]).tweets.first?.authorID == nil)
    }

    @Test func aMissingAccountWithAManifestNamesTheOwnerFromIt() async throws {
        let folder = try Self.archive(.of2023, account: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(
            """
            window.__THAR_CONFIG = {"userInfo":{"accountId":"9","userName":"owner","displayName":"O"},
            "dataTypes":{"tweets":{"files":[{"fileName":"data/tweets.js"}]}}}
            """.utf8
        ).write(to: folder.appendingPathComponent("data/manifest.js"))
        let store = try TweetStore(location: .inMemory)
        let report = try await store.importArchive(at: folder)
        #expect(report.warnings.count == 1 && report.warnings[0].contains("@owner from manifest.js"))
        #expect(try await ids(store, "from:owner").count == 6)
    }
}
