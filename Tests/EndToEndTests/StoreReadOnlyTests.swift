import Foundation
import Glibc
import TerminalTesting
import XCTest

/// A store that cannot be written still searches: through the binary, search, more, show and export work with one
/// warning, and nothing is written to the file. Files that are not stores are refused by name and left alone, and no
/// message ever shows SQL or SQLite's words.
///
/// Read-only by file mode needs a user the modes apply to: root ignores them, so as root the shell runs as `nobody`
/// (setpriv); the URI form (`file:…?mode=ro`) works for anyone.
final class StoreReadOnlyTests: XCTestCase {
    private static let commands = "search coffee; more; show 1; export %@"

    private func seededStore(_ tweetsh: Tweetsh, in folder: String) throws -> String {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let store = folder + "/tweets.sqlite"
        let seeding = try tweetsh.run(["--store", store, "-c", "source"])
        XCTAssertEqual(seeding.status, 0, seeding.standardError)
        return store
    }

    /// Runs the read-only session and checks what every read-only test must see.
    private func assertSearchesReadOnly(
        _ run: ProcessRun, store: String, export: String, reason: String, before: Data,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        XCTAssertEqual(run.status, 0, run.standardError, file: file, line: line)
        let warnings = run.standardError.components(separatedBy: "warning:").count - 1
        XCTAssertEqual(warnings, 1, "one warning: \(run.standardError)", file: file, line: line)
        XCTAssertTrue(
            run.standardError.contains("the store \(store) is read-only (\(reason))"), run.standardError, file: file,
            line: line)
        XCTAssertTrue(
            run.standardError.contains("search history and the API cache are not saved"), file: file, line: line)
        XCTAssertFalse(run.standardError.contains("error:"), run.standardError, file: file, line: line)
        for leak in sqlLeaks {
            XCTAssertFalse(run.standardError.contains(leak), run.standardError, file: file, line: line)
        }
        XCTAssertTrue(run.standardOutput.contains("#1 "), "show 1 printed the tweet", file: file, line: line)
        XCTAssertTrue(run.standardOutput.contains(" 21 "), "more printed the second page", file: file, line: line)
        let exported = readTextFile(export) ?? ""
        XCTAssertFalse(exported.isEmpty, "export wrote the results", file: file, line: line)
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: store)), before, "the store is unchanged", file: file, line: line)
    }

    func testStoreOpenedReadOnlyByURISearchesPagesShowsAndExports() throws {
        let tweetsh = Tweetsh()
        let store = try seededStore(tweetsh, in: tweetsh.home.file("data"))
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let export = tweetsh.home.file("results.jsonl")
        let run = try tweetsh.run([
            "--store", "file:\(store)?mode=ro", "-c", String(format: Self.commands, export),
        ])
        try assertSearchesReadOnly(run, store: store, export: export, reason: "it was opened read-only", before: before)
        XCTAssertEqual(try StoreInspection(path: store).query("SELECT count(*) FROM search_history;"), ["0"])
        // Writing is refused with the reason, not SQL.
        let writing = try tweetsh.run(["--store", "file:\(store)?mode=ro", "-c", "import \(export)"])
        XCTAssertEqual(writing.status, 1)
        XCTAssertTrue(writing.standardError.contains("the store \(store) is read-only"), writing.standardError)
        for leak in sqlLeaks { XCTAssertFalse(writing.standardError.contains(leak), writing.standardError) }
    }

    /// As a user the modes apply to: a folder that cannot be written (no `-wal` or `-shm` can be made), and a file
    /// that cannot be written in a folder that can.
    func testReadOnlyFolderAndFileSearchAsAnotherUser() throws {
        let tweetsh = Tweetsh()
        var prefix: [String] = []
        if getuid() == 0 {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
                throw XCTSkip("running as root without setpriv, so file modes cannot be tested")
            }
            prefix = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
            chmod(tweetsh.home.path, 0o755)
        }
        let exports = tweetsh.home.file("exports")
        try FileManager.default.createDirectory(atPath: exports, withIntermediateDirectories: true)
        chmod(exports, 0o777)
        for (name, reason) in [("folder", "its folder %@ is not writable"), ("file", "the file is not writable")] {
            let folder = tweetsh.home.file(name)
            let store = try seededStore(tweetsh, in: folder)
            if name == "folder" {
                chmod(folder, 0o555)
            } else {
                chmod(folder, 0o777)
                chmod(store, 0o444)
            }
            defer { chmod(folder, 0o755) }
            let before = try Data(contentsOf: URL(fileURLWithPath: store))
            let export = exports + "/\(name).jsonl"
            let arguments = ["--store", store, "-c", String(format: Self.commands, export)]
            let run =
                prefix.isEmpty
                ? try ProcessRun.run(Tweetsh.executable, arguments: arguments, environment: tweetsh.environment())
                : try ProcessRun.run(
                    prefix[0], arguments: prefix.dropFirst() + [Tweetsh.executable] + arguments,
                    environment: tweetsh.environment())
            try assertSearchesReadOnly(
                run, store: store, export: export, reason: String(format: reason, folder), before: before)
            if name == "folder" {
                XCTAssertFalse(FileManager.default.fileExists(atPath: store + "-wal"), "no log could be created")
            }
        }
    }

    /// A text file, another program's SQLite database, and a damaged store: each refused by name and cause, exit 1,
    /// and left byte for byte as it was.
    func testFilesThatAreNotStoresAreRefusedAndLeftAlone() throws {
        let tweetsh = Tweetsh()
        let text = tweetsh.home.file("notes.txt")
        writeTextFile(text, "shopping: milk, bread\n")
        let foreign = tweetsh.home.file("places.sqlite")
        _ = try StoreInspection(path: foreign).query("CREATE TABLE moz_places(id INTEGER PRIMARY KEY, url TEXT);")
        let damaged = try seededStore(tweetsh, in: tweetsh.home.file("damaged"))
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: damaged))
        try handle.seek(toOffset: 100)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 3_996))
        try handle.close()
        for (path, cause) in [
            (text, "is not a tweetsh store (it is not an SQLite database)"),
            (foreign, "is not a tweetsh store (it is an SQLite database holding other tables)"),
            (damaged, "is damaged"),
        ] {
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            let run = try tweetsh.run(["--store", path, "-c", "search coffee"])
            XCTAssertEqual(run.status, 1, run.standardError)
            XCTAssertTrue(run.standardError.contains(path) && run.standardError.contains(cause), run.standardError)
            for leak in sqlLeaks { XCTAssertFalse(run.standardError.contains(leak), run.standardError) }
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before, "\(path) was changed")
        }
    }

    /// `--store` naming a file in a folder that does not exist (a typo, a disk not mounted) is refused, and nothing
    /// is made there; it used to make the folders and a new store with the demo corpus, so the user's own seemed gone.
    /// The default location still makes its folders on first run.
    func testAStoreInAFolderThatDoesNotExistIsRefusedAndNothingIsMade() throws {
        let tweetsh = Tweetsh()
        let missing = tweetsh.home.file("usb/tweets")
        let run = try tweetsh.run(["--store", missing + "/tweets.sqlite", "-c", "collections"])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(
            run.standardError.contains(
                "its folder \(missing) does not exist; create it first (mkdir -p \(missing)) or check the path"),
            run.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tweetsh.home.file("usb")), "no folder was made")
        let first = try tweetsh.run(["-c", "collections"])
        XCTAssertEqual(first.status, 0, first.standardError)
        XCTAssertTrue(first.standardOutput.contains("demo"), "the default store is made with its folders")
    }

    /// A NUL in a query used to print SQLite's `unterminated string (in: SELECT t.id, …`.
    func testNULInAQueryIsSearchedWithoutSQL() throws {
        let tweetsh = Tweetsh()
        let run = try tweetsh.run([], input: "search coffee\u{0}data\nsearch \"good\u{0}morning\"\n")
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertFalse(run.standardError.contains("error"), run.standardError)
        for leak in sqlLeaks + ["unterminated"] { XCTAssertFalse(run.standardError.contains(leak), run.standardError) }
    }
}
