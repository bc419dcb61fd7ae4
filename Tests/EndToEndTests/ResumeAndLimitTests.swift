import Foundation
import TerminalTesting
import TweetKit
import XAPIStub
import XCTest

/// Paging as the docs promise it: `more` resumes the last search in a new process, `--limit` below the API's minimum
/// shows what was asked, and `--new` updates the cached view of the same search. Runs the real binary, locally and
/// against the loopback stub.
final class ResumeAndLimitTests: XCTestCase {
    private let search = "/2/tweets/search/recent"

    private func api(_ stub: StubServer) -> [String: String] {
        ["TWEETSH_API_BASE": stub.baseURL.absoluteString, "X_BEARER_TOKEN": StubServer.defaultBearerToken]
    }

    /// The tweet ids of each JSON line (one API page per line) a run printed.
    private func pages(_ run: ProcessRun, file: StaticString = #filePath, line: UInt = #line) throws -> [[String]] {
        XCTAssertEqual(run.status, 0, run.standardError, file: file, line: line)
        return try run.standardOutput.split(separator: "\n").map { text in
            let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            let data = try XCTUnwrap(object?["data"] as? [[String: Any]], "a page line: \(text.prefix(80))")
            return data.compactMap { $0["id"] as? String }
        }
    }

    func testMoreInANewProcessContinuesTheLastLocalSearch() throws {
        let tweetsh = Tweetsh()
        let together = try pages(tweetsh.run(["--json", "-c", "search swift; more"]))
        XCTAssertEqual(together.count, 2)
        XCTAssertEqual(try tweetsh.run(["-c", "search swift"]).status, 0)
        let resumed = try tweetsh.run(["--json", "-c", "more"])
        XCTAssertTrue(resumed.standardError.contains("continuing the last search, 'swift'"), resumed.standardError)
        XCTAssertTrue(resumed.standardError.contains("after its 20 earlier results"), resumed.standardError)
        XCTAssertEqual(try pages(resumed), [together[1]], "the page after the first, as in one process")

        // The earlier results are rebuilt, so numbering goes on and show reaches them.
        let numbered = try tweetsh.run(["-c", "more; show 3; show 41"])
        XCTAssertEqual(numbered.status, 0, numbered.standardError)
        XCTAssertTrue(numbered.standardOutput.contains("41 @"), numbered.standardOutput)
        XCTAssertFalse(numbered.standardOutput.contains(" 1 @"), "numbering does not start again")
        XCTAssertTrue(numbered.standardOutput.contains("#3 ") && numbered.standardOutput.contains("#41 "))
    }

    func testMoreInANewProcessContinuesTheLastAPISearch() throws {
        let stub = try StubServer()
        defer { stub.stop() }
        let tweetsh = Tweetsh()
        let first = try pages(tweetsh.run(["--json", "-c", "search --limit 10 #swift"], environment: api(stub)))
        let resumed = try tweetsh.run(["--json", "-c", "more 10"], environment: api(stub))
        XCTAssertTrue(resumed.standardError.contains("after its 10 earlier results"), resumed.standardError)
        let second = try pages(resumed)
        let third = try pages(tweetsh.run(["--json", "-c", "more 10"], environment: api(stub)))
        XCTAssertEqual(first.flatMap { $0 }.count, 10)
        XCTAssertEqual(second.flatMap { $0 }.count, 10)
        XCTAssertEqual(third.flatMap { $0 }.count, 5)
        XCTAssertEqual(Set(first[0] + second[0] + third[0]).count, StubCorpus.Fixture.swiftCount, "no tweet twice")
        let tokens = stub.requests(path: search).map { $0.query["next_token"] }
        XCTAssertEqual(tokens.count, 3)
        XCTAssertNil(tokens[0] ?? nil)
        XCTAssertNotNil(tokens[1] ?? nil, "the second run asked for the page after the first")
        let last = try tweetsh.run(["-c", "more"], environment: api(stub))
        XCTAssertEqual(last.status, 1)
        XCTAssertTrue(last.standardError.contains("no more results for '#swift'"), last.standardError)
    }

