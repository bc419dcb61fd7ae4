import Foundation
import TweetKit
import TweetStore

/// One import of records from `RecordReader` (a compressed file, a JSON document or array, standard input), in batches
/// committed with the input's `imports` row.
///
/// Pipelined as `importJSONL` is for plain files: this thread reads and decompresses the input, one serial queue
/// decodes each batch and builds its rows up to two batches ahead, and the batch before is written meanwhile. Before,
/// reading, decoding and writing took turns on one thread, and a compressed file took one and a half to two times a
/// plain one's time. A batch's counts and problems join the import's state only when that batch is written, so each
/// committed `imports` row describes exactly the records committed with it.
struct PostgresShapeImport {
    let connection: PGConnection
    /// The store's codec, with its dictionaries.
    let codec: OriginalsCodec
    /// Marks the import stopped (Ctrl-C, or the store closing); checked after every record.
    let slot: CancelSlot
    let reader: RecordReader
    let collection: String
    /// What has been committed so far, as saved in `imports`.
    var state: ImportState
    let savesState: Bool
    let progress: (@Sendable (ImportProgress) -> Void)?
    /// Users written unchanged are left out of later batches, and unseen tweets go straight in (see the ledger).
    private let ledger: PostgresImportLedger
    /// The results decoded so far, whose included copies later pages leave out (`KnownResults`): `decoder` is serial,
    /// batches are written in its order, and a failed batch stops the import.
    private let knownResults = KnownResults()
    private let decoder = DispatchQueue(label: "tweetsh.postgres-import.decode-records")
    /// Batches handed to `decoder`, oldest first; at most two wait while this thread reads the next.
    private var inFlight: [ShapeBatch] = []
    // The batch being gathered.
    private var records: [(line: Int, data: Data)] = []
    private var bytes = 0
    private var readerErrors = 0
    private var readerProblems: [ImportProblem] = []
    /// The reader's line (lines) or record count (values) at the last record read.
    private var readLine: Int
    // Totals of the batches written.
    private var problems: [ImportProblem] = []
    private var skipped = 0
    private var newTweets = 0
    private var notTweets: [String: Int] = [:]

    /// An import that continues from `state`; `bulk` says it loads into a store that was empty when it began
    /// (`PostgresBulkLoad`), so a batch that finds a stored tweet does not stop later ones from going straight in.
    init(
        connection: PGConnection, codec: OriginalsCodec, slot: CancelSlot, reader: RecordReader, collection: String,
        state: ImportState, savesState: Bool, bulk: Bool, progress: (@Sendable (ImportProgress) -> Void)?
    ) {
        self.connection = connection
        self.codec = codec
        self.slot = slot
        self.reader = reader
        self.collection = collection
        self.state = state
        self.savesState = savesState
        self.progress = progress
        self.ledger = PostgresImportLedger(keepsTrying: bulk)
        self.readLine = state.line
    }

    /// Reads the input to its end, writing batch after batch, and returns the import's report.
    mutating func run() throws -> ImportReport {
        let resumedAfter = state.offset > 0 ? state.line : nil
        // Records ending at or before this decoded offset were committed by an earlier run and are read past.
        let replayUntil = UInt64(state.offset)
        let earlierTweets = state.tweets
        let framing = reader.framing
        while let record = try reader.next() {
            if replayUntil > 0, reader.offset <= replayUntil { continue }
            readLine = framing == .lines ? reader.line : reader.records
            switch record {
            case .tooLong(let length, let line):
                let what = framing == .lines ? "line" : "value"
                readerErrors += 1
                if readerProblems.count < TweetStore.reportedProblems {
                    readerProblems.append(
                        ImportProblem(
                            line: line,
                            message:
                                "\(what) is \(length) bytes long, more than the \(RecordReader.maximumRecordLength) allowed",
                            excerpt: ""))
                }
            case .text(let data, let line):
                if data.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { break }
                records.append((line, data))
                bytes += data.count
            }
            if bytes >= PostgresStore.batchBytes || records.count >= PostgresStore.shapeBatchRecords {
                try submit(finished: false)
            }
            try slot.check(address: connection.address)
        }
        try submit(finished: true)
        while !inFlight.isEmpty { try write(inFlight.removeFirst()) }
        var report = ImportReport(
            lines: state.line, tweets: state.tweets, errorCount: state.errors, problems: problems,
            skippedLines: skipped, resumedAfterLine: resumedAfter)
        report.tweetsThisRun = state.tweets - earlierTweets
        report.newTweets = newTweets
        report.notTweets = notTweets
        report.streamProblem = reader.problem
        return report
    }

