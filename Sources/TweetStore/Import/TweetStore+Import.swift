import Foundation
import TweetKit

/// How far an import of one file has been committed. Saved in the same transaction as each batch, so after a crash it
/// says exactly which lines are in the store.
struct ImportState: Sendable {
    var path: String
    var size: UInt64
    var modified: Double
    var offset: UInt64 = 0
    var line = 0
    var tweets = 0
    var errors = 0
    var finished = false

    static func load(_ connection: Connection, path: String) throws -> ImportState? {
        try connection.withStatement(
            "SELECT size, modified, offset, line, tweets, errors, finished FROM imports WHERE path = ?", [.text(path)]
        ) { row in
            guard try row.step() else { return nil }
            return ImportState(
                path: path, size: UInt64(row.int64(0)), modified: row.double(1), offset: UInt64(row.int64(2)),
                line: row.int(3), tweets: row.int(4), errors: row.int(5), finished: row.int(6) != 0)
        }
    }

    func save(_ connection: Connection) throws {
        try connection.withStatement(
            "INSERT OR REPLACE INTO imports(path, size, modified, offset, line, tweets, errors, finished) VALUES (?,?,?,?,?,?,?,?)",
            [.text(path), .integer(Int64(size)), .real(modified), .integer(Int64(offset)), .integer(Int64(line)),
             .integer(Int64(tweets)), .integer(Int64(errors)), .integer(finished ? 1 : 0)]
        ) { try $0.run() }
    }
}

extension TweetStore {
    /// Tweets per write transaction: large enough to amortize the commit, small enough that searches interleave.
    static let importBatchTweets = 5_000
    /// How many bad lines an import report quotes; the rest are only counted.
    static let reportedProblems = 10

    /// Imports a JSONL file (twarc2 pages, flattened tweets, or anything `decodeLine` understands), streaming it in
    /// constant memory and committing in batches.
    ///
    /// A line `decodeLine` rejects is counted and the first few are reported with their line number; it never stops the
    /// import. Decoding runs on the calling task while the previous batch is written on the store's queue.
    ///
    /// If an earlier run over the same unchanged file was interrupted (killed, cancelled), this one continues after the
    /// last committed line; otherwise the whole file is read again, and tweets already stored are simply replaced.
    /// Cancelling the task stops after the batch being written is committed, leaving the store consistent.
    ///
    /// - Parameters:
    ///   - decodeLine: one line to a page; nil skips the line (a page without data), a thrown error marks it bad.
    ///   - progress: called after each batch is handed to the writer.
    public func importJSONL(
        at url: URL,
        decodeLine: @escaping @Sendable (Data) throws -> Page?,
        progress: (@Sendable (ImportProgress) -> Void)? = nil
    ) async throws -> ImportReport {
        let path = url.standardizedFileURL.path
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let size = (attributes[.size] as? NSNumber)?.uint64Value ?? 0
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0

        var state = ImportState(path: path, size: size, modified: modified)
        var resumedAfterLine: Int?
        if let earlier = try await database.run({ try ImportState.load($0, path: path) }),
           !earlier.finished, earlier.size == size, earlier.modified == modified, earlier.offset > 0 {
            state = earlier
            resumedAfterLine = earlier.line
        }

        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var reader = try LineReader(handle: handle, offset: state.offset)
        var problems: [ImportProblem] = []
        var skipped = 0
        var batch: [Page] = []
        var batchTweets = 0
        var pending: Task<Void, Error>?

        func flush(finished: Bool) async throws {
            state.offset = reader.offset
            state.tweets += batchTweets
            state.finished = finished
            let pages = batch
            let snapshot = state
            batch.removeAll(keepingCapacity: true)
            batchTweets = 0
            try await pending?.value
            pending = Task {
                try await self.database.run { connection in
                    try connection.transaction {
                        var writer = Writer(connection: connection)
                        for page in pages { try writer.write(page) }
                        try snapshot.save(connection)
                    }
                }
            }
            progress?(ImportProgress(
                bytesRead: snapshot.offset, totalBytes: size, lines: snapshot.line, tweets: snapshot.tweets,
                errors: snapshot.errors))
        }

        func problem(_ message: String, _ excerpt: String) {
            state.errors += 1
            if problems.count < Self.reportedProblems {
                problems.append(ImportProblem(line: state.line, message: message, excerpt: excerpt))
            }
        }

        do {
            while let line = try reader.next() {
                state.line += 1
                switch line {
                case .tooLong(let length):
                    problem("line is \(length) bytes long, more than the \(LineReader.maximumLineLength) allowed", "")
                case .text(let data):
                    if data.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { break }
                    do {
                        if let page = try decodeLine(data) {
                            batch.append(page)
                            batchTweets += page.tweets.count
                        } else {
                            skipped += 1
                        }
                    } catch {
                        problem(String(describing: error), String(decoding: data.prefix(200), as: UTF8.self))
                    }
                }
                if batchTweets >= Self.importBatchTweets || batch.count >= 1_000 { try await flush(finished: false) }
                if Task.isCancelled { throw CancellationError() }
            }
            try await flush(finished: true)
            try await pending?.value
        } catch {
            // Whatever went wrong, let the batch being written finish so its progress record matches the tables.
            _ = try? await pending?.value
            throw error
        }
        return ImportReport(
            lines: state.line, tweets: state.tweets, errorCount: state.errors, problems: problems,
            skippedLines: skipped, resumedAfterLine: resumedAfterLine)
    }
}
