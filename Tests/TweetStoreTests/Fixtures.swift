import Foundation
import TweetKit

@testable import TweetStore

/// A handful of hand-made tweets, each chosen to exercise one operator.
enum Fixtures {
    static func day(_ text: String) -> Date { QueryDate(text)!.startOfDay.addingTimeInterval(3_600) }

    static let alice = User(
        id: 1, username: "alice", name: "Alice", profileImageURL: "https://img/a.png", verified: true,
        metrics: UserMetrics(followers: 10, following: 2, tweets: 3, listed: 1))
    static let bob = User(id: 2, username: "Bob", name: "Bob B")
    static let carol = User(id: 3, username: "carol", name: "Carol")
    static let dave = User(id: 4, username: "dave", name: "Dave")

    static let page: Page = {
        var t100 = Tweet(
            id: 100, text: "Swift concurrency is great #SwiftLang @bob", authorID: 1, createdAt: day("2024-01-10"),
            lang: "en", conversationID: 100)
        t100.entities = TweetEntities(
            hashtags: [Hashtag(start: 27, end: 37, tag: "SwiftLang")],
            mentions: [Mention(start: 38, end: 42, username: "bob", id: 2)])
        t100.metrics = TweetMetrics(retweets: 3, replies: 1, likes: 50, quotes: 1, impressions: 900)
        t100.source = "Twitter Web App"
        t100.possiblySensitive = false
        var t200 = Tweet(
            id: 200, text: "I prefer Rust for systems work", authorID: 2, createdAt: day("2024-02-10"), lang: "en",
            conversationID: 100, inReplyToUserID: 1,
            referencedTweets: [ReferencedTweet(kind: .repliedTo, id: 100)])
        t200.metrics = TweetMetrics(likes: 5)
        var t300 = Tweet(
            id: 300, text: "Café naïve résumé AT&amp;T 🚀 launch", authorID: 3, createdAt: day("2024-03-10"),
            lang: "fr", conversationID: 300)
        t300.entities = TweetEntities(urls: [
            URLEntity(
                start: 30, end: 53, url: "https://t.co/x",
                expandedURL: "https://example.com/rockets", displayURL: "example.com/rockets")
        ])
        t300.metrics = TweetMetrics(retweets: 40, likes: 500)
        var t400 = Tweet(
            id: 400, text: "RT @carol: Café naïve", authorID: 1, createdAt: day("2024-03-11"), lang: "fr",
            referencedTweets: [ReferencedTweet(kind: .retweeted, id: 300)])
        t400.entities = TweetEntities(mentions: [Mention(start: 3, end: 9, username: "carol", id: 3)])
        var t500 = Tweet(
            id: 500, text: "Quoting this: swift is fast $AAPL", authorID: 2, createdAt: day("2024-04-10"),
            lang: "en", referencedTweets: [ReferencedTweet(kind: .quoted, id: 100)])
        t500.entities = TweetEntities(cashtags: [Hashtag(start: 28, end: 33, tag: "AAPL")])
        t500.mediaKeys = ["3_1"]
        let t600 = Tweet(
            id: 600, text: "exact phrase match here", authorID: 4, createdAt: day("2023-12-31"), lang: "und")
        let included = Tweet(id: 50, text: "the included original about swift", authorID: 4)
        return Page(
            tweets: [t600, t500, t400, t300, t200, t100], users: [alice, bob, carol, dave], includedTweets: [included],
            media: [
                Media(
                    mediaKey: "3_1", kind: .photo, url: "https://img/m.jpg", width: 10, height: 20, altText: "a chart")
            ])
    }()

    static func store() async throws -> TweetStore {
        let store = try TweetStore(location: .inMemory)
        try await store.insert([page])
        return store
    }

    /// A fresh temporary directory, removed by the caller.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tweetstore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The test files' line format: `{"id":"1","text":"...","author":"name"}`; anything else is a bad line.
    struct BadLine: Error, CustomStringConvertible {
        var description: String
    }

    @Sendable static func decodeLine(_ data: Data) throws -> Page? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw BadLine(description: "not a JSON object")
        }
        if object["meta"] != nil { return nil }
        guard let idText = object["id"] as? String, let id = TweetID(idText), let text = object["text"] as? String
        else {
            throw BadLine(description: "missing id or text")
        }
        let name = object["author"] as? String ?? "someone"
        let authorID = UserID(UInt64(abs(name.hashValue % 1_000_000)) + 1)
        return Page(
            tweets: [Tweet(id: id, text: text, authorID: authorID, lang: "en")],
            users: [User(id: authorID, username: name, name: name)])
    }

    static func line(id: Int, text: String, author: String = "writer") -> String {
        "{\"id\":\"\(id)\",\"text\":\"\(text)\",\"author\":\"\(author)\"}"
    }
}