    /// Hands the records gathered so far to the decoding queue, with where the reader stands after them, and writes
    /// the oldest batch once two more wait behind it.
    private mutating func submit(finished: Bool) throws {
        let batch = ShapeBatch(
            offset: Int64(reader.offset), line: readLine, position: reader.position, finished: finished,
            readerErrors: readerErrors, readerProblems: readerProblems)
        let chunk = records
        records.removeAll(keepingCapacity: true)
        bytes = 0
        readerErrors = 0
        readerProblems = []
        let codec = self.codec
        let ledger = self.ledger
        let knownResults = self.knownResults
        let decoded = batch.decoded
        decoder.async {
            decoded.fulfil(
                KnownResults.$current.withValue(knownResults) { Self.decode(chunk, codec: codec, ledger: ledger) })
        }
        inFlight.append(batch)
        // Two batches decoded ahead keep both cores busy; waiting here keeps memory at three batches.
        while inFlight.count > 2 { try write(inFlight.removeFirst()) }
    }

    /// Writes one decoded batch and its `imports` row in one transaction, then counts it.
    private mutating func write(_ batch: ShapeBatch) throws {
        let decoded = batch.wait()
        // Ctrl-C stops between batches as well as inside one; what is committed stays, with its `imports` row.
        try slot.check(address: connection.address)
        var next = state
        next.offset = batch.offset
        next.line = batch.line
        next.errors += batch.readerErrors + decoded.errors
        next.tweets += decoded.tweets
        next.finished = batch.finished
        let writer = PostgresWriter(connection: connection, codec: codec, ledger: ledger)
        let saves = savesState
        let collection = self.collection
        let snapshot = next
        let added = try connection.transaction {
            let added = try writer.write(decoded.rows, collection: collection)
            if saves { try snapshot.save(connection) }
            return added
        }
        state = next
        newTweets += added
        skipped += decoded.skipped
        notTweets.merge(decoded.notTweets) { $0 + $1 }
        // The reader's problems and the decoder's, in line order, up to the report's limit.
        let found = (batch.readerProblems + decoded.problems).sorted { $0.line < $1.line }
        problems += found.prefix(max(0, TweetStore.reportedProblems - problems.count))
        progress?(
            ImportProgress(
                bytesRead: batch.position, totalBytes: UInt64(state.size), lines: state.line, tweets: state.tweets,
                errors: state.errors))
    }

    /// Decodes one batch's records (as the SQLite store does, `DecodedRecords`) and builds its rows.
    private static func decode(
        _ records: [(line: Int, data: Data)], codec: OriginalsCodec, ledger: PostgresImportLedger
    ) -> DecodedShapeBatch {
        let decoded = DecodedRecords.decode(records.lazy.map { ($0.line, $0.data) }) { data in
            try CollectionLineDecoder.decode(line: data, keepOriginals: true)
        }
        var result = DecodedShapeBatch()
        result.rows = PostgresBatchRows(decoded.pages, codec: codec, ledger: ledger)
        result.tweets = decoded.tweets
        result.skipped = decoded.skipped
        result.notTweets = decoded.notTweets
        result.errors = decoded.failures.count
        result.problems = decoded.failures.prefix(TweetStore.reportedProblems).map {
            ImportProblem(line: $0.line, message: $0.message, excerpt: $0.excerpt)
        }
        return result
    }
}

/// One batch's rows and what its decoding found.
private struct DecodedShapeBatch: Sendable {
    var rows = PostgresBatchRows()
    /// Result tweets in the batch's pages.
    var tweets = 0
    /// Records that decoded to nothing to store.
    var skipped = 0
    /// Records that did not decode, and the first of them.
    var errors = 0
    var problems: [ImportProblem] = []
    /// Records that are JSON but not tweets, by what they are.
    var notTweets: [String: Int] = [:]
}

/// A batch handed to the decoding queue: where the reader stood after its last record, what the reader itself found
/// wrong in it, and its rows once they are built.
private struct ShapeBatch {
    let offset: Int64
    let line: Int
    let position: UInt64
    let finished: Bool
    let readerErrors: Int
    let readerProblems: [ImportProblem]
    let decoded = DecodedLater(fallback: DecodedShapeBatch())

    func wait() -> DecodedShapeBatch { decoded.wait() }
}
