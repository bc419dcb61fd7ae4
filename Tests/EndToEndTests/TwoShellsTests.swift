import Foundation
import LineEditor
import TerminalTesting
import TweetKit
import XCTest

/// Two interactive shells on one store and one history file, each typing its next command as soon as its prompt is
/// back, so imports overlap the other shell's searches and its own import. Nothing typed may be lost from the history,
/// no one may see "database is locked", and the store must end with exactly the tweets of every file.
final class TwoShellsTests: XCTestCase {
    private static let prompt = "(local, no key)> "
    /// Tweets per file: more than one 5,000-tweet import batch, so each import commits twice.
    private static let tweetsPerFile = 6_000

    func testTwoShellsSearchingAndImportingAtOnce() throws {
        let tweetsh = Tweetsh()
        let store = tweetsh.home.file("shared.sqlite")
        let seeding = try tweetsh.run(["--store", store, "-c", "source"])
        XCTAssertEqual(seeding.status, 0, seeding.standardError)

        // Four collections of different generated tweets, and the counts they must add up to with the demo corpus.
        var searchable = Set<UInt64>()
        for page in DemoCorpus.firstRun { searchable.formUnion(page.tweets.map(\.id.rawValue)) }
        var files: [String] = []
        for (index, seed) in [11, 12, 13, 14].enumerated() {
            let path = tweetsh.home.file("part\(index + 1).jsonl")
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            let corpus = DemoCorpus(seed: UInt64(seed), tweetCount: Self.tweetsPerFile)
            try corpus.writeTwarc2JSONL(to: handle)
            try handle.close()
            for page in corpus { searchable.formUnion(page.tweets.map(\.id.rawValue)) }
            files.append(path)
        }

        // Every line differs from every other, so libedit's dropping of a repeated line cannot hide a lost one.
        let first = [
            "import \(files[0])", "search data", "search coffee lang:en", "more 5", "show 3", "import \(files[2])",
            "search #music", "search people -is:retweet", "more 3",
        ]
        let second = [
            "search music", "import \(files[1])", "search music lang:en", "more 7", "search \"good morning\"",
            "import \(files[3])", "show 2", "search time is:reply", "more 2",
        ]
        let shells = try [first, second].map { lines in
            (terminal: try tweetsh.terminal(["--store", store]), lines: lines)
        }
        var next = [0, 0]
        var ready = [false, false]
        // When each command was typed and when its prompt came back, per shell, to show the runs really overlapped.
        var spans: [[(line: String, start: Date, end: Date?)]] = [[], []]
        for shell in shells { try shell.terminal.waitForPrompt(Self.prompt, timeout: 20) }
        ready = [true, true]
        let deadline = Date().addingTimeInterval(600)
        while next[0] < first.count || next[1] < second.count || ready.contains(false) {
            XCTAssertLessThan(Date(), deadline, "the scripted sessions did not finish")
            if Date() > deadline { break }
            for (index, shell) in shells.enumerated() {
                if !ready[index] {
                    // A short wait for this shell's prompt; a miss leaves the output unconsumed for the next look.
                    guard (try? shell.terminal.waitFor(Self.prompt, timeout: 0.05)) != nil else { continue }
                    try shell.terminal.waitForPrompt("", timeout: 10)
                    ready[index] = true
                    if !spans[index].isEmpty { spans[index][spans[index].count - 1].end = Date() }
                }
                if next[index] < shell.lines.count {
                    spans[index].append((shell.lines[next[index]], Date(), nil))
                    shell.terminal.type(shell.lines[next[index]] + "\r")
                    next[index] += 1
                    ready[index] = false
                }
            }
        }
        for shell in shells {
            shell.terminal.type("\u{04}")
            XCTAssertEqual(exitCode(try shell.terminal.waitForExit(timeout: 20)), 0)
            XCTAssertFalse(shell.terminal.output.contains("database is locked"), shell.terminal.output)
            XCTAssertFalse(shell.terminal.output.contains("error:"), shell.terminal.output)
        }

        // The runs overlapped: commands of one shell started while the other was importing.
        var overlaps: [String] = []
        for (mine, theirs) in [(0, 1), (1, 0)] {
            for span in spans[mine] where span.line.hasPrefix("import") {
                let end = span.end ?? Date()
                for other in spans[theirs] where other.start >= span.start && other.start < end {
                    overlaps.append(
                        "shell \(theirs + 1) ran '\(other.line.prefix(30))' during shell \(mine + 1)'s '\(span.line.suffix(10))'"
                    )
                }
            }
        }
        print("two-shells: " + overlaps.joined(separator: "; "))
        XCTAssertFalse(overlaps.isEmpty, "no command ran while the other shell was importing")

        // History: every line of both shells, each shell's in its own order.
        let history = try History(path: tweetsh.historyFile).entries
        XCTAssertEqual(history.count, first.count + second.count, "no line lost or added: \(history)")
        for lines in [first, second] {
            XCTAssertEqual(history.filter { lines.contains($0) }, lines, "one shell's lines, in order")
        }

        // The store: sound, consistent, exactly the union of the demo corpus and the four files.
        let inspection = StoreInspection(path: store)
        XCTAssertEqual(inspection.integrityProblems(), [])
        let counts = try inspection.counts()
        XCTAssertTrue(counts.isConsistent, "\(counts)")
        XCTAssertEqual(counts.searchable, searchable.count)
        let searches = Set((first + second).filter { $0.hasPrefix("search ") }.map { String($0.dropFirst(7)) })
        XCTAssertEqual(counts.searchHistory, searches.count, "each search recorded once")
        let imports = try inspection.imports()
        XCTAssertEqual(imports.map(\.path), files.sorted())
        XCTAssertEqual(imports.map(\.tweets), Array(repeating: Self.tweetsPerFile, count: 4))
        XCTAssertTrue(imports.allSatisfy(\.finished))
    }
}
