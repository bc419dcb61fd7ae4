import Foundation
import Testing

@testable import TweetKit

/// A page may include a copy of one of its own results (a result that quotes another result). The page keeps one
/// original per id, and it must be the result's: the included copy used to replace it, so the stored result came
/// back out with the copy's bytes.
@Suite("Result originals")
struct ResultOriginalsTests {
    static let result = #"{"id":"20","text":"result 20","lang":"en"}"#
    static let copy = #"{"id":"20","text":"result 20","note":"included copy"}"#
    static let quoting = #"{"id":"21","text":"quoting 20","referenced_tweets":[{"type":"quoted","id":"20"}]}"#

    static func line(includesFirst: Bool) -> Data {
        let data = #""data":[\#(result),\#(quoting)]"#
        let includes = #""includes":{"tweets":[\#(copy)]}"#
        let members = includesFirst ? [includes, data] : [data, includes]
        return Data(("{" + members.joined(separator: ",") + #","meta":{"result_count":2}}"#).utf8)
    }

    @Test(arguments: [false, true])
    func everyPathKeepsTheResultsOwnBytes(includesFirst: Bool) throws {
        let line = Self.line(includesFirst: includesFirst)
        let decoded = try #require(try CollectionLineDecoder.decode(line: line, keepOriginals: true))
        #expect(decoded.originals.tweets[TweetID(20)]?.text == Self.result, "the page decoder")
        let sliced = line.withUnsafeBytes { OriginalsExtractor.extract($0.bindMemory(to: UInt8.self)) }
        #expect(sliced.tweets[TweetID(20)]?.text == Self.result, "the byte slices")
        let tree = OriginalsExtractor.extract(value: try JSONParser.parse(line))
        #expect(tree.tweets[TweetID(20)]?.text == Self.result, "the tree")
        // A tweet only included keeps its copy.
        let only = Data(#"{"data":[\#(Self.quoting)],"includes":{"tweets":[\#(Self.copy)]}}"#.utf8)
        let included = try #require(try CollectionLineDecoder.decode(line: only, keepOriginals: true))
        #expect(included.originals.tweets[TweetID(20)]?.text == Self.copy)
    }
}
