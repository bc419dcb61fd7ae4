import Foundation
import TweetKit
import XCTest

@testable import TweetShell

final class FormatterSnapshotTests: XCTestCase {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)  // 2023-11-14 22:13:20 UTC

    static let swiftlang = User(id: 1, username: "swiftlang", name: "Swift", verified: true)
    static let akiko = User(id: 2, username: "akiko_dev", name: "明子")
    static let noa = User(id: 3, username: "noa", name: "נועה")
    static let longHandle = User(id: 4, username: "averyveryverylong", name: "Long")

    static var items: [ResultItem] {
        [
            ResultItem(
                number: 1,
                tweet: Tweet(
                    id: 1001, text: "", authorID: 1, createdAt: now.addingTimeInterval(-30),
                    lang: "en", metrics: TweetMetrics(retweets: 12, replies: 3, likes: 140, quotes: 2),
                    entities: TweetEntities(
                        hashtags: [Hashtag(start: 0, end: 6, tag: "swift")],
                        urls: [
                            URLEntity(
                                start: 0, end: 1, url: "https://t.co/x",
                                expandedURL: "https://swift.org/blog/")
                        ])),
                author: swiftlang,
                text:
                    "Swift 6 is here 🎉 with complete concurrency checking & data-race safety by default. #swift https://swift.org/blog/"
            ),
            ResultItem(
                number: 2,
                tweet: Tweet(
                    id: 1002, text: "", authorID: 2, createdAt: now.addingTimeInterval(-3 * 3600), lang: "ja",
                    referencedTweets: [ReferencedTweet(kind: .repliedTo, id: 1001)]),
                author: akiko, text: "非同期処理がとても書きやすくなりました。Swiftの並行処理モデルは素晴らしいです 👩‍💻",
                replyToHandle: "swiftlang"),
            ResultItem(
                number: 3,
                tweet: Tweet(
                    id: 1003, text: "", authorID: 3, createdAt: now.addingTimeInterval(-2 * 86_400), lang: "he",
                    referencedTweets: [ReferencedTweet(kind: .quoted, id: 1001)]),
                author: noa, text: "שלום עולם! Swift על לינוקס עובד מצוין",
                quoted: ResultItem.Quoted(
                    tweet: Tweet(id: 1001, text: ""), author: swiftlang, text: "Swift 6 is here 🎉")),
            ResultItem(
                number: 10,
                tweet: Tweet(
                    id: 1004, text: "", authorID: 4, createdAt: now.addingTimeInterval(-400 * 86_400), lang: "fr",
                    referencedTweets: [ReferencedTweet(kind: .retweeted, id: 999)]),
                author: longHandle, text: "RT @swiftlang: Café crème, naïve résumé — e\u{301}t\u{301}é combining marks",
                retweetedAuthor: swiftlang),
        ]
    }

    func testCompactListAtEachWidthWithAndWithoutColour() {
        for width in [40, 80, 120] {
            for colour in [false, true] {
                let renderer = CompactRenderer(width: width, style: Style(enabled: colour), now: Self.now)
                let lines = renderer.lines(for: Self.items)
                if !colour {
                    for line in lines {
                        XCTAssertLessThanOrEqual(DisplayWidth.of(line), width, "line wider than \(width): \(line)")
                    }
                } else {
                    XCTAssertTrue(lines.allSatisfy { $0.contains("\u{1B}[") })
                }
                assertSnapshot(lines.joined(separator: "\n") + "\n", named: "compact-\(width)\(colour ? "-color" : "")")
            }
        }
    }

    func testDetailViewAtEachWidthWithAndWithoutColour() {
        for width in [40, 80, 120] {
            for colour in [false, true] {
                let renderer = DetailRenderer(
                    width: width, style: Style(enabled: colour), timeZone: TimeZone(identifier: "UTC")!)
                let text = Self.items.map { renderer.lines(for: $0).joined(separator: "\n") }.joined(separator: "\n\n")
                if !colour {
                    XCTAssertFalse(text.contains("\u{1B}"), "no escape codes without colour")
                    for line in text.split(separator: "\n") {
                        XCTAssertLessThanOrEqual(DisplayWidth.of(line), max(width, 60), "line too wide: \(line)")
                    }
                }
                assertSnapshot(text + "\n", named: "detail-\(width)\(colour ? "-color" : "")")
            }
        }
    }
}
