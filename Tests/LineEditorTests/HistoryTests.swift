import Foundation
import Glibc
import Synchronization
import TerminalTesting
import Testing

@testable import LineEditor

@Suite("History")
struct HistoryTests {
    @Test("entries round-trip through libedit's file format")
    func roundTrip() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("state/tweetsh/history")
        let lines = [
            "search from:jack  two  spaces",
            "# a hash at the start",
            "say \"double\" and 'single' quotes",
            #"back\slash \\ double \n not a newline"#,
            "tab\there\tand\tthere",
            "café naïve 日本語 🐦‍⬛ emoji",
            "trailing space ",
            " leading space",
            "line one\nline two",
            String(repeating: "long é ", count: 3000),
        ]
        do {
            let history = try History(path: path)
            for line in lines { #expect(try history.add(line)) }
            #expect(history.entries == lines)
        }
        let file = try #require(readTextFile(path))
        #expect(file.hasPrefix("_HiStOrY_V2_\n"))
        // One physical line per entry: strvis encoded the newline, so the file has header + entries lines.
        #expect(file.split(separator: "\n", omittingEmptySubsequences: false).count == lines.count + 2)

        let reopened = try History(path: path)
        #expect(reopened.entries == lines)
    }

    @Test("entries come back oldest first and the newest is last")
    func order() throws {
        let history = try History(path: nil)
        try history.add("one")
        try history.add("two")
        try history.add("three")
        #expect(history.entries == ["one", "two", "three"])
        #expect(history.newest == "three")
    }

