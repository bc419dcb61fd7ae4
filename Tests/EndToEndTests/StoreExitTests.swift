import Foundation
import Glibc
import TerminalTesting
import XCTest

/// However a session ends, the store's `.sqlite` file alone holds every tweet: the last connection folds the
/// write-ahead log into it. Before, a `-c` run left a 4 KB file with everything in `-wal`, and a backup that copied the
/// database file alone lost every tweet. Also: `backup` while another shell imports gives a sound, exact snapshot.
final class StoreExitTests: XCTestCase {
    private static let tweets = 6_000

    /// A collection to import and the searchable tweets the store holds after it, demo corpus included.
    private func collection(_ tweetsh: Tweetsh, seed: UInt64 = 21, count: Int = StoreExitTests.tweets) throws -> (
        path: String, searchable: Int
    ) {
        let path = tweetsh.home.file("collection-\(seed).jsonl")
        return (path, try writeCollection(to: path, seed: seed, count: count))
    }

    private func assertFileAloneIsComplete(
        _ store: String, searchable: Int, in tweetsh: Tweetsh, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let (counts, problems) = try countsOfDatabaseFileAlone(store, in: tweetsh.home)
        XCTAssertEqual(problems, [], file: file, line: line)
        XCTAssertTrue(counts.isConsistent, "\(counts)", file: file, line: line)
        XCTAssertEqual(
            counts.searchable, searchable, "the .sqlite file alone holds every tweet", file: file, line: line)
    }

    func testNormalEndLeavesTheDatabaseFileComplete() throws {
        let tweetsh = Tweetsh()
        let (file, searchable) = try collection(tweetsh)
        let store = tweetsh.home.file("t.sqlite")
        let run = try tweetsh.run(["--store", store, "-c", "import \(file); search data"])
        XCTAssertEqual(run.status, 0, run.standardError)
        let log = (try? FileManager.default.attributesOfItem(atPath: store + "-wal")[.size] as? NSNumber)?.intValue
        XCTAssertTrue(log == nil || log == 0, "the log is folded in and emptied: \(log ?? -1) bytes")
        try assertFileAloneIsComplete(store, searchable: searchable, in: tweetsh)
    }

    /// A piped shell waiting for its next command (its prompt) is sent SIGTERM, or SIGINT as Ctrl-C would: it closes
    /// the store, then dies of the signal, as its parent expects.
    func testSIGTERMAndSIGINTAtThePromptLeaveTheDatabaseFileComplete() throws {
        for signal in [SIGTERM, SIGINT] {
            let tweetsh = Tweetsh()
            let (file, searchable) = try collection(tweetsh)
            let store = tweetsh.home.file("t.sqlite")
            let shell = try PipedShell(tweetsh, ["--store", store])
            shell.send("import \(file)\n")
            try shell.waitForOutput("imported ")
            // "imported" is printed while the command still runs, and a Ctrl-C then is spent cancelling it; the shell
            // is at its prompt once a thread of it blocks reading standard input again.
            try shell.waitUntil { $0.isReadingStandardInput }
            shell.signal(signal)
            let (reason, status) = shell.waitForExit()
            XCTAssertEqual(reason, .uncaughtSignal, "signal \(signal): \(shell.error)")
            XCTAssertEqual(status, signal)
            try assertFileAloneIsComplete(store, searchable: searchable, in: tweetsh)
        }
    }

    /// An interactive shell at its prompt: Ctrl-C there only clears the line (the line editor's own handling), and
    /// SIGTERM (a closed terminal window, `kill`) goes through the line editor's terminal guard to the shell's own
    /// handler, which closes the store before the shell dies of it.
    func testInteractiveShellKilledAtThePromptLeavesTheDatabaseFileComplete() throws {
        let tweetsh = Tweetsh()
        let (file, searchable) = try collection(tweetsh)
        let store = tweetsh.home.file("t.sqlite")
        let terminal = try tweetsh.terminal(["--store", store])
        let prompt = "(local, no key)> "
        try terminal.waitForPrompt(prompt, timeout: 20)
        terminal.type("import \(file)\r")
        _ = try terminal.waitFor("imported ", timeout: 60)
        try terminal.waitForPrompt(prompt, timeout: 20)
        terminal.type("\u{03}")
        try terminal.waitForPrompt(prompt, timeout: 20)
        kill(terminal.pid, SIGTERM)
        let status = try terminal.waitForExit(timeout: 20)
        XCTAssertEqual(status & 0x7F, SIGTERM, "died of SIGTERM: \(terminal.output)")
        try assertFileAloneIsComplete(store, searchable: searchable, in: tweetsh)
    }

