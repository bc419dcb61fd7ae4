import Foundation
import TerminalTesting
import XCTest

/// `import` as users type it: several files, folders and globs with one summary, standard input, and files that are
/// not JSON refused in one line with exit status 1.
final class ImportCommandTests: XCTestCase {
    /// A twarc2-like page of `count` tweets with ids from `first`, on one line.
    static func page(first: Int, count: Int, word: String) -> String {
        let tweets = (first..<(first + count)).map {
            #"{"id":"\#($0)","text":"\#(word) number \#($0)","author_id":"7","created_at":"2024-05-01T10:00:00.000Z"}"#
        }
        return
            #"{"data":[\#(tweets.joined(separator: ","))],"includes":{"users":[{"id":"7","username":"writer","name":"W"}]}}"#
    }

    func testSeveralFilesAFolderAndAGlobGiveOneSummary() throws {
        let tweetsh = Tweetsh()
        let folder = tweetsh.home.file("collections")
        try FileManager.default.createDirectory(atPath: folder + "/more", withIntermediateDirectories: true)
        try (Self.page(first: 100, count: 5, word: "alpha") + "\n" + Self.page(first: 200, count: 5, word: "alpha"))
            .write(toFile: folder + "/a.jsonl", atomically: true, encoding: .utf8)
        // A pretty-printed document in the folder, and a hidden file that is left alone.
        let pretty = try JSONSerialization.data(
            withJSONObject: JSONSerialization.jsonObject(
                with: Data(Self.page(first: 300, count: 4, word: "beta").utf8)),
            options: [.prettyPrinted])
        try pretty.write(to: URL(fileURLWithPath: folder + "/more/b.json"))
        try "not json".write(toFile: folder + "/more/.hidden", atomically: true, encoding: .utf8)
        try Self.page(first: 400, count: 3, word: "gamma").write(
            toFile: folder + "/c.jsonl", atomically: true, encoding: .utf8)

        let store = tweetsh.home.file("store.sqlite")
        let run = try tweetsh.run(["--store", store, "-c", "import \(folder)/a.jsonl \(folder)/more '\(folder)/c*'"])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertTrue(
            run.standardOutput.contains("imported 17 tweets from 3 files, 4 records: 17 new"), run.standardOutput)
        let search = try tweetsh.run(["--store", store, "-c", "search beta OR gamma"])
        XCTAssertEqual(search.standardOutput.split(separator: "\n").filter { $0.contains("@writer") }.count, 7)

        // The same again: one summary, nothing new.
        let again = try tweetsh.run(["--store", store, "-c", "import \(folder)/a.jsonl"])
        XCTAssertTrue(again.standardOutput.contains("imported 10 tweets from 2 lines: 0 new"), again.standardOutput)
    }

    func testABinaryFileIsRefusedInOneLineAndExitsOne() throws {
        let tweetsh = Tweetsh()
        let png = tweetsh.home.file("picture.jsonl")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 2_000))
            .write(to: URL(fileURLWithPath: png))
        let good = tweetsh.home.file("good.jsonl")
        try Self.page(first: 10, count: 2, word: "fine").write(toFile: good, atomically: true, encoding: .utf8)
        let store = tweetsh.home.file("store.sqlite")
        let run = try tweetsh.run(["--store", store, "-c", "import \(png) \(good)"])
        XCTAssertEqual(run.status, 1)
        let errors = run.standardError.split(separator: "\n").filter { $0.hasPrefix("error:") }
        XCTAssertEqual(errors, ["error: \(png): not JSON text: looks like a PNG image"])
        XCTAssertTrue(run.standardOutput.contains("imported 2 tweets from 1 line: 2 new"), run.standardOutput)
        XCTAssertFalse(run.standardError.contains("malformed"))
    }

    func testAFileOfUsersIsNamedAndExitsOne() throws {
        let tweetsh = Tweetsh()
        let users = tweetsh.home.file("users.jsonl")
        try #"{"data":[{"id":"12","username":"someone","name":"S"}]}"#.write(
            toFile: users, atomically: true, encoding: .utf8)
        let store = tweetsh.home.file("store.sqlite")
        let run = try tweetsh.run(["--store", store, "-c", "import \(users)"])
        XCTAssertEqual(run.status, 1, "a file with no tweets at all is the wrong file")
        XCTAssertTrue(
            run.standardError.contains(
                "error: \(users): 1 line is a page of users, not tweets; the file holds no tweets to import"),
            run.standardError)
        // Among tweets, the same page is a warning and the import succeeds.
        try (Self.page(first: 10, count: 2, word: "fine") + "\n" + #"{"data":[{"id":"12","username":"u","name":"S"}]}"#)
            .write(toFile: users, atomically: true, encoding: .utf8)
        let mixed = try tweetsh.run(["--store", store, "-c", "import \(users)"])
        XCTAssertEqual(mixed.status, 0, mixed.standardError)
        XCTAssertTrue(
            mixed.standardError.contains("warning: \(users): 1 line is a page of users, not tweets"),
            mixed.standardError)
    }

    func testStandardInput() throws {
        let tweetsh = Tweetsh()
        let store = tweetsh.home.file("store.sqlite")
        let input =
            "[\n" + Self.page(first: 50, count: 3, word: "piped") + ",\n"
            + Self.page(first: 60, count: 2, word: "piped") + "\n]\n"
        let run = try tweetsh.run(["--store", store, "-c", "import -"], input: input)
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertTrue(run.standardOutput.contains("imported 5 tweets from 2 values: 5 new"), run.standardOutput)
    }
}