    @Test("the size limit keeps the newest entries, in memory and in the file")
    func sizeLimit() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("history")
        let history = try History(path: path, limit: 5)
        for number in 1...12 { try history.add("command \(number)") }
        let expected = (8...12).map { "command \($0)" }
        #expect(history.entries == expected)
        #expect(try History(path: path, limit: 5).entries == expected)
        // A larger limit on reopening still sees only what the file kept.
        #expect(try History(path: path, limit: 100).entries == expected)
    }

    @Test("the default limit is 1000")
    func defaultLimit() throws {
        let history = try History(path: nil)
        #expect(history.limit == 1000)
        for number in 1...1005 { try history.add("c\(number)") }
        #expect(history.entries.count == 1000)
        #expect(history.entries.first == "c6")
    }

    @Test("consecutive duplicates and blank lines are not recorded")
    func duplicates() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("history")
        let history = try History(path: path)
        #expect(try history.add("search a"))
        #expect(try history.add("search a") == false)
        #expect(try history.add("   ") == false)
        #expect(try history.add("") == false)
        #expect(try history.add("search b"))
        #expect(try history.add("search a"))
        #expect(history.entries == ["search a", "search b", "search a"])
        #expect(try History(path: path).entries == ["search a", "search b", "search a"])
    }

    @Test("sensitive lines never reach memory or the file")
    func sensitive() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("history")
        let secret = "AAAAAAAAAAAAAAAAAAAAAsecretTOKEN"
        let history = try History(path: path, isSensitive: { $0.hasPrefix("auth ") })
        try history.add("search x")
        #expect(try history.add("auth \(secret)") == false)
        try history.add("show 1")
        #expect(history.entries == ["search x", "show 1"])
        let file = try #require(readTextFile(path))
        #expect(!file.contains(secret))
        #expect(!file.contains("auth"))
        let lock = readTextFile(path + ".lock") ?? ""
        #expect(!lock.contains(secret))
    }

    @Test("sensitive lines already in the file are dropped on load and scrubbed on the next write")
    func sensitiveInFile() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("history")
        writeTextFile(path, "_HiStOrY_V2_\nsearch\\040x\nauth\\040OLDSECRET\nshow\\0401\n", mode: 0o600)
        let history = try History(path: path, isSensitive: { $0.hasPrefix("auth ") })
        #expect(history.entries == ["search x", "show 1"])
        try history.add("more")
        #expect(readTextFile(path)?.contains("OLDSECRET") == false)
        #expect(try History(path: path).entries == ["search x", "show 1", "more"])
    }

    @Test("the file and its directory are private")
    func permissionsArePrivate() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("state/tweetsh/history")
        let history = try History(path: path)
        #expect(permissions(of: path) == nil, "opening must not create the file before anything is recorded")
        try history.add("search x")
        #expect(permissions(of: path) == 0o600)
        #expect(permissions(of: directory.file("state/tweetsh")) == 0o700)
        #expect(permissions(of: path + ".lock") == 0o600)
    }

    @Test("a file with looser permissions is rewritten 0600")
    func tightensPermissions() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("history")
        writeTextFile(path, "_HiStOrY_V2_\nold\\040line\n", mode: 0o644)
        let history = try History(path: path)
        #expect(history.entries == ["old line"])
        try history.add("new")
        #expect(permissions(of: path) == 0o600)
    }

    @Test("two writers on one file keep each other's entries")
    func twoWritersMerge() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("history")
        let first = try History(path: path)
        let second = try History(path: path)
        try first.add("first 1")
        try second.add("second 1")
        try first.add("first 2")
        try second.add("second 2")
        try second.add("second 3")
        try first.add("first 3")
        // Each shell's memory holds its own session; the file holds both.
        #expect(first.entries == ["first 1", "first 2", "first 3"])
        #expect(second.entries == ["second 1", "second 2", "second 3"])
        #expect(
            try History(path: path).entries == [
                "first 1", "second 1", "first 2", "second 2", "second 3", "first 3",
            ])
    }

    @Test("concurrent writers lose nothing")
    func concurrentWritersMerge() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("history")
        // Each thread opens the file itself, so each holds its own flock open file, as separate processes would.
        let writers = 4
        let perWriter = 50
        let errors = ErrorBox()
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            do {
                let history = try History(path: path, limit: 1000)
                for number in 0..<perWriter { try history.add("w\(writer) \(number)") }
            } catch {
                errors.record(error)
            }
        }
        #expect(errors.isEmpty)
        let merged = try History(path: path).entries
        #expect(merged.count == writers * perWriter, "\(merged)")
        for writer in 0..<writers {
            let own = merged.filter { $0.hasPrefix("w\(writer) ") }
            #expect(own == (0..<perWriter).map { "w\(writer) \($0)" })
        }
    }

    @Test("entries that are not valid UTF-8 are skipped without crashing")
    func invalidBytes() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("history")
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let bytes: [UInt8] =
            Array("_HiStOrY_V2_\nfirst\n".utf8) + [0xFF, 0xFE, 0x20, 0x62, 0x0A]
            + Array("\\M-\\377x\nlast\n".utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        let history = try History(path: path)
        #expect(history.entries == ["first", "last"])
        try history.add("new")
        #expect(try History(path: path).entries == ["first", "last", "new"])
    }

    @Test("a file that is not libedit history is reported and left alone")
    func foreignFile() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("history")
        writeTextFile(path, "ls -l\ncd /tmp\n")
        #expect(throws: LineEditorError.unreadableHistory(path: path)) { try History(path: path) }
        #expect(readTextFile(path) == "ls -l\ncd /tmp\n")
    }

    @Test("the default path follows XDG_STATE_HOME, then HOME")
    func defaultPath() {
        #expect(History.defaultPath(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]) == "/s/tweetsh/history")
        #expect(History.defaultPath(environment: ["XDG_STATE_HOME": "/s/", "HOME": "/h"]) == "/s/tweetsh/history")
        #expect(History.defaultPath(environment: ["HOME": "/h"]) == "/h/.local/state/tweetsh/history")
        #expect(
            History.defaultPath(environment: ["XDG_STATE_HOME": "relative", "HOME": "/h"])
                == "/h/.local/state/tweetsh/history")
        #expect(History.defaultPath(environment: ["HOME": "relative"]) == nil)
        #expect(History.defaultPath(environment: [:]) == nil)
    }
}

/// Errors collected from threads.
final class ErrorBox: Sendable {
    private let errors = Mutex<[String]>([])

    func record(_ error: any Error) {
        errors.withLock { $0.append(String(describing: error)) }
    }

    var isEmpty: Bool { errors.withLock { $0.isEmpty } }
}
