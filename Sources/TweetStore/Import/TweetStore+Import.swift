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
            [
                .text(path), .integer(Int64(size)), .real(modified), .integer(Int64(offset)), .integer(Int64(line)),
                .integer(Int64(tweets)), .integer(Int64(errors)), .integer(finished ? 1 : 0),
            ]
        ) { try $0.run() }
    }
}

extension TweetStore {
    /// Lines per write transaction at most: large enough to amortize the commit, small enough that searches interleave.
    static let importBatchTweets = 5_000
    /// Bytes of JSON per write transaction at most (about 5,000 tweets of twarc2 pages).
    static let importBatchBytes = 6 << 20
    /// How many decoded batches may wait on the store's queue, the one being written included. FTS5 merges its
    /// segments in bursts inside some commits; with room for one batch more than the writer needs, decoding goes on
    /// through a burst instead of stopping for it.
    static let importQueuedBatches = 3
    /// How many bad lines an import report quotes; the rest are only counted.
    package static let reportedProblems = 10

    /// What became of the records of one half of a batch.
    struct DecodedLines: Sendable {
        var batch = PreparedBatch([])
        var tweets = 0
        var skipped = 0
        var failures: [(line: Int, message: String, excerpt: String)] = []
        /// Records holding something other than tweets, by what they hold.
        var notTweets: [String: Int] = [:]
    }

    /// Decodes records and prepares their pages for the writer; runs in a child task, in parallel with the other half.
    /// Included copies of results that `known` holds, or that this half decodes, are left out (`KnownResults`).
    static func decode(
        _ lines: ArraySlice<(number: Int, data: Data)>, _ decodeLine: @Sendable (Data) throws -> Page?,
        codec: OriginalsCodec, known: KnownResults
    ) async -> DecodedLines {
        let decoded = KnownResults.$current.withValue(KnownResults(over: known)) {
            DecodedRecords.decode(lines, decodeLine)
        }
        return DecodedLines(
            batch: PreparedBatch(decoded.pages, codec: codec), tweets: decoded.tweets, skipped: decoded.skipped,
            failures: decoded.failures, notTweets: decoded.notTweets)
    }

    /// What a record holds when it is valid JSON but not tweets; nil otherwise.
    package static func nonTweetName(_ data: Data) -> String? {
        guard let value = try? JSONParser.parse(data) else { return nil }
        return NonTweetValue.name(of: value)
    }

    /// Imports a JSONL file (twarc2 pages, flattened tweets, or anything `decodeLine` understands); see
    /// `importJSON(from:decodeLine:progress:)`, which also reads compressed files and JSON documents.
    public func importJSONL(
        at url: URL,
        decodeLine: @escaping @Sendable (Data) throws -> Page?,
        progress: (@Sendable (ImportProgress) -> Void)? = nil
    ) async throws -> ImportReport {
        try await importJSON(from: .file(url), collection: nil, decodeLine: decodeLine, progress: progress)
    }

