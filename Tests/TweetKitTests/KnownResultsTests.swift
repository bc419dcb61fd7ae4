import Foundation
import Testing

@testable import TweetKit

/// The set an import binds while decoding, and how the page decoder uses it to leave out included copies of results.
@Suite("Known results")
struct KnownResultsTests {
    /// Random ids in and out of the table, against `Set`, across several growths; 0 is a legal id too.
    @Test func theTableAnswersAsASetDoes() {
        var generator = SplitMix64(seed: 42)
        var table = IDTable()
        var reference = Set<UInt64>()
        for round in 0..<50_000 {
            // Small ids collide in the low bits; large ones are snowflake-like.
            let id = round % 3 == 0 ? generator.next() % 5_000 : generator.next()
            table.insert(id)
            reference.insert(id)
        }
        table.insert(0)
        reference.insert(0)
        #expect(table.count == reference.count)
        for id in reference { #expect(table.contains(id)) }
        for _ in 0..<50_000 {
            let probe = generator.next()
            #expect(table.contains(probe) == reference.contains(probe))
        }
        #expect(!IDTable().contains(0))
    }

    @Test func aLayerSeesTheOneBelowButKeepsWhatItAdds() {
        let importLevel = KnownResults()
        importLevel.insert(contentsOf: [1, 2])
        let layer = KnownResults(over: importLevel)
        layer.insert(contentsOf: [3])
        #expect(layer.contains(1) && layer.contains(3) && !layer.contains(4))
        #expect(!importLevel.contains(3))
        #expect(layer.count == 1 && importLevel.count == 2)
    }

    @Test func leadingIDReadsOnlyAnIDThatComesFirst() throws {
        func leading(_ json: String) -> UInt64? {
            let bytes = Array(json.utf8)
            return bytes.withUnsafeBufferPointer { JSONParser.Scanner(bytes: $0).leadingID() }
        }
        #expect(leading(#"{"id":"123","text":"x"}"#) == 123)
        #expect(leading(" {\n  \"id\" : \"9007199254740993\" }") == 9_007_199_254_740_993)
        #expect(leading(#"{"text":"x","id":"123"}"#) == nil)
        #expect(leading(#"{"id":123}"#) == nil)
        #expect(leading(#"{"id":"12a"}"#) == nil)
        #expect(leading(#"{"id":""}"#) == nil)
        #expect(leading(#"{"idx":"1"}"#) == nil)
        #expect(leading(#"{"id":"99999999999999999999"}"#) == nil)
        #expect(leading(#"{"id":"1"#) == nil)
        #expect(leading(#"["id"]"#) == nil)
    }

    static func page(results: [Int], included: [(id: Int, text: String)]) -> Data {
        let data = results.map { #"{"id":"\#($0)","text":"result \#($0)","author_id":"7"}"# }
        let includes = included.map { #"{"id": "\#($0.id)", "text": "\#($0.text)", "author_id": "7"}"# }
        return Data(
            (#"{"data":[\#(data.joined(separator: ","))],"includes":{"tweets":[\#(includes.joined(separator: ","))]},"#
                + #""meta":{"result_count":\#(results.count)}}"#).utf8)
    }

    @Test func includedCopiesOfKnownResultsAreLeftOutOnlyWhileASetIsBound() throws {
        let line = Self.page(results: [10, 11], included: [(5, "copy of 5"), (6, "copy of 6"), (11, "copy of 11")])
        let unbound = try #require(try CollectionLineDecoder.decode(line: line, keepOriginals: true))
        #expect(unbound.includedTweets.map(\.id.rawValue) == [5, 6, 11])

        let known = KnownResults()
        known.insert(contentsOf: [5])
        let bound = try #require(
            try KnownResults.$current.withValue(known) {
                try CollectionLineDecoder.decode(line: line, keepOriginals: true)
            })
        // 5 is known; 11 is a result of the same page; 6 is neither.
        #expect(bound.includedTweets.map(\.id.rawValue) == [6])
        #expect(bound.originals.tweets[TweetID(6)] != nil)
        #expect(bound.originals.tweets[TweetID(5)] == nil && bound.originals.tweets[TweetID(11)] != nil)
        #expect(bound.tweets.map(\.text) == ["result 10", "result 11"])
        #expect(try #require(bound.originals.tweets[TweetID(11)]).text.contains("result 11"))

        // Without originals (display decoding) nothing is left out, bound or not.
        let plain = try #require(
            try KnownResults.$current.withValue(known) {
                try CollectionLineDecoder.decode(line: line, keepOriginals: false)
            })
        #expect(plain.includedTweets.count == 3)
    }

    /// A copy left out is stepped over with the syntax checks of any value: a broken one still fails the fast path,
    /// and the tree path (which leaves nothing out) decides.
    @Test func aBrokenCopyIsNotSteppedOverSilently() throws {
        let known = KnownResults()
        known.insert(contentsOf: [5])
        let broken = Data(
            #"{"data":[{"id":"10","text":"result 10"}],"includes":{"tweets":[{"id":"5","text":"unterminated}]}}"#.utf8)
        #expect(throws: (any Error).self) {
            try KnownResults.$current.withValue(known) {
                try CollectionLineDecoder.decode(line: broken, keepOriginals: true)
            }
        }
    }
}
