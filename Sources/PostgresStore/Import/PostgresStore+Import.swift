import Foundation
import TweetKit
import TweetStore

/// What an import of a JSON Lines file did.
public struct PostgresImportReport: Hashable, Sendable {
    /// Lines read in all runs of this file (blank lines included).
    public var lines: Int
    /// Result tweets read from the file in all runs (stored, whether new or not), as the SQLite store counts them.
    public var tweets: Int
    /// Lines that did not decode.
    public var errors: Int
    /// The line a resumed import started after (0 for a fresh one).
    public var resumedAfterLine: Int
    /// The first ten lines that did not decode, by line number, with the decoder's message.
    public var problems: [ImportProblem] = []
    /// Result tweets read in this run (duplicates and tweets stored before included).
    public var tweetsThisRun = 0
    /// Result tweets of this run the store did not hold before.
    public var newTweets = 0
}

extension PostgresStore {
    /// Imports a JSON Lines file (twarc2 output, API responses, one tweet per line) in batches of `batchLines` lines (or 8 MB).
    ///
    /// Each batch commits in one transaction together with the file's `imports` row (byte offset, line, counts), so
    /// an import killed at any point resumes after the last committed line when run again on the same unchanged
    /// file, and the counts come out exact. A role without the right to write gets `PostgresError.readOnly` before
    /// anything is read. A file imported to the end is read again from the start, as in the SQLite store. `progress`
    /// hears after each committed batch. Cancelling the task cancels the batch being written on the server (it rolls
    /// back) or stops before the next one, and throws `CancellationError`; the batches committed before stay, and the
    /// next run resumes after them.
    public func importJSONL(
        at url: URL, collection: String? = nil, batchLines: Int = 5_000,
        decodeLine: @escaping @Sendable (Data) throws -> Page? = { line in
            try CollectionLineDecoder.decode(line: line, keepOriginals: true)
        },
        progress: (@Sendable (ImportProgress) -> Void)? = nil
    ) async throws -> PostgresImportReport {
        let path = url.standardizedFileURL.path
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let size = Int64((attributes[.size] as? NSNumber)?.int64Value ?? 0)
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        let codec = self.codec
        return try await withCancellableConnection { connection, slot in
            let writable =
                try connection.scalar("SELECT has_table_privilege('tweets', 'INSERT')::int", doing: "importing")
            guard writable == 1 else { throw PostgresError(.readOnly, address: connection.address) }
            var state = try ImportState.load(connection, path: path, size: size, modified: modified)
            // Into an empty store autovacuum waits and the statistics come once, after the load (PostgresBulkLoad).
            var bulk = try PostgresBulkLoad.begin(connection)
            // Stopped or failed, the load still ends as a load does for what it committed (Ctrl-C included; a second
            // cancel, as `close()` sends, stops that too, and the next import repairs it).
            defer { if bulk { _ = try? connection.uninterrupted { try PostgresBulkLoad.finish(connection) } } }
            let resumedAfter = state.line
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            try handle.seek(toOffset: UInt64(state.offset))
            // Users written unchanged are left out of later batches, and unseen tweets go straight in (see the ledger).
            let ledger = PostgresImportLedger(keepsTrying: bulk)
            // Included copies of results decoded before are left out (`KnownResults`): batches are decoded in file
            // order on one queue and written in that order, and an import that fails stops, so every result it
            // holds was written or is in a batch written before the one that would have held the copy.
            let knownResults = KnownResults()
            let writer = PostgresWriter(connection: connection, codec: codec, ledger: ledger)
            // One serial queue decodes batch after batch in file order (so lines are decoded in order) while this
            // thread and the server write the batch before: decoding and writing overlap on two cores.
            let decoder = DispatchQueue(label: "tweetsh.postgres-import.decode")
            var inFlight: [PendingBatch] = []
            var problems: [ImportProblem] = []
            var readThisRun = 0
            var newThisRun = 0
            var submittedLines = state.line
            func write(_ batch: PendingBatch) throws {
                let decoded = batch.wait()
                // Ctrl-C stops between batches as well as inside one (the running statement is cancelled): what is
                // committed stays, with the `imports` row that lets the next run resume after it.
                try slot.check(address: connection.address)
                var next = state
                next.offset = batch.endOffset
                next.line += batch.lineCount
                next.errors += decoded.errors
                next.tweets += decoded.tweets
                next.finished = batch.isLast
                let added = try connection.transaction {
                    let added = try writer.write(decoded.rows, collection: collection)
                    try next.save(connection)
                    return added
                }
                state = next
                readThisRun += decoded.tweets
                newThisRun += added
                problems += decoded.problems.prefix(max(0, 10 - problems.count))
                progress?(
                    ImportProgress(
                        bytesRead: UInt64(state.offset), totalBytes: UInt64(size), lines: state.line,
                        tweets: state.tweets, errors: state.errors))
            }
            func submit(_ lines: [Data], endOffset: Int64, isLast: Bool) throws {
                let batch = PendingBatch(lineCount: lines.count, endOffset: endOffset, isLast: isLast)
                let firstLine = submittedLines + 1
                submittedLines += lines.count
                let decoded = batch.decoded
                decoder.async {
                    decoded.fulfil(
                        Self.decode(
                            lines, firstLine: firstLine, decodeLine: decodeLine, codec: codec, ledger: ledger,
                            known: knownResults))
                }
                inFlight.append(batch)
                // Two batches decoded ahead keep both cores busy; waiting here keeps memory at three batches.
                while inFlight.count > 2 { try write(inFlight.removeFirst()) }
            }
            var pending: [UInt8] = []
            var lines: [Data] = []
            var lineBytes = 0
            var consumed = state.offset
            while true {
                try slot.check(address: connection.address)
                let chunk = try handle.read(upToCount: 1 << 20) ?? Data()
                if chunk.isEmpty { break }
                pending += chunk
                var start = 0
                while let newline = Self.newline(in: pending, from: start) {
                    lines.append(Data(pending[start..<newline]))
                    lineBytes += newline - start
                    consumed += Int64(newline - start + 1)
                    start = newline + 1
                    if lines.count >= batchLines || lineBytes >= Self.batchBytes {
                        try submit(lines, endOffset: consumed, isLast: false)
                        lines = []
                        lineBytes = 0
                    }
                }
                pending.removeFirst(start)
            }
            if !pending.isEmpty {
                lines.append(Data(pending))
                consumed += Int64(pending.count)
            }
            try submit(lines, endOffset: consumed, isLast: true)
            while !inFlight.isEmpty { try write(inFlight.removeFirst()) }
            if bulk {
                bulk = false
                try PostgresBulkLoad.finish(connection)
            }
            return PostgresImportReport(
                lines: state.line, tweets: state.tweets, errors: state.errors, resumedAfterLine: resumedAfter,
                problems: problems, tweetsThisRun: readThisRun, newTweets: newThisRun)
        }
    }
}

