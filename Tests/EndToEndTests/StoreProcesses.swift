import Foundation
import Glibc
import TerminalTesting
import TweetKit

/// tweetsh processes that start at the same moment: each is a `sh` that blocks reading one line from a shared pipe,
/// then execs tweetsh. Once every one is started the test writes one line per process, so all of them open the store
/// within the same instant: a barrier, not a sleep.
final class StartingLine {
    private let gate = Pipe()
    private var processes: [(process: Process, output: String, error: String)] = []
    private let directory: String

    init(directory: String) {
        self.directory = directory
    }

    /// Starts one tweetsh behind the line.
    func add(_ arguments: [String], environment: [String: String]) throws {
        let index = processes.count
        let output = directory + "/out-\(index)"
        let error = directory + "/err-\(index)"
        for file in [output, error] { _ = FileManager.default.createFile(atPath: file, contents: nil) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "read go; exec \"$0\" \"$@\" </dev/null", Tweetsh.executable] + arguments
        process.environment = environment
        process.standardInput = gate.fileHandleForReading
        process.standardOutput = FileHandle(forWritingAtPath: output)
        process.standardError = FileHandle(forWritingAtPath: error)
        try process.run()
        processes.append((process, output, error))
    }

    /// Lets every process go at once and waits for all of them: `(status, stdout, stderr)` per process, in order.
    func release() -> [(status: Int32, output: String, error: String)] {
        gate.fileHandleForWriting.write(Data(String(repeating: "go\n", count: processes.count).utf8))
        try? gate.fileHandleForWriting.close()
        return processes.map { entry in
            entry.process.waitUntilExit()
            return (entry.process.terminationStatus, readTextFile(entry.output) ?? "", readTextFile(entry.error) ?? "")
        }
    }
}

/// What a store's `.sqlite` file holds on its own, as a backup that copies only that file would see it.
func countsOfDatabaseFileAlone(_ path: String, in directory: TemporaryDirectory) throws -> (
    counts: StoreCounts, problems: [String]
) {
    let copy = directory.file("alone-\(UUID().uuidString.prefix(8)).sqlite")
    try FileManager.default.copyItem(atPath: path, toPath: copy)
    let inspection = StoreInspection(path: copy)
    return (try inspection.counts(), inspection.integrityProblems())
}

/// Writes `count` generated tweets as twarc2 JSONL and returns the number of distinct searchable tweets in the file
/// together with the demo corpus, as the generator made them.
func writeCollection(to path: String, seed: UInt64, count: Int) throws -> Int {
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    let corpus = DemoCorpus(seed: seed, tweetCount: count)
    _ = try corpus.writeTwarc2JSONL(to: handle)
    try handle.close()
    var ids = Set<UInt64>()
    for page in DemoCorpus.firstRun { ids.formUnion(page.tweets.map(\.id.rawValue)) }
    for page in corpus { ids.formUnion(page.tweets.map(\.id.rawValue)) }
    return ids.count
}

/// The searchable tweets of the demo corpus a first run seeds.
var demoCorpusTweets: Int {
    var ids = Set<UInt64>()
    for page in DemoCorpus.firstRun { ids.formUnion(page.tweets.map(\.id.rawValue)) }
    return ids.count
}

/// Words that would mean SQL or SQLite's internals reached the user.
let sqlLeaks = ["SELECT", "INSERT", "sqlite3_", "SQLITE_"]