    /// SIGTERM in the middle of an import: the batch being written rolls back, and the file alone holds exactly the
    /// committed batches, which its import record claims.
    func testSIGTERMDuringAnImportLeavesTheCommittedBatches() throws {
        let tweetsh = Tweetsh()
        let (file, _) = try collection(tweetsh, seed: 22, count: 20_000)
        let store = tweetsh.home.file("t.sqlite")
        let shell = try PipedShell(tweetsh, ["--store", store])
        shell.send("import \(file)\n")
        // Once the import has read a third of the file, at least one batch is on its way.
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber).intValue
        try shell.waitUntil { ($0.position(inOpenFile: file) ?? 0) > size / 3 || !$0.isRunning }
        shell.signal(SIGTERM)
        let (reason, status) = shell.waitForExit()
        XCTAssertEqual(reason, .uncaughtSignal, shell.error)
        XCTAssertEqual(status, SIGTERM)
        let copy = tweetsh.home.file("copy.sqlite")
        try FileManager.default.copyItem(atPath: store, toPath: copy)
        let inspection = StoreInspection(path: copy)
        XCTAssertEqual(inspection.integrityProblems(), [])
        let counts = try inspection.counts()
        XCTAssertTrue(counts.isConsistent, "\(counts)")
        let claimed = try inspection.imports().first?.tweets ?? 0
        XCTAssertEqual(counts.searchable, demoCorpusTweets + claimed, "the file holds the batches its record claims")
    }

    /// `tweetsh -c … | head -1`: head leaves after one line, the shell's next write raises SIGPIPE. More than a pipe's
    /// 64 KB follows that line, so the write cannot land in the pipe's buffer before head is gone.
    func testClosedPipeLeavesTheDatabaseFileComplete() throws {
        let tweetsh = Tweetsh()
        let (file, searchable) = try collection(tweetsh)
        let store = tweetsh.home.file("t.sqlite")
        let script = "import \(file); format json; search data; more 300"
        let run = try ProcessRun.run(
            "/bin/bash",
            arguments: [
                "-c", "\"$0\" --store \"$1\" -c \"$2\" | head -1; echo \"status ${PIPESTATUS[0]}\" >&2",
                Tweetsh.executable, store, script,
            ], environment: tweetsh.environment())
        XCTAssertTrue(run.standardOutput.hasPrefix("imported "), run.standardOutput)
        XCTAssertTrue(run.standardError.contains("status 141"), "tweetsh died of SIGPIPE: \(run.standardError)")
        try assertFileAloneIsComplete(store, searchable: searchable, in: tweetsh)
    }

    /// Backups taken by another shell while one imports: each passes the integrity check and holds exactly the tweets
    /// its import record claims (whole batches only), and some are taken part way through.
    func testBackupDuringAConcurrentImportIsAConsistentSnapshot() throws {
        let tweetsh = Tweetsh()
        let (file, searchable) = try collection(tweetsh, seed: 23, count: 20_000)
        let store = tweetsh.home.file("t.sqlite")
        XCTAssertEqual(try tweetsh.run(["--store", store, "-c", "source"]).status, 0)
        let importer = try BackgroundProcess(
            Tweetsh.executable, arguments: ["--store", store, "-c", "import \(file)"],
            environment: tweetsh.environment(), directory: tweetsh.home.path)
        while importer.isRunning && importer.position(inOpenFile: file) == nil { usleep(2_000) }
        var taken: [Int] = []
        var finished = false
        while !finished {
            finished = !importer.isRunning
            let backup = tweetsh.home.file("backup-\(taken.count).sqlite")
            let run = try tweetsh.run(["--store", store, "-c", "backup \(backup)"])
            XCTAssertEqual(run.status, 0, run.standardError)
            XCTAssertTrue(run.standardOutput.contains("wrote a backup of the store to \(backup)"), run.standardOutput)
            XCTAssertFalse(FileManager.default.fileExists(atPath: backup + "-wal"))
            let inspection = StoreInspection(path: backup)
            XCTAssertEqual(inspection.integrityProblems(), [], backup)
            let counts = try inspection.counts()
            XCTAssertTrue(counts.isConsistent, "\(backup): \(counts)")
            let claimed = try inspection.imports().first?.tweets ?? 0
            XCTAssertEqual(counts.searchable, demoCorpusTweets + claimed, "\(backup): whole batches only")
            taken.append(counts.searchable)
        }
        XCTAssertEqual(importer.waitForExit(), 0, importer.standardError)
        XCTAssertEqual(taken.last, searchable, "a backup after the import holds all of it")
        print("backup-during-import: \(taken.count) backups holding \(taken)")
        XCTAssertTrue(
            taken.contains { $0 > demoCorpusTweets && $0 < searchable } || taken.count < 3,
            "some backups were taken part way through")
        // A backup never replaces a file.
        let again = try tweetsh.run(["--store", store, "-c", "backup \(tweetsh.home.file("backup-0.sqlite"))"])
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.standardError.contains("exists"), again.standardError)
    }
}

