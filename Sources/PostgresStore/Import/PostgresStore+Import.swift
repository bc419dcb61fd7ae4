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
    /// Imports a JSON Lines file (twarc2 output, API responses, one tweet per line) in batches of `batchLines`.
    ///
    /// Each batch commits in one transaction together with the file's `imports` row (byte offset, line, counts), so
    /// an import killed at any point resumes after the last committed line when run again on the same unchanged
    /// file, and the counts come out exact. A role without the right to write gets `PostgresError.readOnly` before
    /// anything is read. `progress` hears after each committed batch.
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
        let codec = OriginalsCodec()
        return try withConnection { connection in
            let writable =
                try connection.scalar("SELECT has_table_privilege('tweets', 'INSERT')::int", doing: "importing")
            guard writable == 1 else { throw PostgresError(.readOnly, address: connection.address) }
            var state = try ImportState.load(connection, path: path, size: size, modified: modified)
            let resumedAfter = state.line
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            try handle.seek(toOffset: UInt64(state.offset))
            let writer = PostgresWriter(connection: connection, codec: codec)
            var pending: [UInt8] = []
            var lines: [Data] = []
            var consumed = state.offset
            var problems: [ImportProblem] = []
            var readThisRun = 0
            var newThisRun = 0
            func commit() throws {
                var pages: [Page] = []
                var errors = 0
                for (index, line) in lines.enumerated() where !line.allSatisfy({ $0 == 32 || $0 == 9 || $0 == 13 }) {
                    do {
                        if let page = try decodeLine(line) { pages.append(page) }
                    } catch {
                        errors += 1
                        if problems.count < 10 {
                            problems.append(
                                ImportProblem(
                                    line: state.line + index + 1, message: String(describing: error),
                                    excerpt: String(decoding: line.prefix(200), as: UTF8.self)))
                        }
                    }
                }
                var next = state
                next.offset = consumed
                next.line += lines.count
                next.errors += errors
                let read = pages.reduce(0) { $0 + $1.tweets.count }
                next.tweets += read
                let added = try connection.transaction {
                    let added = try writer.write(pages, collection: collection)
                    try next.save(connection)
                    return added
                }
                state = next
                newThisRun += added
                readThisRun += read
                lines.removeAll(keepingCapacity: true)
                progress?(
                    ImportProgress(
                        bytesRead: UInt64(consumed), totalBytes: UInt64(size), lines: state.line,
                        tweets: state.tweets, errors: state.errors))
            }
            while true {
                let chunk = try handle.read(upToCount: 1 << 20) ?? Data()
                if chunk.isEmpty { break }
                pending += chunk
                var start = 0
                while let newline = pending[start...].firstIndex(of: 10) {
                    lines.append(Data(pending[start..<newline]))
                    consumed += Int64(newline - start + 1)
                    start = newline + 1
                    if lines.count >= batchLines { try commit() }
                }
                pending.removeFirst(start)
            }
            if !pending.isEmpty {
                lines.append(Data(pending))
                consumed += Int64(pending.count)
            }
            state.finished = true
            try commit()
            return PostgresImportReport(
                lines: state.line, tweets: state.tweets, errors: state.errors, resumedAfterLine: resumedAfter,
                problems: problems, tweetsThisRun: readThisRun, newTweets: newThisRun)
        }
    }
}

/// The `imports` row of one file: how far its import got, committed with each batch.
private struct ImportState {
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
