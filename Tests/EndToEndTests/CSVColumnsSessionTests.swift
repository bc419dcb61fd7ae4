import Foundation
import TerminalTesting
import XCTest

/// `--columns` through the real binary: `format csv` prints the chosen columns (and a new header when they change),
/// `export` writes them to the file, and an unknown name fails the command with a close match.
final class CSVColumnsSessionTests: XCTestCase {
    func testFormatCSVPrintsTheChosenColumnsAndANewHeaderWhenTheyChange() throws {
        let run = try Tweetsh().run(["-c", "format csv --columns id,author.username; search swift; format csv; more"])
        XCTAssertEqual(run.status, 0, run.standardError)
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "id,author.username")
        let full = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("id,conversation_id,") }, run.standardOutput)
        XCTAssertGreaterThan(full, 1, "rows of the first search come before the second header")
        for row in lines[1..<full] {
            XCTAssertEqual(row.split(separator: ",", omittingEmptySubsequences: false).count, 2, row)
            XCTAssertNotNil(UInt64(row.prefix { $0 != "," }), "the first cell is a tweet id: \(row)")
        }
        XCTAssertEqual(lines[full].split(separator: ",").count, 84)
        XCTAssertGreaterThan(lines.count, full + 1, "more printed rows under the full header")
    }

    func testExportWritesTheChosenColumnsAndRefusesUnknownOnes() throws {
        let tweetsh = Tweetsh()
        let path = tweetsh.home.file("few.csv")
        let run = try tweetsh.run(["-c", "search swift; export \(path) --columns text,id"])
        XCTAssertEqual(run.status, 0, run.standardError)
        let written = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(written.first, "text,id")
        XCTAssertEqual(written.count, 21, "the header and the 20 results of the first page")
        let bad = try tweetsh.run(["-c", "search swift; export \(path) --columns id,author.usrname"])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(
            bad.standardError.contains("unknown CSV column 'author.usrname'; did you mean 'author.username'?"),
            bad.standardError)
    }
}
