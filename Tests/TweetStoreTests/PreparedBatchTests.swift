import Foundation
import Testing
import TweetKit

@testable import TweetStore

/// The copy of each tweet a batch hands the writer: a result beats an included copy whichever comes first, and among
/// included copies the last wins, with its own original.
@Suite("Prepared batch")
struct PreparedBatchTests {
    static func tweet(_ id: UInt64, _ text: String) -> Tweet { Tweet(id: TweetID(id), text: text) }

    static func page(results: [Tweet] = [], included: [Tweet] = []) -> Page {
        var page = Page(tweets: results, includedTweets: included)
        for tweet in results + included {
            page.originals.tweets[tweet.id] = OriginalJSON(#"{"id":"\#(tweet.id)","text":"\#(tweet.text)"}"#)
        }
        return page
    }

    @Test func oneCopyPerTweetAsWritingThemInTurnWouldLeave() throws {
        let codec = OriginalsCodec()
        let pages = [
            // 1 is included before it comes as a result (newest-first search pages), 2 after.
            Self.page(results: [Self.tweet(3, "result 3")], included: [Self.tweet(1, "copy of 1")]),
            Self.page(results: [Self.tweet(1, "result 1"), Self.tweet(2, "result 2")]),
            Self.page(included: [Self.tweet(2, "copy of 2"), Self.tweet(4, "first copy of 4")]),
            Self.page(included: [Self.tweet(4, "second copy of 4")]),
            Self.page(included: [Self.tweet(4, "last copy of 4"), Self.tweet(5, "only copy of 5")]),
        ]
        let batch = PreparedBatch(pages, codec: codec)
        #expect(batch.tweets.map(\.rowid) == [1, 2, 3, 4, 5])
        #expect(batch.tweets.map(\.primary) == [true, true, true, false, false])
        #expect(batch.tweets.map(\.text) == ["result 1", "result 2", "result 3", "last copy of 4", "only copy of 5"])
        for tweet in batch.tweets {
            let blob = try #require(tweet.original)
            let original = try codec.decompress(blob) { _ in nil }
            #expect(String(decoding: original, as: UTF8.self) == #"{"id":"\#(tweet.rowid)","text":"\#(tweet.text)"}"#)
        }
    }

    /// Two halves merged: a result of one beats an included copy in the other.
    @Test func mergedHalvesKeepTheResult() {
        var first = PreparedBatch([Self.page(included: [Self.tweet(7, "copy of 7")])])
        let second = PreparedBatch([Self.page(results: [Self.tweet(7, "result 7")])])
        first.append(second)
        first.order()
        #expect(first.tweets.map(\.text) == ["result 7"])
        var reversed = PreparedBatch([Self.page(results: [Self.tweet(7, "result 7")])])
        reversed.append(PreparedBatch([Self.page(included: [Self.tweet(7, "copy of 7")])]))
        reversed.order()
        #expect(reversed.tweets.map(\.text) == ["result 7"])
    }
}
