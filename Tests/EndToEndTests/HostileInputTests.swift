import Foundation
import TerminalTesting
import XCTest

/// Hostile tweets through the real binary on a real pseudo-terminal: whatever a tweet holds, the terminal receives
/// no escape sequence from it, so the window title stays as it was and nothing is coloured, cleared or overwritten.
final class HostileInputTests: XCTestCase {
    static let texts = [
        "osc-bel window title \u{1B}]0;PWNED-BEL\u{07} after hostile",
        "osc-st window title \u{1B}]2;PWNED-ST\u{1B}\\ after hostile",
        "c1-osc window title \u{9D}0;PWNED-C1\u{9C} after hostile",
        "csi colour \u{1B}[31mRED\u{1B}[0m clear \u{1B}[2J overwrite\rXX back\u{08}\u{08} hostile",
        "bidi \u{202E}gnp.exe and \u{2067}שלום unclosed hostile\nsecond line",
    ]

    /// A twarc2-style page of the texts, by an author whose name is hostile too.
    static func writeFixture(to path: String) throws {
        let tweets: [[String: Any]] = texts.enumerated().map { index, text in
            [
                "id": String(1_800_000_000_000_000_000 + index), "text": text, "author_id": "66",
                "created_at": "2024-01-01T00:00:00.000Z",
                "entities": ["hashtags": [["start": 0, "end": 1, "tag": "t\u{1B}]0;PWNED-TAG\u{07}"]]],
            ]
        }
        let page: [String: Any] = [
            "data": tweets,
            "includes": ["users": [["id": "66", "username": "evil", "name": "Evil \u{1B}]0;PWNED-NAME\u{07}"]]],
        ]
        let data = try JSONSerialization.data(withJSONObject: page)
        writeTextFile(path, String(decoding: data, as: UTF8.self) + "\n")
    }

    /// The window title a terminal would show after `output`, starting from `initial`: OSC 0 and OSC 2 set it,
    /// ended by BEL or ST, in their 7-bit (ESC ]) and 8-bit (U+009D) forms.
    static func windowTitle(after output: String, initial: String) -> String {
        var title = initial
        let scalars = Array(output.unicodeScalars)
        var index = 0
        while index < scalars.count {
            var start: Int?
            if scalars[index] == "\u{1B}", index + 1 < scalars.count, scalars[index + 1] == "]" {
                start = index + 2
            } else if scalars[index] == "\u{9D}" {
                start = index + 1
            }
            guard let begin = start else {
                index += 1
                continue
            }
            var end = begin
            while end < scalars.count, scalars[end] != "\u{07}", scalars[end] != "\u{9C}",
                !(scalars[end] == "\u{1B}" && end + 1 < scalars.count && scalars[end + 1] == "\\")
            {
                end += 1
            }
            let body = String(String.UnicodeScalarView(scalars[begin..<end]))
            if body.hasPrefix("0;") || body.hasPrefix("2;") { title = String(body.dropFirst(2)) }
            index = end + 1
        }
        return title
    }

    func testTheWindowTitleIsUnchangedAfterSearchShowThreadAndLive() throws {
        let tweetsh = Tweetsh()
        let fixture = tweetsh.home.file("hostile.jsonl")
        try Self.writeFixture(to: fixture)
        // Colour on, so the renderer's own codes are there to be told apart from the tweets'.
        let terminal = try tweetsh.terminal(environment: ["NO_COLOR": ""])
        try terminal.waitForPrompt("no key)")
        for command in ["import \(fixture)", "search hostile", "show 1", "show 3", "thread 5", "format detail"] {
            terminal.type(command + "\r")
            try terminal.waitForPrompt("no key)")
        }
        terminal.type("search hostile\r")
        try terminal.waitForPrompt("no key)")
        terminal.type("live hostile\r")
        try terminal.waitFor("matches for 'hostile'")
        terminal.type("\r")
        try terminal.waitFor("press any key to return to the results")
        terminal.type("\u{04}")
        try terminal.waitForPrompt("no key)")
        // The data formats on a terminal: JSON escapes what a terminal obeys, CSV shows it.
        for command in ["format json", "search hostile", "show 2", "format csv", "search hostile"] {
            terminal.type(command + "\r")
            try terminal.waitForPrompt("no key)")
        }
        terminal.type("quit\r")
        XCTAssertEqual(exitCode(try terminal.waitForExit()), 0)

        let output = terminal.output
        XCTAssertEqual(Self.windowTitle(after: "\u{1B}]0;known title\u{07}" + output, initial: ""), "known title")
        XCTAssertTrue(
            Self.windowTitle(after: "\u{1B}]0;PWNED\u{07}", initial: "known") == "PWNED",
            "the title tracker sees a title change")
        XCTAssertFalse(output.contains("\u{1B}]"), "no OSC reached the terminal")
        XCTAssertFalse(output.unicodeScalars.contains { (0x80...0x9F).contains($0.value) }, "no C1 control")
        XCTAssertFalse(output.contains("\u{1B}[31mRED"), "the tweet's colour code did not reach the terminal")
        XCTAssertFalse(output.contains("\u{202E}"), "no right-to-left override")
        for shown in ["␛]0;PWNED-BEL␇", "␛]2;PWNED-ST␛\\", "␛]0;PWNED-C1␛\\", "␛[31mRED", "overwrite␍XX", "␈"] {
            XCTAssertTrue(output.contains(shown), "\(shown) is shown: \(output.debugDescription)")
        }
        XCTAssertTrue(output.contains("Evil ␛]0;PWNED-NAME␇"), "the author's name is shown, not obeyed")
        XCTAssertTrue(output.contains(#"\u009d0;PWNED-C1\u009c"#), "JSON escapes the C1 controls")
        XCTAssertTrue(output.contains(#""name":"Evil \u001b]0;PWNED-NAME\u0007""#), "JSON prints the user as imported")
        XCTAssertFalse(output.contains(#""verified":false"#), "and invents nothing")
    }

    /// Piped output is data for scripts: rows whole and on one line, still with nothing a terminal would obey.
    func testPipedRowsAreWholeAndSafe() throws {
        let tweetsh = Tweetsh()
        let fixture = tweetsh.home.file("hostile.jsonl")
        try Self.writeFixture(to: fixture)
        let run = try tweetsh.run(["-c", "import \(fixture); search hostile"])
        XCTAssertEqual(run.status, 0, run.standardError)
        let rows = run.standardOutput.split(separator: "\n").filter { $0.contains("@evil") }
        XCTAssertEqual(rows.count, Self.texts.count, run.standardOutput)
        XCTAssertTrue(
            rows.contains { $0.contains("unclosed hostile\u{2069} ⏎ \u{2067}second line") },
            "the whole text, its line break shown: \(rows)")
        XCTAssertFalse(run.standardOutput.contains("\u{1B}"), run.standardOutput.debugDescription)
    }
}