    /// Imports JSON from a file or standard input, streaming it in constant memory and committing in batches.
    ///
    /// The input is recognised by its first bytes: gzip, bzip2, xz and zstd are decompressed as they are read, and the
    /// JSON may be JSON Lines (twarc2 output) or a document: pretty-printed values one after another, or arrays whose
    /// elements are tweets or pages. Anything else is refused before a byte is imported, with an `ImportInputError`
    /// that names it (`not JSON text: looks like a PNG image`).
    ///
    /// A record (a line, or an array element) `decodeLine` rejects is counted and the first few are reported with
    /// their line number; it never stops the import. Decoding runs in two child tasks while up to two earlier batches
    /// are written on the store's queue.
    ///
    /// If an earlier run over the same unchanged file was interrupted (killed, cancelled), this one continues after the
    /// last committed record; otherwise the whole file is read again, and tweets already stored are simply replaced.
    /// A plain JSON Lines file is resumed by seeking; anything else is read again from the start up to that point.
    /// Standard input is never resumed. Cancelling the task stops once the batches already queued (at most
    /// `importQueuedBatches`) are committed, leaving the store consistent.
    ///
    /// - Parameters:
    ///   - collection: the collection the tweets join; nil names it after the file (`ImportInput.collectionName`).
    ///   - decodeLine: one record to a page; nil skips it (a page without data), a thrown error marks it bad.
    ///   - progress: called after each batch is handed to the writer.
    public func importJSON(
        from input: ImportInput,
        collection: String? = nil,
        decodeLine: @escaping @Sendable (Data) throws -> Page?,
        progress: (@Sendable (ImportProgress) -> Void)? = nil
    ) async throws -> ImportReport {
        let path = input.path
        var size: UInt64 = 0
        var modified: Double = 0
        if case .file = input {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            size = (attributes[.size] as? NSNumber)?.uint64Value ?? 0
            modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        }
        let opened = try input.open()
        guard case .json(let framing, let compression) = opened.content else {
            throw ImportInputError(message: "\(path) is a file of an X account archive: import the archive's folder")
        }
        let savesState = input != .standardInput
        let collection = try CollectionNameError.check(collection, orNameOf: input)

        var state = ImportState(path: path, size: size, modified: modified)
        var resumedAfterLine: Int?
        if savesState, let earlier = try await database.run({ try ImportState.load($0, path: path) }),
            !earlier.finished, earlier.size == size, earlier.modified == modified, earlier.offset > 0
        {
            state = earlier
            resumedAfterLine = earlier.line
        }
        let earlierTweets = state.tweets

        let reader: RecordReader
        /// Records ending at or before this decoded offset were committed by an earlier run and are read past.
        var replayUntil: UInt64 = 0
        if resumedAfterLine != nil, framing == .lines, compression.isEmpty {
            reader = RecordReader(
                source: try DescriptorSource(path: path, offset: state.offset), framing: framing,
                offset: state.offset, line: state.line)
        } else {
            reader = RecordReader(source: opened.source, framing: framing)
            if resumedAfterLine != nil { replayUntil = state.offset }
        }

        var problems: [ImportProblem] = []
        var skipped = 0
        var newTweets = 0
        var notTweets: [String: Int] = [:]
        var lines: [(number: Int, data: Data)] = []
        var lineBytes = 0
        /// Batches handed to the writer and not yet known to be committed, oldest first.
        var writes: [PendingWrite<Int>] = []
        /// The same batches, held here so that this task, not the writer thread, drops their last reference: freeing
        /// a batch's thousands of objects took several percent of the writer thread, the import's critical path.
        var heldBatches: [PreparedBatch] = []

        func problem(_ line: Int, _ message: String, _ excerpt: String) {
            state.errors += 1
            // Decoding runs in parallel halves, so keep the first few by line number, not by arrival.
            if problems.count < Self.reportedProblems || line < problems[problems.count - 1].line {
                problems.append(ImportProblem(line: line, message: message, excerpt: excerpt))
                problems.sort { $0.line < $1.line }
                if problems.count > Self.reportedProblems { problems.removeLast() }
            }
        }

        /// A batch being decoded, with where the reader stood when its last record was read.
        struct Pending {
            let decoding: Task<DecodedLines, Never>
            let offset: UInt64
            let line: Int
            let position: UInt64
            /// The errors counted up to the batch's last record, decoding failures of earlier batches included.
            let errors: Int
            let finished: Bool
        }
        var pending: Pending?
        /// The results of the batches handed to the writer so far; filled between one batch's decoding and the next's.
        let knownResults = KnownResults()

        /// Starts decoding the records read so far (two halves at once, merged and ordered in the same task), and
        /// returns at once: the next batch's records are read while this one decodes, so reading no longer leaves a
        /// core idle between batches.
        func startDecoding(finished: Bool) {
            let chunk = lines
            lines.removeAll(keepingCapacity: true)
            lineBytes = 0
            let codec = self.codec
            let decoding = Task { await decodeHalves(chunk, codec: codec) }
            pending = Pending(
                decoding: decoding, offset: reader.offset, line: state.line, position: reader.position,
                errors: state.errors, finished: finished)
        }

        @Sendable func decodeHalves(_ chunk: [(number: Int, data: Data)], codec: OriginalsCodec) async -> DecodedLines {
            let middle = chunk.count / 2
            async let first = Self.decode(chunk[..<middle], decodeLine, codec: codec, known: knownResults)
            async let second = Self.decode(chunk[middle...], decodeLine, codec: codec, known: knownResults)
            var decoded = await first
            let rest = await second
            decoded.batch.append(rest.batch)
            decoded.batch.order()
            decoded.tweets += rest.tweets
            decoded.skipped += rest.skipped
            decoded.failures += rest.failures
            decoded.notTweets.merge(rest.notTweets) { $0 + $1 }
            return decoded
        }

        /// Waits for the batch being decoded, then queues it behind the one being written.
        ///
        /// At most `importQueuedBatches` batches wait on the writer: one being written and the next ones, so the writer
        /// never waits for decoding, while this task reads and decodes the batch after them on the other core.
        func queueDecoded() async throws {
            guard let batchInfo = pending else { return }
            pending = nil
            let decoded = await batchInfo.decoding.value
            skipped += decoded.skipped
            for failure in decoded.failures { problem(failure.line, failure.message, failure.excerpt) }
            notTweets.merge(decoded.notTweets) { $0 + $1 }
            state.tweets += decoded.tweets
            // The saved progress stops at this batch's last record: what was read after it is not committed yet.
            var saved = state
            saved.offset = batchInfo.offset
            saved.line = batchInfo.line
            saved.errors = batchInfo.errors + decoded.failures.count
            saved.finished = batchInfo.finished
            let snapshot = saved
            let batch = decoded.batch
            while writes.count >= Self.importQueuedBatches {
                newTweets += try await writes.removeFirst().value
                heldBatches.removeFirst()
            }
            heldBatches.append(batch)
            knownResults.insert(contentsOf: batch.tweets.compactMap { $0.primary ? UInt64(bitPattern: $0.rowid) : nil })
            let previous = writes.last
            writes.append(
                database.enqueue { connection in
                    // A batch behind a failed one must not commit: its progress record would claim the lost lines.
                    if previous?.failed == true { throw StoreError(message: "an earlier batch of the import failed") }
                    return try connection.transaction {
                        let writer = try Writer(connection: connection)
                        let added = try writer.write(batch)
                        try CollectionMembership.add(connection, batch, to: collection)
                        if savesState { try snapshot.save(connection) }
                        return added
                    }
                })
            progress?(
                ImportProgress(
                    bytesRead: batchInfo.position, totalBytes: size, lines: snapshot.line, tweets: snapshot.tweets,
                    errors: snapshot.errors))
        }

        /// Hands the records read so far on: the batch before them is queued for writing, and these start decoding.
        /// A cancelled import queues no batch after the one it was cancelled during.
        func flush(finished: Bool) async throws {
            try await queueDecoded()
            if Task.isCancelled { throw CancellationError() }
            startDecoding(finished: finished)
        }

        do {
            while let record = try reader.next() {
                // Replaying up to where the earlier run committed: its counts stand for those records.
                if replayUntil > 0, reader.offset <= replayUntil { continue }
                state.line = framing == .lines ? reader.line : reader.records
                switch record {
                case .tooLong(let length, let line):
                    let what = framing == .lines ? "line" : "value"
                    problem(
                        line,
                        "\(what) is \(length) bytes long, more than the \(RecordReader.maximumRecordLength) allowed",
                        "")
                case .text(let data, let line):
                    if data.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { break }
                    lines.append((line, data))
                    lineBytes += data.count
                }
                if lineBytes >= Self.importBatchBytes || lines.count >= Self.importBatchTweets {
                    try await flush(finished: false)
                }
                if Task.isCancelled { throw CancellationError() }
            }
            try await flush(finished: true)
            if Task.isCancelled { throw CancellationError() }
            try await queueDecoded()
            for write in writes { newTweets += try await write.value }
        } catch {
            // Whatever went wrong, let the queued batches finish so the progress record matches the tables. A batch
            // still being decoded was never queued, so its records stay uncommitted and a later run reads them again.
            if let batchInfo = pending { _ = await batchInfo.decoding.value }
            for write in writes { _ = try? await write.value }
            throw error
        }
        var report = ImportReport(
            lines: state.line, tweets: state.tweets, errorCount: state.errors, problems: problems,
            skippedLines: skipped, resumedAfterLine: resumedAfterLine)
        report.framing = framing
        report.compression = compression
        report.tweetsThisRun = state.tweets - earlierTweets
        report.newTweets = newTweets
        report.notTweets = notTweets
        report.streamProblem = reader.problem
        return report
    }
}

extension TweetStore {
    /// Whether an import of the file at `path` was recorded (finished or not).
    public func hasImported(path: String) async throws -> Bool {
        try await database.run { connection in
            try connection.scalar("SELECT count(*) FROM imports WHERE path = ?", [.text(path)]) ?? 0 > 0
        }
    }
}
