import Foundation
import Testing

@testable import TweetKit

@Suite struct DemoCorpusTests {
    static let corpus = DemoCorpus(seed: 7, tweetCount: 5000, pageSize: 100)
    static let pages = Array(corpus)
    static var tweets: [Tweet] { pages.flatMap(\.tweets) }

    @Test func sameSeedSameTweetsDifferentSeedDifferentTweets() {
        let again = Array(DemoCorpus(seed: 7, tweetCount: 5000, pageSize: 100))
        #expect(again == Self.pages)
        let other = Array(DemoCorpus(seed: 8, tweetCount: 5000, pageSize: 100))
        #expect(other.flatMap(\.tweets).map(\.text) != Self.tweets.map(\.text))
    }

    @Test func pagingSizesAndIDOrder() {
        let small = Array(DemoCorpus(seed: 1, tweetCount: 250, pageSize: 100))
        #expect(small.map(\.tweets.count) == [100, 100, 50])
        #expect(small.map { $0.nextToken != nil } == [true, true, false])
        for page in small {
            #expect(page.tweets.map(\.id) == page.tweets.map(\.id).sorted(by: >), "newest first within a page")
            #expect(page.newestID == page.tweets.first?.id)
            #expect(page.oldestID == page.tweets.last?.id)
        }
        let ids = small.flatMap(\.tweets).map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(Array(DemoCorpus(tweetCount: 0)).isEmpty)
    }

    @Test func everythingIsLabelledAsGenerated() {
        #expect(Self.tweets.allSatisfy { $0.source == DemoCorpus.sourceLabel })
        #expect(Self.corpus.users.allSatisfy { $0.description?.contains(DemoCorpus.sourceLabel) == true })
    }

    @Test func usersMostlyTweetInOneLanguage() {
        var languages: [UserID: [String: Int]] = [:]
        for tweet in Self.tweets where tweet.retweetedID == nil && tweet.repliedToID == nil {
            languages[tweet.authorID!, default: [:]][tweet.lang!, default: 0] += 1
        }
        let busy = languages.values.filter { $0.values.reduce(0, +) >= 20 }
        #expect(!busy.isEmpty)
        for counts in busy {
            #expect(Double(counts.values.max()!) > 0.7 * Double(counts.values.reduce(0, +)))
        }
    }

    @Test func activityIsSkewedAcrossUsers() {
        var counts: [UserID: Int] = [:]
        for tweet in Self.tweets { counts[tweet.authorID!, default: 0] += 1 }
        let sorted = counts.values.sorted(by: >)
        let topTenPercent = sorted.prefix(Self.corpus.users.count / 10).reduce(0, +)
        #expect(Double(topTenPercent) > 0.4 * Double(Self.tweets.count))
        #expect(sorted.count > Self.corpus.users.count / 3, "the long tail posts too")
    }

    @Test func repliesFormThreadsRetweetsAndQuotesCarryTheirOriginals() throws {
        var replies = 0
        var retweets = 0
        var quotes = 0
        for page in Self.pages {
            for tweet in page.tweets {
                if let parentID = tweet.repliedToID {
                    replies += 1
                    let parent = try #require(page.tweet(parentID))
                    #expect(tweet.conversationID == parent.conversationID)
                    #expect(tweet.inReplyToUserID == parent.authorID)
                    #expect(page.user(parent.authorID) != nil)
                    let opensWithHandle = tweet.text.hasPrefix("@\(page.user(parent.authorID)!.username) ")
                    #expect(opensWithHandle == (parent.authorID != tweet.authorID), "self-threads carry no handle")
                } else {
                    #expect(tweet.conversationID == tweet.id)
                }
                if let originalID = tweet.retweetedID {
                    retweets += 1
                    let original = try #require(page.tweet(originalID))
                    let handle = try #require(page.user(original.authorID)).username
                    #expect(tweet.text.hasPrefix("RT @\(handle): "))
                    #expect(tweet.displayText(in: page) == "RT @\(handle): " + HTMLEntities.decode(original.text))
                }
                if let quotedID = tweet.quotedID {
                    quotes += 1
                    #expect(page.tweet(quotedID) != nil)
                    #expect(tweet.entities.urls.last?.expandedURL?.hasSuffix("/status/\(quotedID)") == true)
                }
            }
        }
        let total = Self.tweets.count
        #expect(replies > total / 10)
        #expect(retweets > total / 10)
        #expect(quotes > total / 50)
        let threads = Dictionary(grouping: Self.tweets.filter { $0.repliedToID != nil }, by: { $0.conversationID! })
        #expect(threads.values.contains { $0.count >= 3 }, "some conversations run several replies deep")
    }

    @Test func entitiesOffsetsLanguagesEmojiAndURLs() {
        let tweets = Self.tweets
        for tweet in tweets where tweet.retweetedID == nil {
            let scalars = Array(tweet.text.unicodeScalars)
            func slice(_ start: Int, _ end: Int) -> String {
                var view = String.UnicodeScalarView()
                view.append(contentsOf: scalars[start..<end])
                return String(view)
            }
            for tag in tweet.entities.hashtags { #expect(slice(tag.start, tag.end) == "#" + tag.tag) }
            for mention in tweet.entities.mentions {
                #expect(slice(mention.start, mention.end) == "@" + mention.username)
            }
            for url in tweet.entities.urls {
                #expect(slice(url.start, url.end) == url.url)
                #expect(url.expandedURL?.hasPrefix("https://") == true)
            }
        }
        let languages = Set(tweets.compactMap(\.lang))
        #expect(languages.isSuperset(of: ["en", "es", "fr", "de", "ja", "pt", "ar"]))
        #expect(tweets.contains { $0.text.unicodeScalars.contains { $0.value > 0xFFFF } }, "emoji outside the BMP")
        #expect(tweets.contains { $0.text.contains("&amp;") || $0.text.contains("&lt;") }, "API-style escaped text")
        #expect(tweets.filter { !$0.entities.hashtags.isEmpty }.count > tweets.count / 5)
        #expect(tweets.filter { !$0.mediaKeys.isEmpty }.count > tweets.count / 30)
    }

    @Test func metricsAreHeavyTailedAndTimeSpansMonths() throws {
        let likes = Self.tweets.filter { $0.retweetedID == nil }.compactMap { $0.metrics?.likes }.sorted()
        let median = likes[likes.count / 2]
        #expect(likes.last! > 20 * max(median, 1))
        let dates = Self.tweets.compactMap(\.createdAt)
        let spread = try #require(dates.max()).timeIntervalSince(try #require(dates.min()))
        #expect(spread > 150 * 86400)
    }

    @Test func pagesRoundTripThroughTwarc2JSONL() throws {
        var exporter = PageExporter(format: .twarc2JSONL)
        for page in Self.pages.prefix(10) {
            let line = exporter.encode(page)
            let back = try #require(try CollectionLineDecoder.decode(line: Data(line.utf8)))
            #expect(back == page)
        }
    }

    @Test func writesTwarc2JSONLToAFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tweetkit-demo-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        let corpus = DemoCorpus(seed: 3, tweetCount: 1234, pageSize: 100)
        #expect(try corpus.writeTwarc2JSONL(to: handle) == 1234)
        try handle.close()
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 13)
        let first = try JSONParser.parse(Data(lines[0].utf8))
        #expect(first["__twarc"]?["version"]?.string == DemoCorpus.sourceLabel)
        let decoded = try lines.compactMap { try CollectionLineDecoder.decode(line: Data($0.utf8)) }
        #expect(decoded.flatMap(\.tweets).count == 1234)
    }
}
