import Foundation
import TerminalTesting
import XCTest

/// `export` empties the file it writes, so it refuses the files whose loss cannot be undone: the store itself and the
/// files collections were imported from (through another spelling or a symlink too). Other files are replaced.
final class ExportTargetTests: XCTestCase {
    func testExportNeverWritesOverTheStoreOrAnImportedFile() throws {
        let tweetsh = Tweetsh()
        let store = tweetsh.home.file("store.sqlite")
        let mine = tweetsh.home.file("mine.jsonl")
        let original = ImportCommandTests.page(first: 500, count: 6, word: "coffee")
        try original.write(toFile: mine, atomically: true, encoding: .utf8)
        let link = tweetsh.home.file("link.jsonl")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: mine)
        let other = tweetsh.home.file("other.jsonl")
        try "old contents\n".write(toFile: other, atomically: true, encoding: .utf8)
        let run = try tweetsh.run([
            "--store", store, "-c", "import \(mine)", "-c", "search coffee", "-c", "export \(store)",
            "-c", "export \(tweetsh.home.path)/./store.sqlite-wal", "-c", "export \(mine) --format csv",
            "-c", "export --ids \(link)", "-c", "export \(other)",
        ])
        XCTAssertEqual(run.status, 1, "the refused exports failed")
        XCTAssertTrue(
            run.standardError.contains(
                "error: will not write \(store): it is this shell's store; export to another file"),
            run.standardError)
        XCTAssertTrue(run.standardError.contains("store.sqlite-wal: it is this shell's store"), run.standardError)
        let imported = "the store imported tweets from that file; export to a new file, so the original stays as it is"
        XCTAssertTrue(run.standardError.contains("will not write \(mine): " + imported), run.standardError)
        XCTAssertTrue(run.standardError.contains("will not write \(link): " + imported), run.standardError)
        XCTAssertEqual(try String(contentsOfFile: mine, encoding: .utf8), original, "the imported file is untouched")
        XCTAssertTrue(run.standardOutput.contains("wrote 6 tweets to \(other)"), run.standardOutput)
        XCTAssertTrue(run.standardError.contains("\(other) existed and is replaced"), run.standardError)
        XCTAssertEqual(run.standardError.components(separatedBy: "existed and is replaced").count, 2, "said once")
        XCTAssertFalse(try String(contentsOfFile: other, encoding: .utf8).contains("old contents"))

        let after = try tweetsh.run(["--store", store, "-c", "search coffee"])
        XCTAssertEqual(after.status, 0, after.standardError)
        XCTAssertTrue(
            after.standardError.contains("6 matches"), "the store still holds its tweets: \(after.standardError)")
    }

    /// `export -` writes to standard output, as `import -` reads standard input: after what the shell printed before
    /// it, and with the line that says it was written on stderr, so the data stays clean.
    func testADashExportsToStandardOutput() throws {
        let tweetsh = Tweetsh()
        let mine = tweetsh.home.file("mine.jsonl")
        try ImportCommandTests.page(first: 500, count: 3, word: "coffee").write(
            toFile: mine, atomically: true, encoding: .utf8)
        let imported = try tweetsh.run(["-c", "import \(mine)"])
        XCTAssertEqual(imported.status, 0, imported.standardError)
        let run = try tweetsh.run(["--json", "-c", "search coffee", "-c", "export - --format csv --columns id,text"])
        XCTAssertEqual(run.status, 0, run.standardError)
        let lines = run.standardOutput.split(separator: "\n")
        XCTAssertEqual(lines.count, 5, run.standardOutput)
        XCTAssertTrue(lines[0].hasPrefix("{\"data\""), "the search's own line first: \(lines[0])")
        XCTAssertEqual(
            Array(lines[1...]), ["id,text", "502,coffee number 502", "501,coffee number 501", "500,coffee number 500"])
        XCTAssertTrue(run.standardError.contains("wrote 3 tweets to standard output as csv"), run.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tweetsh.home.file("-")), "no file named -")
    }
}
