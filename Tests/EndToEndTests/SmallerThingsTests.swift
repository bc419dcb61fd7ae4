import Foundation
import TerminalTesting
import XCTest

/// The smaller items of issue 16, each through the real binary as a script would run it.
final class SmallerThingsTests: XCTestCase {
    func testHistorySearchesAndAgainReachEverySearch() throws {
        let tweetsh = Tweetsh()
        let searches = (1...57).map { "search word\($0)" }.joined(separator: "; ")
        let run = try tweetsh.run(["-c", searches + "; history searches; again 57"])
        let listed = run.standardOutput.split(separator: "\n").filter { $0.contains("[local] word") }
        XCTAssertEqual(listed.count, 57, run.standardOutput)
        XCTAssertTrue(
            listed.last?.contains("[local] word1 ") == true, "the oldest is listed last: \(listed.last ?? "")")
        XCTAssertTrue(run.standardError.contains("search word1\n"), "again 57 re-ran the oldest: \(run.standardError)")
        XCTAssertFalse(run.standardError.contains("no search 57"), run.standardError)
    }

    /// A config file with one line that is not UTF-8 (a Latin-1 comment) loses that line, said with its number, and
    /// keeps every other setting; it used to fall back to the defaults for all of them.
    func testAConfigLineThatIsNotUTF8IsTheOnlyOneIgnored() throws {
        let tweetsh = Tweetsh()
        let folder = tweetsh.home.file("config") + "/tweetsh"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var config = Data("page_size = 3\n# caf".utf8)
        config.append(0xE9)
        config.append(contentsOf: Data(" (Latin-1)\nformat = nonsense\n".utf8))
        try config.write(to: URL(fileURLWithPath: folder + "/config"))
        let run = try tweetsh.run(["-c", "search data"])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertTrue(
            run.standardError.contains("/config:2: is not UTF-8 text; the line is ignored"), run.standardError)
        XCTAssertTrue(run.standardError.contains("/config:3: format must be"), run.standardError)
        XCTAssertEqual(run.standardOutput.split(separator: "\n").filter { $0.contains(" @") }.count, 3, "page_size 3")
    }

