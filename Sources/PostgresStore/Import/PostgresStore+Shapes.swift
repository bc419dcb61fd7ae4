import Foundation
import TweetKit
import TweetStore

/// Every input shape the SQLite store imports, on the server: compressed files (gzip, bzip2, xz, zstd, found by their
/// first bytes), pretty-printed JSON documents and arrays, standard input, and X account archives.
///
/// The input is opened, decompressed and split into records by the SQLite store's own readers (`ImportInput.open`,
/// `RecordReader`), so both stores see the same records; plain JSON Lines files take `importJSONL`, and the other
/// shapes `PostgresShapeImport`, pipelined the same way. Into an empty store either is a bulk load
/// (`PostgresBulkLoad`). Each batch commits with the file's `imports` row, whose offset counts decoded bytes here: an
/// interrupted import of a compressed file or a document reads the file again from the start and skips what the
/// earlier run committed, as the SQLite store does. Standard input is never resumed.
extension PostgresStore {
    /// Records per batch at most (a batch also ends after `batchBytes` of JSON).
    static let shapeBatchRecords = 5_000

    /// Imports JSON from a file or standard input in any shape the SQLite store takes; the collection defaults to
    /// the input's name (`ImportInput.collectionName`).
    public func importJSON(
        from input: ImportInput, collection: String?, progress: (@Sendable (ImportProgress) -> Void)?
    ) async throws -> ImportReport {
        let opened = try input.open()
        guard case .json(let framing, let compression) = opened.content else {
            throw ImportInputError(
                message: "\(input.path) is a file of an X account archive: import the archive's folder")
        }
        let collection = try CollectionNameError.check(collection, orNameOf: input)
        if case .file(let url) = input, framing == .lines, compression.isEmpty {
            let done = try await importJSONL(at: url, collection: collection, progress: progress)
            var report = ImportReport(
                lines: done.lines, tweets: done.tweets, errorCount: done.errors, problems: done.problems,
                skippedLines: 0, resumedAfterLine: done.resumedAfterLine > 0 ? done.resumedAfterLine : nil)
            report.tweetsThisRun = done.tweetsThisRun
            report.newTweets = done.newTweets
            return report
        }
        var size: Int64 = 0
        var modified: Double = 0
        if case .file = input {
            let attributes = try FileManager.default.attributesOfItem(atPath: input.path)
            size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
            modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        }
        let reader = RecordReader(source: opened.source, framing: framing)
        let codec = self.codec
        let savesState = input != .standardInput
        var report = try await withCancellableConnection { connection, slot in
            try Self.requireWritable(connection)
            var state = ImportState(path: input.path, size: size, modified: modified)
            if savesState {
                state = try ImportState.load(connection, path: input.path, size: size, modified: modified)
            }
            // Into an empty store, a load as for plain files: autovacuum waits, and the statistics come at the end.
            var bulk = try PostgresBulkLoad.begin(connection)
            defer { if bulk { _ = try? connection.uninterrupted { try PostgresBulkLoad.finish(connection) } } }
            var run = PostgresShapeImport(
                connection: connection, codec: codec, slot: slot, reader: reader, collection: collection,
                state: state, savesState: savesState, bulk: bulk, progress: progress)
            let report = try run.run()
            if bulk {
                bulk = false
                try PostgresBulkLoad.finish(connection)
            }
            return report
        }
        report.framing = framing
        report.compression = compression
        return report
    }

    /// Imports an X account archive (its folder, `data` folder, the ZIP X sends, or a tweets file) in batches, as the
    /// SQLite store does: unreadable entries are skipped and reported, and the handles of the users replied to are
    /// kept for `to:handle`. An archive is small, so an interrupted import is simply run again (the upserts make that
    /// harmless).
    public func importArchive(
        at url: URL, collection: String?, progress: (@Sendable (ImportProgress) -> Void)?
    ) async throws -> ImportReport {
        let collection = try CollectionNameError.check(collection, orNameOf: .file(url))
        try await withConnection { try Self.requireWritable($0) }
        let codec = self.codec
        return try await ArchiveImport.run(at: url, progress: progress) { pages, handles in
            try await withCancellableConnection { connection in
                try connection.transaction {
                    let new = try PostgresWriter(connection: connection, codec: codec).write(
                        pages, collection: collection)
                    try Self.recordReplyHandles(handles, connection)
                    return new
                }
            }
        }
    }

    /// Throws `readOnly` before anything is read when this role may not write tweets.
    static func requireWritable(_ connection: PGConnection) throws {
        let writable = try connection.scalar("SELECT has_table_privilege('tweets', 'INSERT')::int", doing: "importing")
        guard writable == 1 else { throw PostgresError(.readOnly, address: connection.address) }
    }

    /// Keeps the handles of users an archive's tweets reply to (the archive names them, but holds no user object), so
    /// `to:handle` finds those replies, as `reply_handles` does in the SQLite store.
    static func recordReplyHandles(_ handles: [UserID: String], _ connection: PGConnection) throws {
        guard !handles.isEmpty else { return }
        let sorted = handles.sorted { $0.key < $1.key }
        try connection.execute(
            "INSERT INTO reply_handles(username, id) SELECT * FROM unnest($1::text[], $2::bigint[]) "
                + "ON CONFLICT DO NOTHING",
            [
                .text(PostgresReader.textArray(sorted.map(\.value))),
                .text("{" + sorted.map { String(Int64(bitPattern: $0.key.rawValue)) }.joined(separator: ",") + "}"),
            ], doing: "importing the archive")
    }
}
