import Foundation
import TweetKit
import TweetStore

/// Every input shape the SQLite store imports, on the server: compressed files (gzip, bzip2, xz, zstd, found by their
/// first bytes), pretty-printed JSON documents and arrays, standard input, and X account archives.
///
/// The input is opened, decompressed and split into records by the SQLite store's own readers (`ImportInput.open`,
/// `RecordReader`), so both stores see the same records; plain JSON Lines files take the pipelined path of
/// `importJSONL`. Each batch commits with the file's `imports` row, whose offset counts decoded bytes here: an
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
        let collection = collection ?? input.collectionName
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
        var report = try await withCancellableConnection { connection, slot in
            try Self.requireWritable(connection)
            var run = ShapeImport(
                connection: connection, codec: codec, slot: slot, reader: reader, collection: collection,
                state: ImportState(path: input.path, size: size, modified: modified),
                savesState: input != .standardInput, progress: progress)
            if run.savesState {
                run.state = try ImportState.load(connection, path: input.path, size: size, modified: modified)
            }
            return try run.run()
        }
        report.framing = framing
        report.compression = compression
        return report
    }

    /// Imports an X account archive (its folder, `data` folder, a `.zip` of it, or a tweets file) in batches, as the
    /// SQLite store does: unreadable entries are skipped and reported, and the handles of the users replied to are
    /// kept for `to:handle`. An archive is small, so an interrupted import is simply run again (the upserts make that
    /// harmless).
    public func importArchive(
        at url: URL, collection: String?, progress: (@Sendable (ImportProgress) -> Void)?
    ) async throws -> ImportReport {
        let collection = collection ?? ImportInput.file(url).collectionName
        try await withConnection { try Self.requireWritable($0) }
        let codec = self.codec
        return try await ArchiveImport.run(at: url, progress: progress) { pages, handles in
            try await withCancellableConnection { connection in
                try connection.transaction {
                    _ = try PostgresWriter(connection: connection, codec: codec).write(pages, collection: collection)
                    try Self.recordReplyHandles(handles, connection)
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

/// One import of records from `RecordReader`, in batches committed with the input's `imports` row.
private struct ShapeImport {
    let connection: PGConnection
    /// The store's codec, with its dictionaries.
    let codec: OriginalsCodec
    /// Marks the import stopped (Ctrl-C, or the store closing); checked after every record.
    let slot: CancelSlot
    let reader: RecordReader
    let collection: String
    var state: ImportState
    let savesState: Bool
    let progress: (@Sendable (ImportProgress) -> Void)?
    private var records: [(line: Int, data: Data)] = []
    private var bytes = 0
    private var problems: [ImportProblem] = []
    private var skipped = 0
    private var newTweets = 0
    private var notTweets: [String: Int] = [:]
    /// Users written unchanged are left out of later batches, and unseen tweets go straight in until a batch finds
    /// the store holds some of them (a shape's import is no bulk load).
    private let ledger = PostgresImportLedger(keepsTrying: false)

    init(
        connection: PGConnection, codec: OriginalsCodec, slot: CancelSlot, reader: RecordReader, collection: String,
        state: ImportState, savesState: Bool,
        progress: (@Sendable (ImportProgress) -> Void)?
    ) {
        self.connection = connection
        self.codec = codec
        self.slot = slot
        self.reader = reader
        self.collection = collection
        self.state = state
        self.savesState = savesState
        self.progress = progress
    }

    mutating func run() throws -> ImportReport {
        let resumedAfter = state.offset > 0 ? state.line : nil
        // Records ending at or before this decoded offset were committed by an earlier run and are read past.
        let replayUntil = UInt64(state.offset)
        let earlierTweets = state.tweets
        let framing = reader.framing
        while let record = try reader.next() {
            if replayUntil > 0, reader.offset <= replayUntil { continue }
            state.line = framing == .lines ? reader.line : reader.records
            switch record {
            case .tooLong(let length, let line):
                let what = framing == .lines ? "line" : "value"
                problem(
                    line, "\(what) is \(length) bytes long, more than the \(RecordReader.maximumRecordLength) allowed",
                    "")
            case .text(let data, let line):
                if data.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { break }
                records.append((line, data))
                bytes += data.count
            }
            if bytes >= PostgresStore.batchBytes || records.count >= PostgresStore.shapeBatchRecords {
                try flush(finished: false)
            }
            try slot.check(address: connection.address)
        }
        try flush(finished: true)
        var report = ImportReport(
            lines: state.line, tweets: state.tweets, errorCount: state.errors, problems: problems,
            skippedLines: skipped, resumedAfterLine: resumedAfter)
        report.tweetsThisRun = state.tweets - earlierTweets
        report.newTweets = newTweets
        report.notTweets = notTweets
        report.streamProblem = reader.problem
        return report
    }

    private mutating func problem(_ line: Int, _ message: String, _ excerpt: String) {
        state.errors += 1
        if problems.count < TweetStore.reportedProblems {
            problems.append(ImportProblem(line: line, message: message, excerpt: excerpt))
        }
    }

    /// Decodes the records read so far and commits them with the import's progress. A record that is valid JSON
    /// but no tweets (a page of users) is named, not counted as malformed, as in the SQLite store.
    private mutating func flush(finished: Bool) throws {
        var pages: [Page] = []
        var tweets = 0
        for record in records {
            do {
                if let page = try CollectionLineDecoder.decode(line: record.data, keepOriginals: true) {
                    pages.append(page)
                    tweets += page.tweets.count
                    if page.tweets.isEmpty, !page.users.isEmpty {
                        notTweets[TweetStore.nonTweetName(record.data) ?? "a user", default: 0] += 1
                    }
                } else {
                    skipped += 1
                }
            } catch {
                if let name = TweetStore.nonTweetName(record.data) {
                    notTweets[name, default: 0] += 1
                } else {
                    problem(
                        record.line, String(describing: error),
                        String(decoding: record.data.prefix(200), as: UTF8.self))
                }
            }
        }
        records.removeAll(keepingCapacity: true)
        bytes = 0
        state.offset = Int64(reader.offset)
        state.tweets += tweets
        state.finished = finished
        let rows = PostgresBatchRows(pages, codec: codec, ledger: ledger)
        let writer = PostgresWriter(connection: connection, codec: codec, ledger: ledger)
        let snapshot = state
        let saves = savesState
        let collection = self.collection
        newTweets += try connection.transaction {
            let added = try writer.write(rows, collection: collection)
            if saves { try snapshot.save(connection) }
            return added
        }
        progress?(
            ImportProgress(
                bytesRead: reader.position, totalBytes: UInt64(state.size), lines: state.line, tweets: state.tweets,
                errors: state.errors))
    }
}
