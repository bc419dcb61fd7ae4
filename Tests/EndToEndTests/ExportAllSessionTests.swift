import Foundation
import TerminalTesting
import XAPIStub
import XCTest

/// `export --all` in the real binary: every match of the search, not only the page shown.
final class ExportAllSessionTests: XCTestCase {
    func testExportAllWritesEveryMatchOnce() throws {
        let tweetsh = Tweetsh()
        let all = tweetsh.home.file("all.jsonl")
        let shown = tweetsh.home.file("shown.jsonl")
        let run = try tweetsh.run(["-c", "search coffee; export \(all) --all; export \(shown)"])
        XCTAssertEqual(run.status, 0, run.standardError)
        let matches = try XCTUnwrap(
            (run.standardOutput + run.standardError).split(separator: "\n").first { $0.hasSuffix(" matches") }?
                .split(separator: " ").first.flatMap { Int($0) }, run.standardOutput + run.standardError)
        XCTAssertGreaterThan(matches, 20, "the search has more than one page")

        func ids(_ path: String) throws -> [String] {
            try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").flatMap { line -> [String] in
                let page = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                return (page?["data"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            }
        }
        let everything = try ids(all)
        XCTAssertEqual(everything.count, matches)
        XCTAssertEqual(Set(everything).count, matches, "each tweet once")
        XCTAssertTrue(run.standardOutput.contains("wrote \(matches) tweets to \(all) as jsonl"), run.standardOutput)
        XCTAssertEqual(try ids(shown).count, 20, "without --all, the page shown")
        XCTAssertTrue(Set(try ids(shown)).isSubset(of: Set(everything)))
    }
}

/// An export of an X search writes what the API sent, also when the search is answered again from the cache.
final class APIExportSessionTests: XCTestCase {
    static let page = #"""
        {"data":[{"id":"1700000000000000001","text":"A long lossless post, cut short…","edit_history_tweet_ids":["1700000000000000001"],"author_id":"101","created_at":"2024-02-29T09:00:00.000Z","note_tweet":{"text":"A long lossless post, in full."},"context_annotations":[{"domain":{"id":"66","name":"Interests"},"entity":{"id":"847544972781826048","name":"Data science"}}],"geo":{"place_id":"01a9a39529b27f36"},"reply_settings":"following"}],"includes":{"users":[{"id":"101","username":"ada","name":"Ada","verified_type":"blue"}],"places":[{"id":"01a9a39529b27f36","full_name":"London, England","country_code":"GB"}]},"meta":{"result_count":1}}
        """#

    func testExportOfAnAPISearchIsWhatTheAPISent() throws {
        let corpus = try StubCorpus(jsonl: Data(Self.page.utf8))
        let stub = try StubServer(configuration: .init(corpus: corpus))
        defer { stub.stop() }
        let tweetsh = Tweetsh()
        let fresh = tweetsh.home.file("fresh.jsonl")
        let cached = tweetsh.home.file("cached.jsonl")
        let run = try tweetsh.run(
            ["-c", "search --source x lossless; export \(fresh); search --source x lossless; export \(cached)"],
            environment: [
                "TWEETSH_API_BASE": stub.baseURL.absoluteString, "X_BEARER_TOKEN": StubServer.defaultBearerToken,
            ])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertEqual(stub.requests(path: "/2/tweets/search/recent").count, 1, "the second search is the cache's")
        for path in [fresh, cached] {
            let line = try XCTUnwrap(try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").first)
            let page = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let tweet = try XCTUnwrap((page["data"] as? [[String: Any]])?.first, path)
            XCTAssertNotNil(tweet["context_annotations"], path)
            XCTAssertEqual(
                (tweet["note_tweet"] as? [String: Any])?["text"] as? String, "A long lossless post, in full.")
            XCTAssertEqual(
                tweet["text"] as? String, "A long lossless post, cut short…", "text as sent, beside the note")
            let includes = try XCTUnwrap(page["includes"] as? [String: Any], path)
            XCTAssertEqual(((includes["places"] as? [[String: Any]])?.first)?["country_code"] as? String, "GB", path)
            let user = try XCTUnwrap((includes["users"] as? [[String: Any]])?.first, path)
            XCTAssertEqual(user["verified_type"] as? String, "blue")
            XCTAssertNil(user["verified"], "nothing invented")
            let twarc = try XCTUnwrap(page["__twarc"] as? [String: Any], path)
            XCTAssertTrue((twarc["url"] as? String)?.contains("/2/tweets/search/recent?") == true, path)
        }
    }
}
