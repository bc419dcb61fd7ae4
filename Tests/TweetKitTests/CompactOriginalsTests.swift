import Foundation
import Testing

@testable import TweetKit

/// The originals a decoder keeps are compact JSON whatever the input's layout: copied byte for byte from compact
/// lines, and with the whitespace between tokens removed (never inside strings) from spaced ones.
@Suite struct CompactOriginalsTests {
    static let compactTweet = #"{"id":"1","text":"two  spaces\tand a tab","author_id":"7","lang":"en"}"#
    static let spacedTweet = "{ \"id\" : \"2\",\n  \"text\": \"keep  these \\\" spaces\" ,\"author_id\":\"7\"}"
    static let compactUser = #"{"id":"7","username":"someone","name":"Some One"}"#

    func page(_ line: String) throws -> Page {
        try #require(try CollectionLineDecoder.decode(line: Data(line.utf8), keepOriginals: true))
    }

    @Test func compactObjectsAreKeptAsTheyCame() throws {
        let line = #"{"data":["# + Self.compactTweet + #"],"includes":{"users":["# + Self.compactUser + "]}}"
        let page = try page(line)
        #expect(page.originals.tweets[1]?.text == Self.compactTweet)
        #expect(page.originals.users[7]?.text == Self.compactUser)
    }

    @Test func whitespaceBetweenTokensIsRemovedAndStringsKeepTheirs() throws {
        // Spaces around the objects and inside the second tweet: only that tweet's text changes.
        let line =
            "{ \"data\" : [ " + Self.compactTweet + " ,\n " + Self.spacedTweet + " ], \"includes\": { \"users\": [ "
            + Self.compactUser + " ] } }"
        let page = try page(line)
        #expect(page.originals.tweets[1]?.text == Self.compactTweet)
        #expect(
            page.originals.tweets[2]?.text == #"{"id":"2","text":"keep  these \" spaces","author_id":"7"}"#)
        #expect(page.originals.users[7]?.text == Self.compactUser)
        #expect(page.tweets.map(\.text) == ["two  spaces\tand a tab", "keep  these \" spaces"])
    }

    @Test func aPrettyPrintedPageHasCompactOriginals() throws {
        let pretty =
            "{\n  \"data\": [\n    {\n      \"id\": \"3\",\n      \"text\": \"a : b\",\n      \"entities\": {\n"
            + "        \"hashtags\": [ { \"start\": 0, \"end\": 1, \"tag\": \"a\" } ]\n      }\n    }\n  ]\n}\n"
        let page = try page(pretty)
        #expect(
            page.originals.tweets[3]?.text
                == #"{"id":"3","text":"a : b","entities":{"hashtags":[{"start":0,"end":1,"tag":"a"}]}}"#)
    }
}
