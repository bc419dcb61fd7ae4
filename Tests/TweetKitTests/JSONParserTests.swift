import Foundation
import Testing

@testable import TweetKit

@Suite struct JSONParserTests {
    func parse(_ text: String) throws -> JSONValue { try JSONParser.parse(Data(text.utf8)) }

    @Test func scalarsNumbersAndEscapes() throws {
        #expect(
            try parse(" [true,false,null,0,-12,1.5e3,9223372036854775807,18446744073709551616] ")
                == .array([
                    .bool(true), .bool(false), .null, .int(0), .int(-12), .double(1500), .int(Int64.max),
                    .bigInteger("18446744073709551616"),
                ]))
        #expect(try parse("-9223372036854775809") == .bigInteger("-9223372036854775809"))
        #expect(try parse("-9223372036854775808") == .int(Int64.min))
        #expect(try parse("18446744073709551616").int == nil, "no Int holds it")
        #expect(try parse(#""a\"b\\c\/d\n\t\u00e9\ud83d\ude00""#) == .string("a\"b\\c/d\n\té😀"))
        #expect(try parse(#""\ud83d""#) == .string("\u{FFFD}"), "a lone surrogate is bad data, not bad JSON")
        #expect(try parse(#"{"a":{"b":[1,{"c":"d"}]}}"#)["a"]?["b"]?.array?[1]["c"]?.string == "d")
        #expect(try parse(#"{"n":"123"}"#)["n"]?.int == 123, "archives quote numbers")
    }

    @Test func errorsNameWhatAndWhere() {
        func error(_ text: String) -> JSONParseError? {
            do {
                _ = try parse(text)
                return nil
            } catch {
                return error as? JSONParseError
            }
        }
        #expect(error("") != nil)
        #expect(error("{\"a\":1,}")?.offset == 7)
        #expect(error("[1 2]")?.message.contains("expected ',' or ']'") == true)
        #expect(error("01")?.message.contains("leading zeros") == true)
        #expect(error("\"abc")?.message.contains("not closed") == true)
        #expect(error("{\"a\":1} x")?.message.contains("after the end") == true)
        #expect(error("\"a\u{1}b\"")?.message.contains("control character") == true)
        #expect(error("tru")?.message.contains("true") == true)
    }

    @Test func deepNestingIsRejectedNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONParseError.self) { try parse(deep) }
        #expect(throws: DecodingProblem.self) {
            try CollectionLineDecoder.decode(line: Data(("{\"data\":" + deep + "}").utf8))
        }
        #expect(throws: DecodingProblem.self) {
            try CollectionLineDecoder.decode(line: Data(("{\"x\":" + deep + "}").utf8))
        }
    }

    @Test func randomBytesNeverCrashAnyDecoder() {
        var random = SplitMix64(seed: 99)
        let alphabet = Array(#"{}[]:,"\ 0123456789.eE-+truefalsnul"#.utf8) + [0xF0, 0x9F, 0x98, 0x80, 0xC3, 0x00]
        for _ in 0..<3000 {
            let length = random.below(80)
            let bytes = (0..<length).map { _ in alphabet[random.below(alphabet.count)] }
            let data = Data(bytes)
            _ = try? JSONParser.parse(data)
            _ = try? CollectionLineDecoder.decode(line: data)
            _ = try? APIResponseDecoder.decodePage(from: data)
            _ = try? APIResponseDecoder.decodeUser(from: data)
            _ = try? V1SearchDecoder.decodeSearch(from: data)
        }
    }
}

/// The direct decoding path must read every page exactly as the tree path does; the tree path is the reference.
@Suite struct FastPathAgreementTests {
    func viaTree(_ data: Data) throws -> Page {
        try APIResponseDecoder.decodePage(from: try JSONParser.parse(data))
    }

    func viaFast(_ data: Data) -> Page? {
        data.withUnsafeBytes { FastPageDecoder.decode($0.bindMemory(to: UInt8.self))?.page }
    }

    @Test func fixturesAgree() throws {
        for fixture in [
            Fixtures.searchPage, Fixtures.emptyPage, Fixtures.pageWithPartialErrors, Fixtures.onlyErrors,
            Fixtures.timelinePage, Fixtures.twarcRawLine, Fixtures.singleTweet,
        ] {
            let data = Data(fixture.utf8)
            let fast = try #require(viaFast(data), "fast path declined \(fixture.prefix(40))")
            #expect(fast == (try viaTree(data)))
        }
    }

