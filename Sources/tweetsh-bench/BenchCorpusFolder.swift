import Foundation
import TweetKit

/// Where the store and explore suites keep the generated collection they measure: the number of tweets and the folder
/// from their arguments, and the twarc2 JSONL of `DemoCorpus(seed: 2026)`, written once.
///
/// Both suites take `[tweets] [--dir PATH]` (default 1,000,000 tweets in a temporary folder removed afterwards; with
/// `--dir` the folder is kept, and a later run of the same size finds the JSONL there instead of generating it).
struct BenchCorpusFolder {
    /// Tweets in the corpus.
    var count = 1_000_000
    /// The folder holding the JSONL and the stores.
    var folder: URL
    /// Whether the folder stays after the run.
    var keep = false
    /// The arguments that are neither a count nor `--dir PATH`, for the suite to read.
    var flags: [String] = []

    /// Reads `arguments`; words in `flags` are the suite's own, anything else is refused with `usage`.
    init(arguments: [String], suite: String, flags known: Set<String>, usage: String) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tweetsh-bench-\(suite)-\(getpid())")
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if known.contains(argument) {
                flags.append(argument)
            } else if argument == "--dir", let path = rest.popFirst() {
                folder = URL(fileURLWithPath: path)
                keep = true
            } else if let n = Int(argument.replacingOccurrences(of: "_", with: "")) {
                count = n
            } else {
                throw StoreSuiteError(message: "unknown argument \(argument); usage: \(usage)")
            }
        }
    }

    /// The generator both suites measure, so one JSONL (and the searches built from its vocabulary) serves both.
    var corpus: DemoCorpus { DemoCorpus(seed: 2026, tweetCount: count) }

    /// The corpus's JSONL in the folder, named by its size so a kept folder can hold several.
    var jsonl: URL { folder.appendingPathComponent("corpus-\(count).jsonl") }

    /// Creates the folder, runs `body`, and removes the folder afterwards unless it is kept.
    func withFolder<T>(_ body: () throws -> T) throws -> T {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { if !keep { try? FileManager.default.removeItem(at: folder) } }
        return try body()
    }

    /// Writes the corpus as twarc2 JSONL to `jsonl` unless it is there already; returns whether it wrote it.
    @discardableResult
    func writeJSONLIfMissing() throws -> Bool {
        let file = jsonl
        guard !FileManager.default.fileExists(atPath: file.path) else { return false }
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw StoreSuiteError(message: "cannot create \(file.path)")
        }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        try corpus.writeTwarc2JSONL(to: handle)
        return true
    }
}