/// tweetsh reading commands from a pipe, as from a script, with its output in files: the test sends commands,
/// waits for what they print, and signals it while it waits for the next command.
private final class PipedShell {
    private let process = Process()
    private let input = Pipe()
    private let outputPath: String
    private let errorPath: String

    init(_ tweetsh: Tweetsh, _ arguments: [String]) throws {
        let stamp = UUID().uuidString.prefix(8)
        outputPath = tweetsh.home.file("out-\(stamp)")
        errorPath = tweetsh.home.file("err-\(stamp)")
        for file in [outputPath, errorPath] { _ = FileManager.default.createFile(atPath: file, contents: nil) }
        process.executableURL = URL(fileURLWithPath: Tweetsh.executable)
        process.arguments = arguments
        process.environment = tweetsh.environment()
        process.standardInput = input.fileHandleForReading
        process.standardOutput = FileHandle(forWritingAtPath: outputPath)
        process.standardError = FileHandle(forWritingAtPath: errorPath)
        try process.run()
    }

    var output: String { readTextFile(outputPath) ?? "" }
    var error: String { readTextFile(errorPath) ?? "" }
    var isRunning: Bool { process.isRunning }

    func send(_ text: String) { input.fileHandleForWriting.write(Data(text.utf8)) }

    func signal(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits until stdout holds `text`; fails after 60 s.
    func waitForOutput(_ text: String) throws {
        try waitUntil { $0.output.contains(text) }
    }

    /// Waits until `condition` holds, looking every 5 ms; fails after 60 s.
    func waitUntil(_ condition: (PipedShell) -> Bool) throws {
        let deadline = Date().addingTimeInterval(60)
        while !condition(self) {
            guard Date() < deadline, process.isRunning else {
                throw GaveUp(description: "gave up waiting; stdout: \(output) stderr: \(error)")
            }
            usleep(5_000)
        }
    }

    /// Whether a thread of the shell is blocked in `read` on standard input, from /proc's per-thread `syscall` file
    /// (the call's number, then its arguments, the first being the descriptor).
    var isReadingStandardInput: Bool {
        #if arch(x86_64)
            let readCall = "0"
        #else
            let readCall = "63"
        #endif
        let tasks = "/proc/\(process.processIdentifier)/task"
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks) else { return false }
        return threads.contains { thread in
            let fields = (readTextFile("\(tasks)/\(thread)/syscall") ?? "").split(separator: " ")
            return fields.count > 1 && fields[0] == readCall && fields[1] == "0x0"
        }
    }

    /// The reported position in `file`, from /proc.
    func position(inOpenFile path: String) -> Int? {
        let directory = "/proc/\(process.processIdentifier)/fd"
        guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return nil }
        for descriptor in descriptors {
            guard (try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + descriptor)) == path,
                let info = readTextFile("/proc/\(process.processIdentifier)/fdinfo/\(descriptor)")
            else { continue }
            for line in info.split(separator: "\n") where line.hasPrefix("pos:") {
                return Int(line.dropFirst(4).trimmingCharacters(in: .whitespaces))
            }
        }
        return nil
    }

    func waitForExit() -> (Process.TerminationReason, Int32) {
        process.waitUntilExit()
        return (process.terminationReason, process.terminationStatus)
    }
}

private struct GaveUp: Error, CustomStringConvertible {
    let description: String
}
