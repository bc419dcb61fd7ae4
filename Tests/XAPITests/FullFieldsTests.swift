import Foundation
import Testing
import TweetKit
import XAPIStub

@testable import XAPI

/// Every field and expansion an app-only token may ask for is asked for, and what the API sends is kept as sent.
@Suite("Full field sets over the loopback stub")
struct FullFieldsTests {
    static let page = #"""
        {"data":[{"id":"1700000000000000001","text":"A long lossless post, cut short…","edit_history_tweet_ids":["1700000000000000001"],"author_id":"101","created_at":"2024-02-29T09:00:00.000Z","note_tweet":{"text":"A long lossless post, in full, past two hundred and eighty characters."},"context_annotations":[{"domain":{"id":"66","name":"Interests"},"entity":{"id":"847544972781826048","name":"Data science"}}],"geo":{"place_id":"01a9a39529b27f36"},"attachments":{"poll_ids":["1700000000000009999"]},"reply_settings":"following","edit_controls":{"edits_remaining":5,"is_edit_eligible":true,"editable_until":"2024-02-29T10:00:00.000Z"}}],"includes":{"users":[{"id":"101","username":"ada","name":"Ada","verified_type":"blue","pinned_tweet_id":"1700000000000000001"}],"places":[{"id":"01a9a39529b27f36","full_name":"London, England","country_code":"GB"}],"polls":[{"id":"1700000000000009999","options":[{"position":1,"label":"JSONL","votes":12}],"voting_status":"closed"}]},"meta":{"result_count":1}}
        """#

    @Test func searchesAskForEverythingAndKeepWhatCame() async throws {
        let corpus = try StubCorpus(jsonl: Data(Self.page.utf8))
        let harness = try Harness(stub: StubServer(configuration: .init(corpus: corpus)))
        let page = try await XAPISource(client: harness.client).search(
            SearchRequest(query: "lossless"), cursor: nil)
        let sent = try #require(harness.stub.requests.last)
        let tweetFields = Set((sent.query["tweet.fields"] ?? "").split(separator: ",").map(String.init))
        #expect(tweetFields.isSuperset(of: ["note_tweet", "context_annotations", "geo", "edit_controls", "withheld"]))
        let expansions = Set((sent.query["expansions"] ?? "").split(separator: ",").map(String.init))
        #expect(expansions.isSuperset(of: ["geo.place_id", "attachments.poll_ids", "edit_history_tweet_ids"]))
        #expect(sent.query["place.fields"]?.contains("country_code") == true)
        #expect(sent.query["poll.fields"]?.contains("voting_status") == true)
        #expect(sent.query["user.fields"]?.contains("verified_type") == true)
        #expect(sent.query["media.fields"]?.contains("variants") == true)

        // The long post's full text is the tweet's text; the original keeps both and everything else.
        let id = TweetID(1_700_000_000_000_000_001)
        #expect(page.tweets.first?.text.hasSuffix("in full, past two hundred and eighty characters.") == true)
        let original = try #require(page.originals.tweets[id]?.value)
        #expect(original["context_annotations"]?.array?.count == 1)
        #expect(original["note_tweet"]?["text"] != nil && original["text"]?.string?.hasSuffix("cut short…") == true)
        #expect(page.originals.places["01a9a39529b27f36"]?.value?["country_code"]?.string == "GB")
        #expect(page.originals.polls["1700000000000009999"]?.value?["voting_status"]?.string == "closed")
        #expect(page.originals.users[UserID(101)]?.value?["verified_type"]?.string == "blue")
        // Where it came from, in twarc2's words.
        let twarc = try #require(page.originals.twarc?.value)
        #expect(twarc["url"]?.string?.contains("/2/tweets/search/recent?") == true)
        #expect(twarc["retrieved_at"]?.string != nil)
    }
}
