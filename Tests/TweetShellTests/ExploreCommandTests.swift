import Foundation
import TweetKit
import XCTest

@testable import TweetShell

/// Parsing `count`, `top`, `drill` and `stats`: options wherever they stand, the query raw, and mistakes pointed at.
final class ExploreCommandTests: XCTestCase {
    func testCountTakesItsOptionsAnywhereAndTheQueryRaw() throws {
        let command = try ShellCommand.parse(
            "count \"open data\" --by week lang:en --since 2024-03-01 --until 2024-04-01T12:00:00Z --json")
        guard case .explore(.count(let options)) = command else { return XCTFail("\(command)") }
        XCTAssertEqual(options.query, "\"open data\" lang:en")
        XCTAssertEqual(options.granularity, .week)
        XCTAssertTrue(options.granularityGiven)
        XCTAssertEqual(options.since, Date(timeIntervalSince1970: 1_709_251_200))
        XCTAssertEqual(options.until, Date(timeIntervalSince1970: 1_711_972_800))
        XCTAssertTrue(options.json)
        guard case .explore(.count(let api)) = try ShellCommand.parse("count swift --source x --archive") else {
            return XCTFail()
        }
        XCTAssertEqual(api.source, .x)
        XCTAssertTrue(api.fullArchive)
        XCTAssertEqual(api.granularity, .day, "day by default")
        XCTAssertFalse(api.granularityGiven, "so a long chart may widen")
        guard case .explore(.count(let years)) = try ShellCommand.parse("count swift --by year") else {
            return XCTFail()
        }
        XCTAssertEqual(years.granularity, .year)
    }

    func testTopDrillAndStats() throws {
        XCTAssertEqual(
            try ShellCommand.parse("top words rain --limit 3"),
            .explore(.top(TopOptions(kind: .words, query: "rain", limit: 3))))
        XCTAssertEqual(try ShellCommand.parse("top langs"), .explore(.top(TopOptions(kind: .langs))))
        XCTAssertEqual(try ShellCommand.parse("drill 2"), .explore(.drill(2)))
        guard case .explore(.count(let whole)) = try ShellCommand.parse("count --in votes") else {
            return XCTFail("count --in alone counts the collection")
        }
        XCTAssertEqual(whole.query, SearchOptions.wholeCollection)
        guard case .explore(.top(let ranked)) = try ShellCommand.parse("top hashtags --in votes") else {
            return XCTFail("top --in alone ranks the collection")
        }
        XCTAssertEqual(ranked.query, SearchOptions.wholeCollection, "the collection, not the current results")
        XCTAssertEqual(ranked.collection, "votes")
        XCTAssertEqual(try ShellCommand.parse("stats"), .explore(.stats(collection: nil)))
        XCTAssertEqual(try ShellCommand.parse("stats demo"), .explore(.stats(collection: "demo")))
    }

    func testMistakesSayWhatAndWhere() {
        let cases: [(String, String, Int?)] = [
            ("count", "count needs a query", 6),
            ("count x --by decade", "unknown bucket 'decade'", 14),
            ("count x --since yesterday", "'yesterday' is not a date", 17),
            ("count x --since 2024-02-01 --until 2024-01-01", "--since must be before --until", nil),
            ("count x --colour", "unknown option '--colour' for count", 9),
            ("top", "top needs what to rank", 4),
            ("top tags", "cannot rank 'tags'", 5),
            ("top words --limit 0", "--limit takes a number from 1 to 1000", 19),
            ("drill", "drill needs a row number", 6),
            ("drill two", "expected a row number", 7),
            ("stats a b", "unexpected 'b' after stats", 9),
        ]
        for (line, message, column) in cases {
            XCTAssertThrowsError(try ShellCommand.parse(line), line) { error in
                guard let error = error as? CommandError else { return XCTFail("\(line): \(error)") }
                XCTAssertTrue(error.message.contains(message), "\(line): \(error.message)")
                XCTAssertEqual(error.column, column, line)
            }
        }
    }

    func testTopListTermsForDrill() {
        XCTAssertEqual(TopKind.hashtags.queryTerm(for: "swift"), "#swift")
        XCTAssertEqual(TopKind.mentions.queryTerm(for: "bob"), "@bob")
        XCTAssertEqual(TopKind.authors.queryTerm(for: "alice"), "from:alice")
        XCTAssertEqual(TopKind.domains.queryTerm(for: "example.com"), "url:\"example.com\"")
        XCTAssertEqual(TopKind.langs.queryTerm(for: "fr"), "lang:fr")
        XCTAssertEqual(TopKind.words.queryTerm(for: "or"), "\"or\"", "a word that is an operator is quoted")
        XCTAssertEqual(TopKind.words.queryTerm(for: "c'est"), "\"c'est\"")
        let list = TopList(kind: .authors, query: "", rows: [TopRow(key: "alice", count: 3)], tweets: 3)
        XCTAssertEqual(list.drillQuery(1), "from:alice")
        XCTAssertNil(list.drillQuery(0))
    }

    /// A key that no query term means (odd or hostile data) is refused by `drill`, rather than run as a query for
    /// other terms; every key a real source gives reads back as itself.
    func testDrillRefusesKeysNoTermCanName() {
        let searchable: [(TopKind, String)] = [
            (.hashtags, "swift"), (.hashtags, "日本"), (.mentions, "bob_2"), (.authors, "alice"),
            (.domains, "example.com"), (.langs, "pt"), (.words, "rain"), (.words, "or"), (.words, "c'est"),
        ]
        for (kind, key) in searchable {
            XCTAssertEqual(kind.searchableTerm(for: key), kind.queryTerm(for: key), "\(kind) \(key)")
        }
        let odd: [(TopKind, String)] = [
            (.authors, "not a handle!"), (.mentions, "two words"), (.hashtags, "tag (x)"), (.langs, "en us"),
        ]
        for (kind, key) in odd { XCTAssertNil(kind.searchableTerm(for: key), "\(kind) \(key)") }
        let list = TopList(
            kind: .authors, query: "rain", rows: [TopRow(key: "not a handle!", count: 2), TopRow(key: "ok", count: 1)],
            tweets: 3)
        XCTAssertEqual(list.drill(1), .unsearchable(key: "not a handle!"))
        XCTAssertEqual(list.drill(2), .query("(rain) from:ok"))
        XCTAssertEqual(list.drill(3), .noRow)
    }
}
