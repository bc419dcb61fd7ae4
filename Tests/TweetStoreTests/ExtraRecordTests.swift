import Testing
import TweetKit

@testable import TweetStore

/// The `extra` column is read by one decoder in two modes: whole, for every model, and relations only, for an export
/// that writes the original instead. Both must read the layout `encodeExtra` writes.
@Suite("Tweet record extra")
struct ExtraRecordTests {
    @Test func bothModesReadWhatEncodeExtraWrote() throws {
        var checked = 0
        for page in DemoCorpus(seed: 17, tweetCount: 2_000) {
            for tweet in page.tweets + page.includedTweets {
                let bytes = TweetRecord.encodeExtra(tweet)
                var whole = Tweet(id: tweet.id, text: tweet.text)
                try TweetRecord.decodeExtra(bytes, into: &whole)
                #expect(whole.source == tweet.source)
                #expect(whole.referencedTweets == tweet.referencedTweets)
                #expect(whole.entities == tweet.entities)
                #expect(whole.mediaKeys == tweet.mediaKeys)
                #expect(whole.metrics?.impressions == tweet.metrics?.impressions)

                var relations = Tweet(id: tweet.id, text: "")
                try TweetRecord.decodeExtra(bytes, into: &relations, relationsOnly: true)
                #expect(relations.referencedTweets == tweet.referencedTweets)
                #expect(relations.entities.mentions.map(\.id) == tweet.entities.mentions.compactMap(\.id))
                #expect(relations.mediaKeys == tweet.mediaKeys)
                #expect(relations.source == nil && relations.entities.urls.isEmpty)
                #expect(relations.entities.hashtags.isEmpty && relations.metrics == nil)
                checked += 1
            }
        }
        #expect(checked > 2_000)
    }

    @Test func aTruncatedRecordIsRefusedInBothModes() {
        var tweet = Tweet(id: 1, text: "")
        tweet.entities.hashtags = [Hashtag(start: 0, end: 5, tag: "swift")]
        tweet.mediaKeys = ["3_1"]
        let bytes = Array(TweetRecord.encodeExtra(tweet).dropLast(3))
        for relationsOnly in [false, true] {
            var decoded = Tweet(id: 1, text: "")
            #expect(throws: StoreError.self) {
                try TweetRecord.decodeExtra(bytes, into: &decoded, relationsOnly: relationsOnly)
            }
        }
    }
}
