import Foundation
import Testing

@testable import TweetKit

/// A line's `__twarc` and `matching_rules` kept together as one block: a plain `__twarc` stays itself, rules make an
/// envelope that comes apart into the same two values, and every decoder of a stream line keeps the rules.
@Suite struct LineBlockTests {
    static let twarc =
        #"{"url":"https://api.x.com/2/tweets/search/stream","version":"0.1.0","#
        + #""retrieved_at":"2024-03-01T10:00:01Z"}"#
    static let rules = #"[{"id":"42","tag":"rain"}]"#

    @Test func aBlockWithoutRulesIsTheTwarcObjectItself() {
        let twarc = OriginalJSON(Self.twarc)
        #expect(LineBlock.block(twarc: twarc, matchingRules: nil) == twarc)
        #expect(LineBlock.block(twarc: nil, matchingRules: nil) == nil)
        let parts = LineBlock.parts(twarc)
        #expect(parts.twarc == twarc && parts.matchingRules == nil)
    }

    @Test func rulesAndTwarcComeApartAsTheyWent() throws {
        let block = try #require(
            LineBlock.block(twarc: OriginalJSON(Self.twarc), matchingRules: OriginalJSON(Self.rules)))
        #expect(block.text == #"{"matching_rules":"# + Self.rules + #","__twarc":"# + Self.twarc + "}")
        let parts = LineBlock.parts(block)
        #expect(parts.twarc?.text == Self.twarc)
        #expect(parts.matchingRules?.text == Self.rules)
        let alone = try #require(LineBlock.block(twarc: nil, matchingRules: OriginalJSON(Self.rules)))
        #expect(LineBlock.parts(alone).twarc == nil && LineBlock.parts(alone).matchingRules?.text == Self.rules)
    }

    @Test func restampingKeepsTheRules() {
        let stamped = OriginalJSON(#"{"url":"u","version":"v","retrieved_at":"2024-03-01T10:00:02Z"}"#)
        let block = LineBlock.block(twarc: OriginalJSON(Self.twarc), matchingRules: OriginalJSON(Self.rules))
        let restamped = LineBlock.replacingTwarc(in: block, with: stamped)
        #expect(LineBlock.parts(restamped).twarc == stamped)
        #expect(LineBlock.parts(restamped).matchingRules?.text == Self.rules)
        #expect(LineBlock.replacingTwarc(in: nil, with: stamped) == stamped)
    }

    /// The fast page decoder (compact lines) and the tree path (spaced ones) both keep a stream line's rules.
    @Test(arguments: [false, true])
    func decodersKeepAStreamLinesRules(spaced: Bool) throws {
        var line =
            #"{"data":{"id":"5","text":"rain","author_id":"7"},"matching_rules":"# + Self.rules + #","__twarc":"#
            + Self.twarc + "}"
        if spaced { line = line.replacingOccurrences(of: #"":"#, with: #"" : "#) }
        let page = try #require(try CollectionLineDecoder.decode(line: Data(line.utf8), keepOriginals: true))
        let block = try #require(page.originals.twarc)
        #expect(LineBlock.parts(block).matchingRules?.text == Self.rules)
        #expect(LineBlock.parts(block).twarc?.text == Self.twarc)
        let extracted = OriginalsExtractor.extract(value: try JSONParser.parse(Data(line.utf8)))
        #expect(extracted.twarc == block, "the tree path makes the same block")
    }
}
