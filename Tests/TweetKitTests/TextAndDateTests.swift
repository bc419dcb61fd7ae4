import Foundation
import Testing

@testable import TweetKit

@Suite struct TwitterDateTests {
    @Test func isoFormsParse() {
        let expected = Date(timeIntervalSince1970: 1_636_999_200)
        #expect(TwitterDate.parseISO8601("2021-11-15T18:00:00.000Z") == expected)
        #expect(TwitterDate.parseISO8601("2021-11-15T18:00:00Z") == expected)
        #expect(TwitterDate.parseISO8601("2021-11-15T19:30:00+01:30") == expected)
        #expect(TwitterDate.parseISO8601("2021-11-15T18:00:00.250Z") == Date(timeIntervalSince1970: 1_636_999_200.25))
        for bad in [
            "", "2021-11-15", "2021-13-15T18:00:00Z", "2021-11-15T18:00:00Q", "2021-11-15T18:00:00Zjunk",
            "abcd-ef-ghTij:kl:mnZ",
        ] {
            #expect(TwitterDate.parseISO8601(bad) == nil, "\(bad)")
        }
    }

    @Test func classicFormParsesWithItsOffset() {
        #expect(
            TwitterDate.parseClassic("Fri Jul 12 23:40:37 +0000 2019") == Date(timeIntervalSince1970: 1_562_974_837))
        #expect(
            TwitterDate.parseClassic("Sat Jul 13 01:40:37 +0200 2019") == Date(timeIntervalSince1970: 1_562_974_837))
        #expect(TwitterDate.parseClassic("Fri Foo 12 23:40:37 +0000 2019") == nil)
        #expect(TwitterDate.parse("Fri Jul 12 23:40:37 +0000 2019") == TwitterDate.parse("2019-07-12T23:40:37.000Z"))
    }

    @Test func formattingRoundTrips() {
        var random = SplitMix64(seed: 3)
        for _ in 0..<500 {
            let milliseconds = Int64(random.below(4_000_000_000_000)) - 500_000_000_000
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            let iso = TwitterDate.formatISO8601(date)
            #expect(TwitterDate.parseISO8601(iso) == date, "\(iso)")
            var writer = JSONWriter()
            writer.date(date)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == "\"\(iso)\"")
            let whole = Date(timeIntervalSince1970: Double(milliseconds / 1000))
            #expect(TwitterDate.parseClassic(TwitterDate.formatClassic(whole)) == whole)
        }
        #expect(
            TwitterDate.formatClassic(Date(timeIntervalSince1970: 1_562_974_837)) == "Fri Jul 12 23:40:37 +0000 2019")
        #expect(TwitterDate.formatISO8601(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
    }

    @Test func outOfRangeDatesNeitherParseNorTrap() {
        #expect(TwitterDate.parseClassic("Fri Jul 12 23:40:37 +0000 -5") == nil)
        #expect(TwitterDate.parseClassic("Fri Jul 12 23:40:37 +0000 99999999999999") == nil)
        #expect(TwitterDate.parseISO8601("0000-01-01T00:00:00Z") == nil)
        #expect(TwitterDate.formatISO8601(Date(timeIntervalSince1970: 1e300)) == "9999-12-31T23:59:59.000Z")
        #expect(TwitterDate.formatISO8601(Date(timeIntervalSince1970: -1e300)) == "0001-01-01T00:00:00.000Z")
        #expect(TwitterDate.formatClassic(Date(timeIntervalSince1970: .infinity)).hasSuffix("9999"))
        var writer = JSONWriter()
        writer.date(Date(timeIntervalSince1970: -.infinity))
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #""0001-01-01T00:00:00.000Z""#)
    }
}

@Suite struct HTMLEntitiesTests {
    @Test func decodesNamedAndNumericReferences() {
        #expect(HTMLEntities.decode("Fish &amp; chips &lt;3 &gt;_&lt;") == "Fish & chips <3 >_<")
        #expect(HTMLEntities.decode("&quot;hi&quot; it&#39;s &#x1F600; &#233;") == "\"hi\" it's 😀 é")
        #expect(HTMLEntities.decode("&amp;amp;") == "&amp;", "decoded once, as the API escaped once")
    }

    @Test func leavesWhatIsNotAReferenceAlone() {
        for text in ["AT&T", "a & b", "&copy", "&unknown;", "&#xZZ;", "&#99999999999;", "&", "trailing &amp"] {
            #expect(HTMLEntities.decode(text) == text, "\(text)")
        }
        #expect(HTMLEntities.decode("😀 &amp; 😀") == "😀 & 😀")
    }
}

@Suite struct PartialErrorTests {
    @Test func problemNameIgnoresTheHost() throws {
        let page = try APIResponseDecoder.decodePage(from: Data(Fixtures.onlyErrors.utf8))
        #expect(page.errors.map(\.problemName) == ["resource-not-found", "resource-not-found"])
        #expect(PartialError(type: "https://api.x.com/2/problems/usage-capped").problemName == "usage-capped")
        #expect(PartialError(type: "about:blank").problemName == "about:blank")
        #expect(PartialError().problemName == nil)
    }
}