    /// `user 3` lists result 3's author's tweets, as `show 3` shows that result; it used to search for a user
    /// named "3" and print "no results".
    func testUserThreeListsTheTweetsOfResultThreesAuthor() throws {
        let run = try Tweetsh().run(["-c", "search coffee; show 3; user 3"])
        XCTAssertEqual(run.status, 0, run.standardError)
        let shown = run.standardOutput.split(separator: "\n").first { $0.hasPrefix("#3 ") }
        let handle = try XCTUnwrap(shown?.split(separator: "@").last.map(String.init), run.standardOutput)
        let listed = run.standardOutput.split(separator: "\n").drop { !$0.contains("https://x.com/") }.dropFirst()
            .filter { $0.contains(" @") }
        XCTAssertFalse(listed.isEmpty, run.standardOutput)
        XCTAssertTrue(listed.allSatisfy { $0.contains("@\(handle) ") }, "\(listed)")
        let none = try Tweetsh().run(["-c", "user 3"])
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.standardError.contains("no results yet"), none.standardError)
    }

    func testShowTwentyIsAResultAndShowIdTwentyIsATweet() throws {
        let run = try Tweetsh().run(["-c", "search swift --limit 30; show 20; show id:20"])
        XCTAssertTrue(run.standardOutput.contains("#20 "), run.standardOutput)
        XCTAssertTrue(
            run.standardError.contains("error: tweet 20 is not in the local store"), run.standardError)
        XCTAssertEqual(run.status, 1, "show id:20 failed: there is no such tweet")
    }

    /// A tweet looked up by id is outside the numbered list: its header has no number, and a retweet lists the
    /// original's tags and mentions, since its own end where X cut the text.
    func testShowByIdHasNoNumberAndARetweetListsTheOriginalsEntities() throws {
        let tweetsh = Tweetsh()
        let fixture = tweetsh.home.file("retweet.jsonl")
        let page: [String: Any] = [
            "data": [
                [
                    "id": "1800000000000000010", "text": "RT @orig: a long original that X cut…", "author_id": "7",
                    "referenced_tweets": [["type": "retweeted", "id": "1800000000000000009"]],
                    "entities": ["mentions": [["start": 3, "end": 8, "username": "orig", "id": "8"]]],
                ]
            ],
            "includes": [
                "users": [
                    ["id": "7", "username": "fan", "name": "Fan"], ["id": "8", "username": "orig", "name": "O"],
                ],
                "tweets": [
                    [
                        "id": "1800000000000000009", "author_id": "8",
                        "text": "a long original that X cut in the retweet #fromoriginal @someoneelse",
                        "entities": [
                            "hashtags": [["start": 42, "end": 55, "tag": "fromoriginal"]],
                            "mentions": [["start": 56, "end": 68, "username": "someoneelse", "id": "9"]],
                        ],
                    ]
                ],
            ],
        ]
        writeTextFile(fixture, String(decoding: try JSONSerialization.data(withJSONObject: page), as: UTF8.self) + "\n")
        let run = try tweetsh.run(["-c", "import \(fixture); show 1800000000000000010"])
        XCTAssertEqual(run.status, 0, run.standardError)
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        let header = try XCTUnwrap(lines.first { $0.contains("@fan") })
        XCTAssertTrue(header.hasPrefix("Fan @fan"), "no '#0' before the author: \(header)")
        XCTAssertTrue(lines.contains("Tags: #fromoriginal"), run.standardOutput)
        XCTAssertTrue(lines.contains("Mentions: @someoneelse"), run.standardOutput)
    }

    func testExitWithAWordAfterItLeaves() throws {
        let run = try Tweetsh().run(["-c", "exit now; search swift"])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertEqual(run.standardOutput, "", "nothing ran after exit")
    }

    func testAZeroResultSearchSaysNoResultsOnceAndShowSaysItFoundNothing() throws {
        let run = try Tweetsh().run(["-c", "search zzqqxxnothing; show 1"])
        XCTAssertTrue(run.standardError.contains("no results"), run.standardError)
        XCTAssertFalse(run.standardError.contains("0 matches"), run.standardError)
        XCTAssertTrue(
            run.standardError.contains("error: no result 1: the last search ('zzqqxxnothing') found nothing"),
            run.standardError)
        XCTAssertFalse(run.standardError.contains("search first"), run.standardError)
    }

    /// Piped rows carry the whole text; `--width` and `COLUMNS` cut them when asked.
    func testPipedRowsAreFullWidthUnlessAWidthIsAsked() throws {
        let tweetsh = Tweetsh()
        let fixture = tweetsh.home.file("long.jsonl")
        let text = "longtweet " + (1...40).map { "word\($0)" }.joined(separator: " ") + "\nlast line"
        let page: [String: Any] = [
            "data": [["id": "1800000000000000020", "text": text, "author_id": "7"]],
            "includes": ["users": [["id": "7", "username": "writer", "name": "W"]]],
        ]
        writeTextFile(fixture, String(decoding: try JSONSerialization.data(withJSONObject: page), as: UTF8.self) + "\n")
        _ = try tweetsh.run(["-c", "import \(fixture)"])

        let whole = try tweetsh.run(["-c", "search longtweet"])
        let row = try XCTUnwrap(whole.standardOutput.split(separator: "\n").first { $0.contains("@writer") })
        XCTAssertTrue(row.hasSuffix("word40 ⏎ last line"), String(row))
        XCTAssertGreaterThan(row.count, 300)

        for (arguments, environment) in [(["--width", "60"], [String: String]()), ([], ["COLUMNS": "60"])] {
            let cut = try tweetsh.run(arguments + ["-c", "search longtweet"], environment: environment)
            let row = try XCTUnwrap(cut.standardOutput.split(separator: "\n").first { $0.contains("@writer") })
            XCTAssertEqual(row.count, 60, String(row))
            XCTAssertTrue(row.hasSuffix("…"), String(row))
        }
        let bad = try tweetsh.run(["--width", "wide", "-c", "search longtweet"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.standardError.contains("--width takes a number of columns"), bad.standardError)
    }

    /// Ctrl-R says what it does (libedit's own search prompt read `bck:`), finds older matches, and Enter runs one.
    func testCtrlRSearchesTheHistoryWithAPromptThatSaysSo() throws {
        let tweetsh = Tweetsh()
        let terminal = try tweetsh.terminal()
        try terminal.waitForPrompt("(local, no key)> ")
        for line in ["search swift", "search rust", "search swiftlang"] {
            terminal.type(line + "\r")
            try terminal.waitForPrompt("(local, no key)> ")
        }
        terminal.type("\u{12}swi")
        try terminal.waitFor("(history search) 'swi': search swiftlang")
        terminal.type("\u{12}")
        try terminal.waitFor("(history search) 'swi': search swift")
        terminal.type("\r")
        try terminal.waitFor(" 1 @")
        try terminal.waitForPrompt("(local, no key)> ")
        terminal.type("quit\r")
        XCTAssertEqual(exitCode(try terminal.waitForExit()), 0)
        XCTAssertFalse(terminal.output.contains("bck:"), terminal.output.debugDescription)
        let history = readTextFile(tweetsh.historyFile) ?? ""
        // libedit's file format writes a space as \040.
        let runs = history.split(separator: "\n").filter { $0 == "search\\040swift" }
        XCTAssertEqual(runs.count, 2, "the match ran again: \(history)")
    }
}
