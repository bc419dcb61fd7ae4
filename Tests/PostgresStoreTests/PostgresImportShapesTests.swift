import Foundation
import PostgresTesting
import TerminalTesting
import Testing
import TweetKit
import TweetStore

@testable import PostgresStore

/// Every input shape the SQLite store imports gives the same report and the same stored tweets on PostgreSQL:
/// compressed JSON Lines (gzip, bzip2, xz, zstd), pretty-printed documents, arrays, an X account archive's folder,
/// and standard input through the shell. The compressed files are made with Debian's gzip, bzip2, xz and zstd.
@Suite("Import shapes on PostgreSQL", .enabled(if: PostgresFixtures.available, "PostgreSQL is not available"))
struct PostgresImportShapesTests {
    enum Shape: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case gzip, bzip2, xz, zstd, prettyDocument, array, archiveFolder, zippedArchive
        var testDescription: String { rawValue }
    }

    /// The corpus as twarc2 lines, with one malformed line among them.
    static func lines(_ folder: TemporaryDirectory) throws -> [String] {
        let (file, _) = try PostgresStoreTests.corpusFile(tweets: 120, seed: 45)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        var lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
        lines.insert("{\"data\": [ not json", at: 1)
        return lines
    }

    /// Runs a compressor from Debian (gzip, bzip2, xz-utils, zstd) on a file, replacing it.
    static func tool(_ name: String, _ arguments: [String]) throws {
        let run = try ProcessRun.run(
            "/usr/bin/" + name, arguments: arguments, environment: ["PATH": "/usr/bin:/bin"], input: "")
        #expect(run.status == 0, "\(name): \(run.standardError)")
    }

    /// The input file of `shape` in `folder`.
    static func input(_ shape: Shape, _ folder: TemporaryDirectory) throws -> URL {
        switch shape {
        case .gzip, .bzip2, .xz, .zstd:
            let plain = folder.file("tweets.jsonl")
            try Self.lines(folder).joined(separator: "\n").write(toFile: plain, atomically: true, encoding: .utf8)
            let (tool, suffix) = [
                Shape.gzip: ("gzip", "gz"), .bzip2: ("bzip2", "bz2"), .xz: ("xz", "xz"), .zstd: ("zstd", "zst"),
            ][shape]!
            try Self.tool(tool, tool == "zstd" ? ["-q", "--rm", plain] : [plain])
            return URL(fileURLWithPath: plain + "." + suffix)
        case .prettyDocument, .array:
            let values = try Self.lines(folder).dropFirst(2).map { line -> String in
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
                let pretty = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted])
                return String(decoding: pretty, as: UTF8.self)
            }
            let text =
                shape == .array ? "[\n" + values.joined(separator: ",\n") + "\n]\n" : values.joined(separator: "\n")
            let path = folder.file("tweets.json")
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return URL(fileURLWithPath: path)
        case .zippedArchive:
            // The folder's files in the ZIP X sends, named as the folder is, so the collection is named the same.
            let unzipped = try input(.archiveFolder, folder)
            var writer = ZipWriter()
            for name in ["account.js", "tweets.js"] {
                writer.add(
                    "archive-2024/data/\(name)", try Data(contentsOf: unzipped.appendingPathComponent("data/\(name)")))
            }
            let zip = URL(fileURLWithPath: folder.file("zipped/archive-2024.zip"))
            try FileManager.default.createDirectory(
                at: zip.deletingLastPathComponent(), withIntermediateDirectories: true)
            try writer.finish().write(to: zip)
            return zip
        case .archiveFolder:
            let root = folder.file("archive-2024")
            try FileManager.default.createDirectory(atPath: root + "/data", withIntermediateDirectories: true)
            try """
            window.YTD.account.part0 = [{"account":{"accountId":"9","username":"owner","accountDisplayName":"O",
            "createdAt":"2009-03-01T10:00:00.000Z"}}]
            """.write(toFile: root + "/data/account.js", atomically: true, encoding: .utf8)
            let entries = (1...30).map { index -> String in
                let reply =
                    index % 3 == 0
                    ? "\"in_reply_to_status_id_str\":\"\(index - 1)\",\"in_reply_to_user_id_str\":\"5\","
                        + "\"in_reply_to_screen_name\":\"alice\"," : ""
                return """
                    {"tweet":{"id_str":"\(index)","id":"\(index)",\(reply)"full_text":"archive entry \(index)",
                    "created_at":"Fri Jul 12 23:40:\(10 + index) +0000 2019","favorite_count":"\(index)",
                    "retweet_count":"0","entities":{"hashtags":[{"text":"tag\(index % 4)"}],"symbols":[],"urls":[],
                    "user_mentions":[]},"lang":"en"}}
                    """
            }
            try
                ("window.YTD.tweets.part0 = [ "
                + (entries + ["{\"tweet\":{\"full_text\":\"no id\"}}"])
                .joined(separator: ",\n") + " ]").write(
                    toFile: root + "/data/tweets.js", atomically: true, encoding: .utf8)
            return URL(fileURLWithPath: root)
        }
    }

    @Test(arguments: Shape.allCases)
    func everyShapeImportsTheSameOnBothStores(shape: Shape) async throws {
        let folder = TemporaryDirectory(prefix: "tweetsh-pg-shapes")
        let input = try Self.input(shape, folder)
        var reports: [ImportReport] = []
        var stored: [[TweetID]] = []
        var collections: [[String]] = []
        for kind in StoreKind.allCases {
            let store = try kind.make(in: folder)
            defer { store.close() }
            let report =
                switch shape {
                case .archiveFolder, .zippedArchive:
                    try await store.importArchive(at: input, collection: nil, progress: nil)
                default:
                    try await store.importJSON(from: .file(input), collection: nil, progress: nil)
                }
            reports.append(report)
            stored.append(try await BothStoresTests.allIDs(store, SearchRequest(query: "-zzzzqq", pageSize: 100)))
            collections.append(try await store.collections().filter { !$0.hidden }.map { "\($0.name) \($0.tweets)" })
            if shape == .archiveFolder || shape == .zippedArchive {
                #expect(collections.last == ["archive-2024 30"], "\(kind): named after the folder or the ZIP")
                let replies = try await BothStoresTests.allIDs(store, SearchRequest(query: "to:alice", pageSize: 100))
                #expect(replies.count == 10, "\(kind): to:handle finds the archive's replies")
                // The summary's "new": every tweet the first time, none when the same archive comes again.
                #expect(report.newTweets == report.tweets, "\(kind)")
                let again = try await store.importArchive(at: input, collection: nil, progress: nil)
                #expect(again.newTweets == 0 && again.tweets == report.tweets, "\(kind): \(again.newTweets) new")
            }
        }
        let (sqlite, postgres) = (reports[0], reports[1])
        #expect(sqlite.tweets > 0)
        #expect(postgres.tweets == sqlite.tweets)
        #expect(postgres.lines == sqlite.lines)
        #expect(postgres.errorCount == sqlite.errorCount)
        #expect(postgres.problems.map(\.line) == sqlite.problems.map(\.line))
        #expect(postgres.framing == sqlite.framing && postgres.compression == sqlite.compression)
        #expect(postgres.entries == sqlite.entries && postgres.warnings == sqlite.warnings)
        #expect(postgres.newTweets == sqlite.newTweets)
        #expect(stored[1] == stored[0])
        #expect(collections[1] == collections[0])
        if [.gzip, .bzip2, .xz, .zstd].contains(shape) {
            #expect(sqlite.errorCount == 1 && sqlite.compression.count == 1)
        }
    }

    @Test func standardInputImportsTheSameOnBothStores() throws {
        let folder = TemporaryDirectory(prefix: "tweetsh-pg-stdin")
        let text = try Self.lines(folder).joined(separator: "\n") + "\n"
        var outputs: [ProcessRun] = []
        for kind in StoreKind.allCases {
            let home = PostgresShellTests.Home()
            let store = kind == .sqlite ? home.folder.file("tweets.sqlite") : try PostgresTestServer.makeDatabase()
            let run = try ProcessRun.run(
                builtProductsDirectory() + "/tweetsh",
                arguments: ["--store", store, "-c", "import -; collections; search -lang:zz --in stdin"],
                environment: home.environment, input: text)
            outputs.append(run)
        }
        let (sqlite, postgres) = (outputs[0], outputs[1])
        #expect(postgres.standardOutput.contains("stdin"), Comment(rawValue: postgres.standardError))
        #expect(!postgres.standardError.contains("not available"), Comment(rawValue: postgres.standardError))
        // The SQLite store lists its demo corpus too (which widens the list's columns); the rest is the same.
        func stdinLines(_ run: ProcessRun) -> [String] {
            run.standardOutput.split(separator: "\n").filter { !$0.contains("demo") }
                .map { $0.split(separator: " ").joined(separator: " ") }
        }
        #expect(stdinLines(postgres) == stdinLines(sqlite))
        #expect(postgres.standardError.contains("1 malformed line skipped"), Comment(rawValue: postgres.standardError))
    }

    @Test func anInterruptedCompressedImportResumesAfterItsLastCommittedRecord() async throws {
        let folder = TemporaryDirectory(prefix: "tweetsh-pg-resume")
        let input = try Self.input(.gzip, folder)
        let lines = try Self.lines(folder)
        let (store, url) = try PostgresFixtures.store()
        defer { store.close() }
        let whole = try await store.importJSON(from: .file(input), collection: nil, progress: nil)
        // As a run killed after committing the first three lines leaves it: their decoded bytes, line and counts.
        let committed = 3
        let offset = lines.prefix(committed).reduce(0) { $0 + $1.utf8.count + 1 }
        let tweets = lines.prefix(committed).compactMap { try? CollectionLineDecoder.decode(line: Data($0.utf8)) }
            .reduce(0) { $0 + $1.tweets.count }
        let admin = try PGConnection(conninfo: url)
        try admin.execute(
            "UPDATE imports SET \"offset\" = $1, line = $2, tweets = $3, errors = 1, finished = false",
            [.integer(Int64(offset)), .integer(Int64(committed)), .integer(Int64(tweets))])
        try admin.execute("DELETE FROM tweets")
        let resumed = try await store.importJSON(from: .file(input), collection: nil, progress: nil)
        #expect(resumed.resumedAfterLine == committed)
        #expect(resumed.tweets == whole.tweets && resumed.lines == whole.lines && resumed.errorCount == 1)
        #expect(resumed.tweetsThisRun == whole.tweets - tweets)
        // Only the records after the committed ones were read again.
        #expect(try store.counts().tweets == whole.tweets - tweets)
    }
    /// A compressed file of three batches, with a malformed line in each, imports through the pipelined path with the
    /// same report as the SQLite store's, and each commit's progress follows the one before.
    @Test func aCompressedImportOfSeveralBatchesKeepsItsCountsAndProblemsInOrder() async throws {
        let folder = TemporaryDirectory(prefix: "tweetsh-pg-batches")
        let count = PostgresStore.shapeBatchRecords * 2 + 700
        let bad: Set<Int> = [3, PostgresStore.shapeBatchRecords + 17, count - 5]
        let lines = (0..<count).map { index -> String in
            if bad.contains(index) { return "{\"id\": \"broken \(index)" }
            let id = 1_800_000_000_000_000_000 + index
            return #"{"id":"\#(id)","text":"pipelined record \#(index)","author_id":"42","#
                + #""created_at":"2024-05-01T00:00:00.000Z","edit_history_tweet_ids":["\#(id)"]}"#
        }
        let plain = folder.file("batches.jsonl")
        try (lines.joined(separator: "\n") + "\n").write(toFile: plain, atomically: true, encoding: .utf8)
        try Self.tool("zstd", ["-q", "--rm", plain])
        let input = URL(fileURLWithPath: plain + ".zst")
        var reports: [ImportReport] = []
        let progress = ProgressLog()
        for kind in StoreKind.allCases {
            let store = try kind.make(in: folder)
            defer { store.close() }
            let heard: (@Sendable (ImportProgress) -> Void)? =
                kind == .postgresql ? { @Sendable report in progress.append(report) } : nil
            reports.append(try await store.importJSON(from: .file(input), collection: nil, progress: heard))
            let stored = try await store.collections().filter { !$0.hidden }.reduce(0) { $0 + $1.tweets }
            #expect(stored == count - bad.count, "\(kind)")
        }
        let (sqlite, postgres) = (reports[0], reports[1])
        #expect(postgres.tweets == count - bad.count && postgres.tweets == sqlite.tweets)
        #expect(postgres.lines == count && postgres.lines == sqlite.lines)
        #expect(postgres.errorCount == bad.count && postgres.errorCount == sqlite.errorCount)
        #expect(postgres.problems.map(\.line) == bad.sorted().map { $0 + 1 })
        #expect(postgres.newTweets == count - bad.count)
        // One report per committed batch, each further on than the one before, the last at the end of the file.
        let seen = progress.reports
        #expect(seen.count == 3)
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.lines < $1.lines && $0.tweets < $1.tweets })
        #expect(seen.last?.lines == count && seen.last?.tweets == count - bad.count)
        #expect(seen.map(\.errors) == [1, 2, 3])
    }
}

/// Progress reports as an import sends them, from whichever thread.
private final class ProgressLog: @unchecked Sendable {
    /// Unchecked: `stored` is read and written under `lock`.
    private let lock = NSLock()
    private var stored: [ImportProgress] = []

    func append(_ progress: ImportProgress) { lock.withLock { stored.append(progress) } }

    var reports: [ImportProgress] { lock.withLock { stored } }
}
