import Foundation
import TerminalTesting
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