    func testLimitBelowTheAPIMinimumShowsThatManyAndKeepsTheRestForMore() throws {
        let stub = try StubServer()
        defer { stub.stop() }
        let tweetsh = Tweetsh()
        let reference = try pages(tweetsh.run(["--json", "-c", "search --limit 10 #swift"], environment: api(stub)))[0]
        stub.clearRecording()

        let small = try pages(
            tweetsh.run(["--json", "-c", "search --refresh --limit 2 #swift; more; more 3"], environment: api(stub)))
        XCTAssertEqual(small, [Array(reference[0..<2]), Array(reference[2..<4]), Array(reference[4..<7])])
        XCTAssertEqual(stub.requests(path: search).count, 1, "one page of the minimum size serves all three")
        XCTAssertEqual(stub.requests(path: search).first?.query["max_results"], "10")

        let rows = try tweetsh.run(["-c", "search --limit 2 #swift"], environment: api(stub))
        XCTAssertEqual(rows.status, 0, rows.standardError)
        XCTAssertEqual(rows.standardOutput.split(separator: "\n").count, 2, rows.standardOutput)
        let resumed = try tweetsh.run(["-c", "more 3"], environment: api(stub))
        XCTAssertTrue(resumed.standardError.contains("after its 2 earlier results"), resumed.standardError)
        XCTAssertEqual(
            resumed.standardOutput.split(separator: "\n").map { $0.prefix(4).trimmingCharacters(in: .whitespaces) },
            ["3 @", "4 @", "5 @"], resumed.standardOutput)

        // Across the end of the fetched page: the 3 left in it, then 2 from the next API page, each printed as a line
        // of its own API response (with that response's `__twarc`), as `export` writes them.
        let across = try pages(
            tweetsh.run(["--json", "-c", "search --limit 7 #swift; more 5"], environment: api(stub)))
        XCTAssertEqual(across.map(\.count), [7, 3, 2])
        XCTAssertEqual(across[1], Array(reference[7..<10]))
        XCTAssertEqual(Set(across.joined()).count, 12, "no tweet twice")
        XCTAssertEqual(stub.requests(path: search).count, 2, "the next API page, once")
    }

    func testNewTweetsJoinTheCachedViewOfTheSameSearch() throws {
        let full = StubCorpus.standard()
        let swift = full.tweets.filter { $0.entities.hashtags.contains { $0.tag.lowercased() == "swift" } }
        let newest = Set(swift.map(\.id).sorted(by: >).prefix(3))
        var older = full
        older.tweets.removeAll { newest.contains($0.id) }
        let before = try StubServer(configuration: StubServer.Configuration(corpus: older))
        let tweetsh = Tweetsh()
        let first = try pages(tweetsh.run(["--json", "-c", "search #swift"], environment: api(before)))[0]
        before.stop()
        XCTAssertTrue(newest.isDisjoint(with: first.compactMap { TweetID($0) }))

        let after = try StubServer(configuration: StubServer.Configuration(corpus: full))
        defer { after.stop() }
        let new = try tweetsh.run(["--json", "-c", "search --new #swift"], environment: api(after))
        XCTAssertTrue(new.standardError.contains("3 new tweets"), new.standardError)
        XCTAssertEqual(Set(try pages(new)[0].compactMap { TweetID($0) }), newest)

        let cached = try tweetsh.run(["--json", "-c", "search #swift"], environment: api(after))
        XCTAssertTrue(cached.standardError.contains("(cached, "), cached.standardError)
        // The new tweets came in a response of their own, so they are a line of their own.
        let view = Array(try pages(cached).joined())
        XCTAssertEqual(Set(view.prefix(3).compactMap { TweetID($0) }), newest, "the new tweets lead the cached view")
        XCTAssertEqual(Array(view.dropFirst(3)), first, "followed by what was cached before")
        XCTAssertEqual(after.requests(path: search).count, 1, "only --new asked the API")
    }
}