extension PostgresStore {
    /// A batch ends after `batchLines` lines or this many bytes of input, whichever comes first: twarc2 lines hold
    /// a page of up to 100 tweets each, and a batch of 8 MB (about 6,000 tweets) keeps memory small while the
    /// per-batch statements stay a small share of the work.
    static let batchBytes = 8 << 20

    /// The index of the first newline in `bytes` at or after `start`: `memchr`, as the generic search went byte by
    /// byte through the whole file on the writing thread.
    fileprivate static func newline(in bytes: [UInt8], from start: Int) -> Int? {
        bytes.withUnsafeBufferPointer { buffer in
            guard start < buffer.count, let base = buffer.baseAddress,
                let found = memchr(base + start, 10, buffer.count - start)
            else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// Decodes one batch's lines (the first is line `firstLine` of the file) and builds its rows; a line that does
    /// not decode is counted, and the first ten are kept with their line number, not fatal.
    fileprivate static func decode(
        _ lines: [Data], firstLine: Int, decodeLine: (Data) throws -> Page?, codec: OriginalsCodec,
        ledger: PostgresImportLedger, known: KnownResults
    ) -> DecodedBatch {
        var pages: [Page] = []
        var errors = 0
        var problems: [ImportProblem] = []
        KnownResults.$current.withValue(known) {
            for (index, line) in lines.enumerated() where !line.allSatisfy({ $0 == 32 || $0 == 9 || $0 == 13 }) {
                do {
                    if let page = try decodeLine(line) {
                        // Only a page that decoded: its results are stored, so later copies of them are left out.
                        known.insert(contentsOf: page.tweets.map { $0.id.rawValue })
                        pages.append(page)
                    }
                } catch {
                    errors += 1
                    if problems.count < 10 {
                        problems.append(
                            ImportProblem(
                                line: firstLine + index, message: String(describing: error),
                                excerpt: String(decoding: line.prefix(200), as: UTF8.self)))
                    }
                }
            }
        }
        let tweets = pages.reduce(0) { $0 + $1.tweets.count }
        return DecodedBatch(
            rows: PostgresBatchRows(pages, codec: codec, ledger: ledger), errors: errors, tweets: tweets,
            problems: problems)
    }
}

/// A batch's rows and the number of lines in it that did not decode.
private struct DecodedBatch: Sendable {
    var rows: PostgresBatchRows
    var errors: Int
    /// Result tweets in the batch's pages.
    var tweets = 0
    /// The batch's first lines that did not decode.
    var problems: [ImportProblem] = []
}

/// A batch handed to the decoding queue: where it ends in the file, and its rows once they are built.
private struct PendingBatch {
    let lineCount: Int
    let endOffset: Int64
    let isLast: Bool
    let decoded = DecodedLater(fallback: DecodedBatch(rows: PostgresBatchRows(), errors: 0))

    func wait() -> DecodedBatch { decoded.wait() }
}

/// The `imports` row of one file: how far its import got, committed with each batch.
struct ImportState {
    var path: String
    var size: Int64
    var modified: Double
    var offset: Int64 = 0
    var line = 0
    var tweets = 0
    var errors = 0
    var finished = false

    /// The row for this file, or a fresh start when there is none or the file changed since.
    static func load(_ connection: PGConnection, path: String, size: Int64, modified: Double) throws -> ImportState {
        let fresh = ImportState(path: path, size: size, modified: modified)
        let rows = try connection.rows(
            "SELECT size, modified, \"offset\", line, tweets, errors, finished FROM imports WHERE path = $1",
            [.text(path)], doing: "reading the import's progress"
        ) { row -> ImportState in
            var state = fresh
            // A finished import is read again from the start, as the SQLite store does: the upserts make that
            // harmless, and a file whose collection was dropped since comes back.
            guard row.int64(0) == size, row.double(1) == modified, row.text(6) != "t" else { return fresh }
            state.offset = row.int64(2)
            state.line = Int(row.int64(3))
            state.tweets = Int(row.int64(4))
            state.errors = Int(row.int64(5))
            return state
        }
        return rows.first ?? fresh
    }

    func save(_ connection: PGConnection) throws {
        try connection.execute(
            "INSERT INTO imports(path, size, modified, \"offset\", line, tweets, errors, finished) "
                + "VALUES ($1, $2, $3::double precision, $4, $5, $6, $7, $8::boolean) ON CONFLICT (path) DO UPDATE SET "
                + "size = EXCLUDED.size, modified = EXCLUDED.modified, \"offset\" = EXCLUDED.\"offset\", "
                + "line = EXCLUDED.line, tweets = EXCLUDED.tweets, errors = EXCLUDED.errors, "
                + "finished = EXCLUDED.finished",
            [
                .text(path), .integer(size), .text(String(modified)), .integer(offset), .integer(Int64(line)),
                .integer(Int64(tweets)), .integer(Int64(errors)), .text(finished ? "true" : "false"),
            ], doing: "recording the import's progress")
    }
}

extension PostgresStore {
    /// Whether an import of the file at `path` was recorded (finished or not), from any machine that shares the store.
    public func hasImported(path: String) async throws -> Bool {
        try await withConnection { connection in
            try connection.scalar(
                "SELECT count(*) FROM imports WHERE path = $1", [.text(path)], doing: "reading the imports") ?? 0 > 0
        }
    }
}