    @Test func otherShapesAreLeftToTheTreePath() {
        for fixture in [
            Fixtures.userFound, Fixtures.v1Search, Fixtures.twarcFlatLine,
            Fixtures.problemDocument, "[]", "{}", #"{"data":[{"id":"1"}]}"#,
        ] {
            #expect(viaFast(Data(fixture.utf8)) == nil, "\(fixture.prefix(40))")
        }
    }

    @Test func demoPagesAgree() throws {
        var exporter = PageExporter(
            format: .twarc2JSONL, metadata: TwarcMetadata(url: "x", retrievedAt: Date(timeIntervalSince1970: 0)))
        for page in DemoCorpus(seed: 11, tweetCount: 2000).prefix(20) {
            let data = Data(exporter.encode(page).utf8)
            let fast = try #require(viaFast(data))
            #expect(fast == (try viaTree(data)))
            #expect(fast == page)
        }
    }

    func flattenedViaTree(_ data: Data) throws -> Page? {
        try CollectionLineDecoder.decode(value: try JSONParser.parse(data))
    }

    func flattenedViaFast(_ data: Data) -> Page? {
        data.withUnsafeBytes { FastPageDecoder.decodeFlattened($0.bindMemory(to: UInt8.self)) }
    }

    @Test func flattenedLinesAgree() throws {
        let fixture = Data(Fixtures.twarcFlatLine.utf8)
        let fastFixture = try #require(flattenedViaFast(fixture))
        #expect(fastFixture == (try flattenedViaTree(fixture)))
        var exporter = PageExporter(
            format: .flattenedJSONL, metadata: TwarcMetadata(url: "x", retrievedAt: Date(timeIntervalSince1970: 0)))
        var checked = 0
        for page in DemoCorpus(seed: 12, tweetCount: 1000).prefix(5) {
            for line in exporter.encode(page).split(separator: "\n") {
                let data = Data(line.utf8)
                let fast = try #require(flattenedViaFast(data))
                #expect(fast == (try flattenedViaTree(data)))
                checked += 1
            }
        }
        #expect(checked == 500)
        for other in [
            Fixtures.searchPage, Fixtures.singleTweet, Fixtures.v1Search, #"{"id":"1"}"#,
            #"{"id":"1","text":"t","data":[]}"#,
        ] {
            #expect(flattenedViaFast(Data(other.utf8)) == nil, "\(other.prefix(30))")
        }
    }

    @Test func mutatedFlattenedLinesNeverDisagree() throws {
        var random = SplitMix64(seed: 6)
        let line = Array(Fixtures.twarcFlatLine.utf8)
        let noise = Array(#"{}[]:,"\ 0129.eE-tfn"#.utf8)
        var accepted = 0
        for _ in 0..<3000 {
            var bytes = line
            for _ in 0..<(1 + random.below(3)) {
                let position = random.below(bytes.count)
                switch random.below(3) {
                case 0: bytes.remove(at: position)
                case 1: bytes.insert(random.pick(noise), at: position)
                default: bytes[position] = random.pick(noise)
                }
            }
            let data = Data(bytes)
            guard let fast = flattenedViaFast(data) else { continue }
            accepted += 1
            #expect(
                fast == (try flattenedViaTree(data)), "paths disagree on: \(String(decoding: bytes, as: UTF8.self))")
        }
        #expect(accepted > 100)
    }

    @Test func mutatedLinesNeverDisagree() throws {
        var random = SplitMix64(seed: 5)
        let lines = [Fixtures.searchPage, Fixtures.pageWithPartialErrors, Fixtures.twarcRawLine].map { Array($0.utf8) }
        let noise = Array(#"{}[]:,"\ 0129.eE-tfn"#.utf8)
        var fastAccepted = 0
        for _ in 0..<3000 {
            var bytes = random.pick(lines)
            for _ in 0..<(1 + random.below(3)) {
                let position = random.below(bytes.count)
                switch random.below(3) {
                case 0: bytes.remove(at: position)
                case 1: bytes.insert(random.pick(noise), at: position)
                default: bytes[position] = random.pick(noise)
                }
            }
            let data = Data(bytes)
            let line = try? CollectionLineDecoder.decode(line: data)
            guard let fast = data.withUnsafeBytes({ FastPageDecoder.decode($0.bindMemory(to: UInt8.self)) }) else {
                continue
            }
            fastAccepted += 1
            let tree = try viaTree(data)
            #expect(fast.page == tree, "paths disagree on: \(String(decoding: bytes, as: UTF8.self))")
            #expect(line == (fast.hasData ? fast.page : nil))
        }
        #expect(fastAccepted > 100, "mutations in ignored places still decode")
    }
}
