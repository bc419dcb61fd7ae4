import Foundation
import TerminalTesting
import XCTest

/// Collections in the shell: the first import puts the demo corpus out of searches and exports, `--in` and
/// `collection` scope searches, `drop` deletes one collection.
final class CollectionCommandTests: XCTestCase {
    func testAFirstImportKeepsTheDemoCorpusOutOfSearchesAndExports() throws {
        let tweetsh = Tweetsh()
        let store = tweetsh.home.file("store.sqlite")
        // The demo corpus has many tweets with "coffee"; so does this file, whose ids are far from the demo's.
        let mine = tweetsh.home.file("mine.jsonl")
        try ImportCommandTests.page(first: 500, count: 6, word: "coffee").write(
            toFile: mine, atomically: true, encoding: .utf8)
        let out = tweetsh.home.file("out.jsonl")
        let run = try tweetsh.run([
            "--store", store, "-c", "import \(mine); search coffee --limit 100; export \(out); collections",
        ])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertTrue(run.standardError.contains("the demo corpus is now left out of searches and exports"))
        let exported = try String(contentsOfFile: out, encoding: .utf8)
        let page =
            try JSONSerialization.jsonObject(with: Data(exported.split(separator: "\n")[0].utf8)) as? [String: Any]
        let ids = ((page?["data"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }
        XCTAssertEqual(ids.sorted(), (500..<506).map(String.init), "the export holds only the imported tweets")
        XCTAssertTrue(run.standardOutput.contains("mine  "), run.standardOutput)
        XCTAssertTrue(run.standardOutput.contains("(left out of searches: search --in demo, or drop demo)"))

        let demo = try tweetsh.run(["--store", store, "-c", "search --in demo coffee"])
        XCTAssertTrue(demo.standardError.contains("matches"), demo.standardError)
        XCTAssertFalse(demo.standardOutput.contains("@writer"))

        let dropped = try tweetsh.run(["--store", store, "-c", "drop demo; collections; search coffee"])
        XCTAssertEqual(dropped.status, 0, dropped.standardError)
        XCTAssertTrue(dropped.standardOutput.contains("dropped the collection 'demo': 3000 tweets deleted"))
        XCTAssertTrue(
            dropped.standardOutput.contains("; also gone, since no remaining tweet names them: 75 users and "),
            "the generated users go with the demo corpus: \(dropped.standardOutput)")
        XCTAssertFalse(dropped.standardOutput.contains("demo "), dropped.standardOutput)
        XCTAssertEqual(dropped.standardOutput.split(separator: "\n").filter { $0.contains("@writer") }.count, 6)
        XCTAssertEqual(try tweetsh.run(["--store", store, "-c", "drop demo"]).status, 1, "it is gone")

        let scoped = try tweetsh.run(["--store", store, "-c", "collection mine; search coffee; collection nothing"])
        XCTAssertEqual(scoped.status, 1, "an unknown collection is refused")
        XCTAssertTrue(scoped.standardError.contains("error: no collection named 'nothing'"), scoped.standardError)
        XCTAssertEqual(scoped.standardOutput.split(separator: "\n").filter { $0.contains("@writer") }.count, 6)

        let whole = try tweetsh.run(["--store", store, "-c", "search --in mine; count --in mine --by day"])
        XCTAssertEqual(whole.status, 0, "--in alone lists the whole collection: \(whole.standardError)")
        XCTAssertEqual(whole.standardOutput.split(separator: "\n").filter { $0.contains("@writer") }.count, 6)
        XCTAssertTrue(whole.standardOutput.contains("6 tweets by day"), whole.standardOutput)
    }

    /// At the terminal `drop` asks first and anything but yes keeps the collection; a script is not asked.
    func testDropAsksAtTheTerminalAndAScriptIsNotAsked() throws {
        let tweetsh = Tweetsh()
        let store = tweetsh.home.file("store.sqlite")
        let mine = tweetsh.home.file("mine.jsonl")
        try ImportCommandTests.page(first: 500, count: 6, word: "coffee").write(
            toFile: mine, atomically: true, encoding: .utf8)
        XCTAssertEqual(try tweetsh.run(["--store", store, "-c", "import \(mine)"]).status, 0)

        let terminal = try tweetsh.terminal(["--store", store])
        try terminal.waitForPrompt("> ")
        terminal.type("drop mine\r")
        try terminal.waitFor("drop the collection 'mine' (6 tweets)? It cannot be undone")
        terminal.type("\r")
        try terminal.waitFor("nothing was dropped")
        try terminal.waitForPrompt("> ")
        terminal.type("drop MINE\r")
        try terminal.waitFor("[y/N] ")
        terminal.type("no\r")
        try terminal.waitFor("nothing was dropped")
        try terminal.waitForPrompt("> ")
        terminal.type("search coffee\r")
        try terminal.waitFor("6 matches")
        try terminal.waitForPrompt("> ")
        terminal.type("drop mine\r")
        try terminal.waitFor("[y/N] ")
        terminal.type("y\r")
        try terminal.waitFor("dropped the collection 'mine': 6 tweets deleted")
        try terminal.waitForPrompt("> ")
        terminal.type("quit\r")
        XCTAssertEqual(exitCode(try terminal.waitForExit()), 0)
        let history = try String(contentsOfFile: tweetsh.historyFile, encoding: .utf8)
        XCTAssertFalse(history.split(separator: "\n").contains("y"), "the answer is not a command: \(history)")

        try ImportCommandTests.page(first: 700, count: 2, word: "tea").write(
            toFile: mine, atomically: true, encoding: .utf8)
        let script = try tweetsh.run(["--store", store, "-c", "import \(mine)", "-c", "drop mine"])
        XCTAssertEqual(script.status, 0, script.standardError)
        XCTAssertTrue(script.standardOutput.contains("dropped the collection 'mine': 2 tweets deleted"))
        XCTAssertFalse(script.standardOutput.contains("[y/N]") || script.standardError.contains("[y/N]"))
    }

    /// A file named demo.jsonl used to join the demo corpus, so its tweets were left out of searches and went with
    /// `drop demo`; now the import is refused with the way out, and `--as` gives it a collection of its own.
    func testAFileCalledDemoDoesNotJoinTheDemoCorpus() throws {
        let tweetsh = Tweetsh()
        let store = tweetsh.home.file("store.sqlite")
        let file = tweetsh.home.file("demo.jsonl")
        try ImportCommandTests.page(first: 500, count: 3, word: "coffee").write(
            toFile: file, atomically: true, encoding: .utf8)
        let refused = try tweetsh.run(["--store", store, "-c", "import \(file)", "-c", "collections"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(
            refused.standardError.contains(
                "'demo' is the generated demo corpus, kept apart from your data (the name comes from the file's name); "
                    + "give the collection a name of its own with --as NAME"), refused.standardError)
        XCTAssertTrue(refused.standardOutput.contains("demo  3000 tweets"), refused.standardOutput)
        let named = try tweetsh.run(["--store", store, "-c", "import \(file) --as mine", "-c", "collections"])
        XCTAssertEqual(named.status, 0, named.standardError)
        XCTAssertTrue(named.standardOutput.contains("mine     3 tweets"), named.standardOutput)
        XCTAssertTrue(named.standardOutput.contains("demo  3000 tweets"), named.standardOutput)
    }

    /// `odd.jsonl` and `even.jsonl`: 30 tweets each saying "rain in odd|even <id>", the odd ids in one and the even
    /// in the other, so the two collections' tweets interleave in recency order.
    private func writeInterleavedCollections(_ tweetsh: Tweetsh) throws {
        for (name, parity) in [("odd", 1), ("even", 0)] {
            let lines = stride(from: 1_000 + parity, to: 1_060, by: 2).map {
                #"{"id":"\#($0)","text":"rain in \#(name) \#($0)","author_id":"7","created_at":"2024-05-01T10:00:00.000Z","#
                    + #""author":{"id":"7","username":"writer","name":"W"}}"#
            }
            try (lines.joined(separator: "\n") + "\n").write(
                toFile: tweetsh.home.file("\(name).jsonl"), atomically: true, encoding: .utf8)
        }
    }

    /// `drill N` searches where the top list's tweets came from: inside the collection of `top … --in NAME`, or of
    /// the results it ranked.
    func testDrillStaysInTheCollectionTheTopListRanked() throws {
        let tweetsh = Tweetsh()
        try writeInterleavedCollections(tweetsh)
        let files = "\(tweetsh.home.file("odd.jsonl")) \(tweetsh.home.file("even.jsonl"))"
        for ranking in ["top words rain --in odd", "search rain --in odd --limit 100; top words"] {
            let run = try tweetsh.run(["-c", "import \(files); \(ranking); drill 1"])
            XCTAssertEqual(run.status, 0, run.standardError)
            XCTAssertTrue(run.standardError.contains("search (rain) in --in odd\n"), run.standardError)
            let rows = run.standardOutput.split(separator: "\n").filter { $0.contains("@writer") }
            XCTAssertFalse(rows.isEmpty, run.standardOutput)
            XCTAssertFalse(rows.contains { $0.contains("rain in even") }, "\(ranking): \(rows)")
        }
    }

    /// A search inside a collection is recorded with it: `more` in a new shell goes on inside it, numbering after the
    /// results it showed, and `again` runs it there too. The two collections' ids interleave, so a search that lost
    /// its collection would show the other's tweets among them.
    func testMoreAndAgainAfterARestartStayInTheCollection() throws {
        let tweetsh = Tweetsh()
        let store = tweetsh.home.file("store.sqlite")
        try writeInterleavedCollections(tweetsh)
        let first = try tweetsh.run([
            "--store", store, "-c",
            "import \(tweetsh.home.file("odd.jsonl")) \(tweetsh.home.file("even.jsonl")); search rain --in odd --limit 5",
        ])
        XCTAssertEqual(first.status, 0, first.standardError)

        let more = try tweetsh.run(["--store", store, "-c", "more 3; show 2; history searches"])
        XCTAssertEqual(more.status, 0, more.standardError)
        XCTAssertTrue(
            more.standardError.contains("'rain' on local, in odd (")
                && more.standardError.contains("after its 5 earlier"),
            more.standardError)
        let rows = more.standardOutput.split(separator: "\n").filter { $0.contains("@writer") && !$0.hasPrefix("#") }
        XCTAssertEqual(rows.count, 3, more.standardOutput)
        XCTAssertTrue(rows.allSatisfy { $0.contains("rain in odd") }, "\(rows)")
        XCTAssertTrue(rows.first?.hasPrefix(" 6 ") == true, "numbering goes on: \(rows)")
        XCTAssertTrue(more.standardOutput.contains("rain in odd 1057"), "show 2 is the second result shown")
        XCTAssertTrue(more.standardOutput.contains("[local, in odd] rain"), more.standardOutput)

        let again = try tweetsh.run(["--store", store, "-c", "search rain --limit 1; again 2"])
        XCTAssertEqual(again.status, 0, again.standardError)
        XCTAssertTrue(again.standardError.contains("search rain --in odd\n30 matches"), again.standardError)
    }
}
