import LineEditor
import TweetKit
import XCTest

@testable import TweetShell

final class ShellCommandTests: XCTestCase {
    func testSearchKeepsTheQueryRawWithQuotesAndOperators() throws {
        let command = try ShellCommand.parse(#"search --limit 50 --sort relevancy "async await" lang:en -is:retweet"#)
        XCTAssertEqual(
            command, .search(SearchOptions(query: #""async await" lang:en -is:retweet"#, limit: 50, sort: .relevancy)))
    }

    func testSearchFlags() throws {
        let command = try ShellCommand.parse("search --source x --archive --new --refresh from:swiftlang")
        XCTAssertEqual(
            command,
            .search(SearchOptions(query: "from:swiftlang", source: .x, fullArchive: true, newOnly: true, refresh: true))
        )
    }

    func testFlagsMayFollowTheQuery() throws {
        let command = try ShellCommand.parse(#"search "exact phrase"  lang:en --limit 5 -is:retweet --new"#)
        XCTAssertEqual(
            command, .search(SearchOptions(query: #""exact phrase" lang:en -is:retweet"#, limit: 5, newOnly: true)))
    }

    func testSearchErrorsNameTheColumn() throws {
        XCTAssertEqual(
            parseError("search --limit 0 swift"),
            CommandError("--limit takes a number from 1 to 500, found '0'", column: 16))
        XCTAssertEqual(
            parseError("search --bogus swift"), CommandError("unknown option '--bogus' for search", column: 8))
        XCTAssertEqual(
            parseError("search"),
            CommandError(
                "search needs a query, e.g. search swift lang:en (or --in NAME alone for a whole collection)", column: 7
            ))
        guard case .search(let whole) = try ShellCommand.parse("search --in votes") else {
            return XCTFail("search --in alone is a search")
        }
        XCTAssertEqual(whole.query, SearchOptions.wholeCollection, "the whole collection")
        XCTAssertEqual(whole.collection, "votes")
        XCTAssertEqual(parseError("search \"unclosed"), CommandError("unclosed quote", column: 8))
    }

    func testReferences() throws {
        XCTAssertEqual(try ShellCommand.parse("show 27"), .show(.index(27)))
        XCTAssertEqual(try ShellCommand.parse("show 1460323737035677698"), .show(.id(1460323737035677698)))
        XCTAssertEqual(
            try ShellCommand.parse("thread https://x.com/someone/status/1460323737035677698?s=20"),
            .thread(.id(1460323737035677698)))
        XCTAssertEqual(
            parseError("show abc"),
            CommandError("expected a result number, id:<tweet id> or a tweet URL, found 'abc'", column: 6))
        XCTAssertEqual(parseError("show 3 4"), CommandError("unexpected '4' after show", column: 8))
    }

    /// A short number is a result number, however long the list; `id:` or ten digits and more name a tweet.
    func testResultNumbersAndTweetIdsAreToldApart() throws {
        XCTAssertEqual(try ShellCommand.parse("show 20"), .show(.index(20)))
        XCTAssertEqual(try ShellCommand.parse("show 123456789"), .show(.index(123_456_789)))
        XCTAssertEqual(try ShellCommand.parse("show id:20"), .show(.id(20)))
        XCTAssertEqual(try ShellCommand.parse("show ID:7"), .show(.id(7)))
        XCTAssertEqual(try ShellCommand.parse("thread id:20"), .thread(.id(20)))
        XCTAssertEqual(try ShellCommand.parse("show 1234567890"), .show(.id(1_234_567_890)))
        XCTAssertNil(TweetReference("id:"))
        XCTAssertNil(TweetReference("id:-3"))
        XCTAssertNil(TweetReference("0"))
        XCTAssertNil(TweetReference("٣"), "digits of other scripts are not numbers here")
    }

    func testWordsAfterQuitOrExitStillLeave() throws {
        XCTAssertEqual(try ShellCommand.parse("exit now"), .quit)
        XCTAssertEqual(try ShellCommand.parse("quit please now"), .quit)
    }

    func testOtherCommands() throws {
        XCTAssertEqual(try ShellCommand.parse("more"), .more(count: nil))
        XCTAssertEqual(try ShellCommand.parse("more 40"), .more(count: 40))
        XCTAssertEqual(try ShellCommand.parse("user @swift_lang"), .user("swift_lang"))
        XCTAssertEqual(try ShellCommand.parse("user 3"), .userOfResult(3), "a number is a result, as for show")
        XCTAssertEqual(try ShellCommand.parse("user @1234"), .user("1234"), "a handle of digits keeps its @")
        XCTAssertEqual(try ShellCommand.parse("user swift_lang"), .user("swift_lang"))
        XCTAssertEqual(try ShellCommand.parse("auth status"), .auth(.status))
        XCTAssertEqual(try ShellCommand.parse("auth"), .auth(.interactive))
        XCTAssertEqual(try ShellCommand.parse("history searches"), .history(searches: true))
        XCTAssertEqual(try ShellCommand.parse("again 3 --new"), .again(3, new: true, refresh: false))
        XCTAssertEqual(try ShellCommand.parse("source local"), .source(.local))
        XCTAssertEqual(try ShellCommand.parse("export 'my results.csv'"), .export(path: "my results.csv", format: .csv))
        XCTAssertEqual(try ShellCommand.parse("export - --all"), .export(path: "-", format: .twarc2JSONL, all: true))
        XCTAssertEqual(
            try ShellCommand.parse("export out.txt --format flat"), .export(path: "out.txt", format: .flattenedJSONL))
        XCTAssertEqual(try ShellCommand.parse("backup '~/my backup.sqlite'"), .backup(path: "~/my backup.sqlite"))
        XCTAssertNotNil(parseError("backup"), "backup needs a file")
        XCTAssertNotNil(parseError("backup a.sqlite b.sqlite"), "backup takes one file")
        XCTAssertEqual(try ShellCommand.parse("format json"), .format(.json))
        XCTAssertEqual(
            try ShellCommand.parse("import a.jsonl.gz 'my folder' ~/x/*.json -"),
            .importFiles(["a.jsonl.gz", "my folder", "~/x/*.json", "-"], collection: nil))
        XCTAssertEqual(
            try ShellCommand.parse("import a.json --as votes"), .importFiles(["a.json"], collection: "votes"))
        XCTAssertEqual(try ShellCommand.parse("collections"), .collections)
        XCTAssertEqual(try ShellCommand.parse("collection all"), .collection("all"))
        XCTAssertEqual(try ShellCommand.parse("drop demo"), .drop("demo"))
        XCTAssertThrowsError(try ShellCommand.parse("drop"))
        XCTAssertThrowsError(try ShellCommand.parse("import"))
        XCTAssertEqual(try ShellCommand.parse("EXIT"), .quit)
        XCTAssertEqual(try ShellCommand.parse("help search"), .help("search"))
    }

    /// A collection is the local store's: `--in` sends a search or count there, and cannot go with `--source x`.
    func testInSendsASearchOrCountToTheLocalStore() throws {
        var search = SearchOptions(query: "rain", source: .local)
        search.collection = "votes"
        XCTAssertEqual(try ShellCommand.parse("search rain --in votes"), .search(search))
        XCTAssertEqual(try ShellCommand.parse("search --source local rain --in votes"), .search(search))
        XCTAssertEqual(
            parseError("search rain --source x --in votes"),
            CommandError(
                "--in names a collection of the local store, which --source x does not search; leave one out",
                column: 24))
        guard case .explore(.count(let count)) = try ShellCommand.parse("count rain --in votes") else {
            return XCTFail("a count")
        }
        XCTAssertEqual(count.source, .local)
        XCTAssertEqual(parseError("count rain --in votes --source x")?.column, 12)
        guard case .search(let plain) = try ShellCommand.parse("search rain") else { return XCTFail("a search") }
        XCTAssertNil(plain.source, "without --in, the session's source")
    }

    func testColumnsChooseCSVColumnsForExportAndFormat() throws {
        let chosen = try TwarcCSVColumns(parsing: "id,author.username,text")
        XCTAssertEqual(
            try ShellCommand.parse("export out.csv --columns id,author.username,text"),
            .export(path: "out.csv", format: .csv, columns: chosen))
        XCTAssertEqual(
            try ShellCommand.parse("export out.txt --columns id,author.username,text --format csv"),
            .export(path: "out.txt", format: .csv, columns: chosen))
        XCTAssertEqual(
            try ShellCommand.parse("format csv --columns id,author.username,text"), .format(.csv, columns: chosen))
        XCTAssertEqual(try ShellCommand.parse("format csv"), .format(.csv, columns: .twarcDefaults))
    }

    func testHelpForExportAndFormatExplainsColumnsAndListsThemAll() {
        for name in ["export", "format"] {
            let lines = HelpText.lines(for: CommandSpec.named(name), width: 80, style: Style(enabled: false))
            XCTAssertTrue(lines.contains { $0.contains("--columns a,b,c") }, name)
            let words = Set(lines.flatMap { $0.split(separator: " ").map(String.init) })
            for column in TwarcCSVColumns.twarcDefaults.names {
                XCTAssertTrue(words.contains(column), "help \(name) lists \(column)")
            }
            XCTAssertTrue(lines.allSatisfy { DisplayWidth.of($0) <= 80 }, name)
        }
    }

    func testColumnNamesCompleteAfterTheLastComma() {
        func complete(_ line: String) -> [String] {
            Completer.candidates(for: CompletionRequest(line: line, cursorOffset: line.count), words: CompletionWords())
        }
        XCTAssertEqual(
            complete("export out.csv --columns id,author.public_metrics.f"),
            ["id,author.public_metrics.followers_count", "id,author.public_metrics.following_count"])
        XCTAssertEqual(complete("format csv --columns __twarc.v"), ["__twarc.version"])
        XCTAssertEqual(complete("format csv --columns ").count, 84)
    }

    /// Where a collection is named (`--in`, `--into`, `--as`, and `drop`, `collection`, `stats`), Tab offers the
    /// store's collections, and after `top … --in` no longer a top kind.
    func testCollectionNamesCompleteWhereACollectionIsNamed() {
        let words = CompletionWords(collections: ["demo", "Votes2024", "votes-eu"])
        func complete(_ line: String) -> [String] {
            Completer.candidates(for: CompletionRequest(line: line, cursorOffset: line.count), words: words)
        }
        XCTAssertEqual(complete("top hashtags --in d"), ["demo"])
        XCTAssertEqual(complete("search rain --in vo"), ["Votes2024", "votes-eu"])
        XCTAssertEqual(complete("count --in "), ["demo", "Votes2024", "votes-eu"])
        XCTAssertEqual(complete("stream --into v"), ["Votes2024", "votes-eu"])
        XCTAssertEqual(complete("import a.jsonl --as de"), ["demo"])
        XCTAssertEqual(complete("drop v"), ["Votes2024", "votes-eu"])
        XCTAssertEqual(complete("collection a"), ["all"])
        XCTAssertEqual(complete("stats "), ["demo", "Votes2024", "votes-eu", "all"])
        XCTAssertEqual(complete("top d"), ["domains"], "a top kind where a kind goes")
        XCTAssertEqual(complete("drop demo x"), [], "one name only")
    }

    func testUnknownColumnsNameTheColumnAndAMatch() {
        XCTAssertEqual(
            parseError("export out.csv --columns id,autor.username"),
            CommandError(
                "unknown CSV column 'autor.username'; did you mean 'author.username'? ('help export' lists all 84)",
                column: 29))
        XCTAssertEqual(parseError("format csv --columns like_count")?.column, 22)
        XCTAssertEqual(
            parseError("export out.jsonl --columns id"),
            CommandError("--columns chooses CSV columns; add --format csv or name the file .csv", column: 18))
        XCTAssertEqual(
            parseError("format json --columns id"),
            CommandError("--columns applies to csv: format csv --columns a,b,c", column: 13))
        XCTAssertEqual(
            parseError("export out.csv --columns"),
            CommandError("export needs column names after --columns, such as id,text,author.username", column: 25))
    }

    func testUnknownCommandSuggestsTheNearest() {
        XCTAssertEqual(parseError("serach swift")?.message, "unknown command 'serach'; did you mean 'search'?")
        XCTAssertEqual(parseError("hist")?.message, "unknown command 'hist'; did you mean 'history'?")
        XCTAssertEqual(parseError("xyzzy")?.message, "unknown command 'xyzzy'; type 'help' for the list")
        XCTAssertEqual(parseError("  serach swift")?.column, 3)
    }

    func testStatementsSplitAtSemicolonsOutsideQuotes() {
        XCTAssertEqual(
            CommandWords.statements(#"search "a; b"; more ;show 3;"#), [#"search "a; b""#, "more", "show 3"])
    }

    func testParserNeverCrashesOnArbitraryInput() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("search more show --limit --source 0123456789 \"';@#:-()日🙂\t\\")
        for _ in 0..<5_000 {
            let length = Int.random(in: 0..<40, using: &generator)
            let line = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
            _ = try? ShellCommand.parse(line)
        }
    }

    private func parseError(_ line: String) -> CommandError? {
        do {
            _ = try ShellCommand.parse(line)
            return nil
        } catch {
            return error
        }
    }
}

/// One-shot commands come as words the user's shell already split.
final class OneShotWordsTests: XCTestCase {
    func testEachArgumentIsOneWordVerbatim() throws {
        XCTAssertEqual(
            try ShellCommand.parse(arguments: ["search", "\"open data\""]),
            .search(SearchOptions(query: "\"open data\"")))
        XCTAssertEqual(try ShellCommand.parse(arguments: ["search", "a;b"]), .search(SearchOptions(query: "a;b")))
        XCTAssertEqual(
            try ShellCommand.parse(arguments: ["search", "a;", "show", "1"]),
            .search(SearchOptions(query: "a; show 1")))
        XCTAssertEqual(
            try ShellCommand.parse(arguments: ["search", "--limit", "5", "open data"]),
            .search(SearchOptions(query: "open data", limit: 5)), "never re-quoted")
        XCTAssertEqual(
            try ShellCommand.parse(arguments: ["import", "my file's.jsonl"]),
            .importFiles(["my file's.jsonl"], collection: nil))
    }
}
