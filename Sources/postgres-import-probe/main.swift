// A PostgreSQL import as its own process, for the test that kills an importer with SIGKILL and resumes it:
// `postgres-import-probe <address> <file.jsonl> <batch lines> [<stop at line>]`. With a stop line, it prints
// `stopped <line>` on reaching that line and waits on standard input forever, so the test kills it at a known place.
import Foundation
import PostgresStore
import TweetKit

let arguments = CommandLine.arguments
guard arguments.count >= 4, let batch = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: postgres-import-probe <address> <file> <batch lines> [stop]\n".utf8))
    exit(2)
}
let stopLine = arguments.count > 4 ? Int(arguments[4]) : nil
let lines = LineCounter()
let store = try PostgresStore(address: arguments[1], migrate: false)
let report = try await store.importJSONL(at: URL(fileURLWithPath: arguments[2]), batchLines: batch) { line in
    if lines.next() == stopLine {
        FileHandle.standardOutput.write(Data("stopped \(stopLine ?? 0)\n".utf8))
        _ = readLine()
        while true { pause() }
    }
    return try CollectionLineDecoder.decode(line: line, keepOriginals: true)
}
print("imported \(report.lines) lines, \(report.tweets) tweets")

/// Counts lines across the import's decoding calls.
final class LineCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count
    }
}
