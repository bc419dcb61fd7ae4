import Foundation
import TerminalTesting
import XCTest

/// tweetsh in scripts and pipelines: clean output, and exit codes that say what happened.
final class ScriptedRunTests: XCTestCase {
    func testDashCRunsStatementsWithCleanOutput() throws {
        let run = try Tweetsh().run(["-c", "search swift; more; show 3"])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertTrue(run.standardOutput.contains("21 @"), run.standardOutput)
        XCTAssertTrue(run.standardOutput.contains("#3 "), run.standardOutput)
        XCTAssertFalse(run.standardOutput.contains("\u{1B}"), "no escape codes on a pipe")
        XCTAssertFalse(run.standardError.contains("\u{1B}"), "no spinner or colour on a pipe")
    }

    func testEachDashCRunsAfterTheOneBefore() throws {
        // The second -c used to replace the first without a word, so `show 3` ran with no results.
        let run = try Tweetsh().run(["-c", "search swift; more", "-c", "show 3", "-c", "show 99"])
        XCTAssertEqual(run.status, 1, "the last command fails: there is no result 99")
        XCTAssertTrue(run.standardOutput.contains("21 @"), run.standardOutput)
        XCTAssertTrue(run.standardOutput.contains("#3 "), run.standardOutput)
        XCTAssertFalse(run.standardError.contains("search first"), run.standardError)
        // A quote left open in one -c stays inside it, and the message says where it opened.
        let quoted = try Tweetsh().run(["-c", "search \"open", "-c", "search swift"])
        XCTAssertTrue(quoted.standardOutput.contains(" 1 @"), quoted.standardOutput + quoted.standardError)
        XCTAssertTrue(
            quoted.standardError.contains("error: unclosed quote (at column 8)"), quoted.standardError)
    }

    func testAnExportThatCannotBeWrittenSaysWhy() throws {
        let tweetsh = Tweetsh()
        let missing = tweetsh.home.file("no-such-folder/out.jsonl")
        let run = try tweetsh.run([
            "-c", "search swift", "-c", "export \(missing)", "-c", "export \(tweetsh.home.path)", "-c", "export ''",
            "-c", "backup ''", "-c", "import ''",
        ])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(
            run.standardError.contains(
                "cannot write \(missing) (the folder \(tweetsh.home.file("no-such-folder")) does not exist)"),
            run.standardError)
        XCTAssertTrue(
            run.standardError.contains("cannot write \(tweetsh.home.path) (it is a folder; give the name of a file)"),
            run.standardError)
        XCTAssertTrue(
            run.standardError.contains("error: the file name is empty; give a file's name, or - for standard output"),
            run.standardError)
        XCTAssertTrue(run.standardError.contains("error: the file name is empty; give the backup a new file's name"))
        XCTAssertTrue(run.standardError.contains("error: a file name is empty; give a file's or folder's name"))
    }

    func testPipedScriptHasNoPromptsOrEscapes() throws {
        let run = try Tweetsh().run([], input: "search swift\nshow 1\n# a comment\nformat detail\nmore\n")
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertFalse(run.standardOutput.contains("tweetsh ("), "no prompt when stdin is not a terminal")
        XCTAssertFalse(run.standardOutput.contains("\u{1B}"))
        XCTAssertFalse(run.standardError.contains("\u{1B}"))
        XCTAssertTrue(run.standardOutput.contains("#21 "), "format detail applied to the next page")
    }

    func testOneShotJSONIsTwarcCompatibleLines() throws {
        let run = try Tweetsh().run(["search", "swift", "--json"])
        XCTAssertEqual(run.status, 0, run.standardError)
        let lines = run.standardOutput.split(separator: "\n")
        XCTAssertFalse(lines.isEmpty)
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            let data = object?["data"] as? [[String: Any]]
            XCTAssertNotNil(data, "each line is an API page: \(line.prefix(80))")
            XCTAssertNotNil(data?.first?["id"] as? String, "ids are strings as in the API")
        }
    }

    func testExitCodes() throws {
        let tweetsh = Tweetsh()
        XCTAssertEqual(try tweetsh.run(["-c", "search swift; show 99"]).status, 1, "a failed command")
        XCTAssertEqual(try tweetsh.run(["-c", "frobnicate"]).status, 1, "an unknown command")
        let usage = try tweetsh.run(["--bogus"])
        XCTAssertEqual(usage.status, 2)
        XCTAssertTrue(usage.standardError.contains("unknown option '--bogus'"))
        XCTAssertEqual(try tweetsh.run(["--help"]).status, 0)
    }

    func testColourFollowsTheFlagOnAPipe() throws {
        let run = try Tweetsh().run(["--color", "always", "-c", "search swift"], environment: ["NO_COLOR": ""])
        XCTAssertTrue(run.standardOutput.contains("\u{1B}["), "--color always overrides the pipe")
    }
}
