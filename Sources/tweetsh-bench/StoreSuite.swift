import Foundation
import TweetKit
import TweetStore

/// The `store` suite: generate a twarc2 JSONL collection with `DemoCorpus`, import it, then time a mix of searches
/// beside `grep -c` over the same file.
///
/// Usage: `tweetsh-bench store [tweets] [--dir PATH] [--keep] [--export-only | --import-only]` (default 1,000,000
/// tweets in a temporary folder; with `--dir` the JSONL is kept and reused by later runs of the same size).
/// `--export-only` skips the import and the searches and times `export --all` three times on the store an earlier run
/// left in `--dir`, so export changes can be compared side by side without waiting for an import each time.
/// `--import-only` stops after the import's figures, so import changes can be compared (or profiled) without the
/// searches and the export.
enum StoreSuite: BenchSuite {
    static let name = "store"

    static func run(arguments: [String]) throws -> [Figure] {
        var setUp = try BenchCorpusFolder(
            arguments: arguments, suite: name, flags: ["--keep", "--export-only", "--import-only"],
            usage: "store [tweets] [--dir PATH] [--keep] [--export-only | --import-only]")
        if setUp.flags.contains("--keep") { setUp.keep = true }
        let corpus = setUp
        if setUp.flags.contains("--export-only") {
            guard setUp.keep else { throw StoreSuiteError(message: "--export-only needs --dir with a store in it") }
            return try blocking { try await measureExportOnly(corpus.folder) }
        }
        let importOnly = setUp.flags.contains("--import-only")
        return try setUp.withFolder { try blocking { try await measure(corpus, importOnly: importOnly) } }
    }

    /// Runs async work from the synchronous harness.
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                box.result = .success(try await body())
            } catch {
                box.result = .failure(error)
            }
            done.signal()
        }
        done.wait()
        return try box.result!.get()
    }

    static func measure(_ setUp: BenchCorpusFolder, importOnly: Bool = false) async throws -> [Figure] {
        var figures: [Figure] = []
        func add(_ id: String, _ value: Double, _ unit: String, _ label: String) {
            figures.append(Figure(suite: name, id: id, value: value, unit: unit, label: label))
        }
        let count = setUp.count
        let folder = setUp.folder
        let jsonl = setUp.jsonl
        let database = folder.appendingPathComponent("tweets.sqlite")
        let corpus = setUp.corpus
        let generating = DispatchTime.now().uptimeNanoseconds
        if try setUp.writeJSONLIfMissing() {
            add("generate", seconds(since: generating), "s", "DemoCorpus writes \(count) tweets as twarc2 JSONL")
        }
        let jsonlBytes =
            (try FileManager.default.attributesOfItem(atPath: jsonl.path)[.size] as? NSNumber)?.doubleValue ?? 0
        add("jsonl-bytes-per-tweet", jsonlBytes / Double(count), "B", "size of the JSONL per tweet")

        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database.path + suffix) }
        let rssBefore = Measure.currentRSSBytes()
        let store = try TweetStore(location: .file(database.path))
        let start = DispatchTime.now().uptimeNanoseconds
        let importCPU = cpuSeconds()
        let report = try await store.importJSONL(at: jsonl)
        let importSeconds = seconds(since: start)
        add(
            "import-rate", Double(report.tweets) / importSeconds, "tweets/s",
            "import \(report.tweets) tweets (\(report.errorCount) bad lines)")
        add(
            "import-cpu", cpuSeconds() - importCPU, "cpu-s",
            "CPU time of the import (decoding and writing overlap on two cores)")
        add(
            "import-peak-rss", Double(Measure.peakRSSBytes()) / 1_048_576, "MiB",
            "peak RSS of the process (RSS before import \(rssBefore / 1_048_576) MiB)")
        if importOnly { return figures }
        let optimizeStart = DispatchTime.now().uptimeNanoseconds
        try await store.optimize()
        add("optimize", seconds(since: optimizeStart), "s", "merge the FTS5 index and checkpoint the WAL")
        let stats = try await store.statistics()
        let diskBytes = ["", "-wal"].reduce(0.0) { total, suffix in
            total
                + ((try? FileManager.default.attributesOfItem(atPath: database.path + suffix)[.size] as? NSNumber)?
                    .doubleValue ?? 0)
        }
        add(
            "disk-bytes-per-tweet", diskBytes / Double(max(1, stats.tweets)), "B",
            "database file per tweet (\(stats.tweets) tweets, \(stats.includedTweets) included, \(stats.users) users)")

        var firstPage: [Double] = []
        var nextPage: [Double] = []
        for query in StoreQuery.mix(corpus) {
            var firsts: [Double] = []
            var matched = 0
            for _ in 0..<11 {
                let t0 = DispatchTime.now().uptimeNanoseconds
                let page = try await store.search(SearchRequest(query: query.text), cursor: nil)
                firsts.append(milliseconds(since: t0))
                matched = page.tweets.count
                if let token = page.nextToken {
                    let t1 = DispatchTime.now().uptimeNanoseconds
                    _ = try await store.search(SearchRequest(query: query.text), cursor: token)
                    nextPage.append(milliseconds(since: t1))
                }
            }
            firsts.removeFirst()  // the first run warms the cache for this query's pages
            firstPage += firsts
            add("q-\(query.id)", percentile(firsts, 0.5), "ms", "first page of `\(query.text)` (\(matched) on it)")
            if let pattern = query.grep {
                add(
                    "grep-\(query.id)", try grepMilliseconds(pattern, jsonl), "ms",
                    "grep -c -F -i '\(pattern)' over the JSONL")
            }
        }
        add("first-page-p50", percentile(firstPage, 0.5), "ms", "first page over the 20-query mix")
        add("first-page-p99", percentile(firstPage, 0.99), "ms", "first page over the 20-query mix")
        add("next-page-p50", percentile(nextPage, 0.5), "ms", "second page over the mix")
        add("next-page-p99", percentile(nextPage, 0.99), "ms", "second page over the mix")
        try await measureExport(store: store, folder: folder, add: add)
        // Last, because it holds 100k decoded tweets in memory and would spoil the import's peak RSS.
        try measureParts(jsonl: jsonl, folder: folder, add: add)
        return figures
    }

    /// Three `export --all` runs over the store a kept folder holds, numbered in their figures' ids.
    static func measureExportOnly(_ folder: URL) async throws -> [Figure] {
        let database = folder.appendingPathComponent("tweets.sqlite")
        guard FileManager.default.fileExists(atPath: database.path) else {
            throw StoreSuiteError(message: "no store at \(database.path): run the suite with --dir first")
        }
        let store = try TweetStore(location: .file(database.path))
        var figures: [Figure] = []
        for run in 1...3 {
            try await measureExport(store: store, folder: folder) { id, value, unit, label in
                figures.append(Figure(suite: name, id: "\(id)-\(run)", value: value, unit: unit, label: label))
            }
        }
        return figures
    }

    /// `export --all` of every tweet as twarc2 JSONL from the originals, with the peak RSS of the export alone.
    static func measureExport(store: TweetStore, folder: URL, add: (String, Double, String, String) -> Void)
        async throws
    {
        let sizes = try await store.originalsSize()
        add(
            "originals-bytes-per-tweet", Double(sizes.bytes) / Double(max(1, sizes.objects)), "B",
            "compressed originals per object (\(sizes.objects) tweets, users, media, places and polls)")
        let output = folder.appendingPathComponent("export.jsonl")
        guard FileManager.default.createFile(atPath: output.path, contents: nil) else {
            throw StoreSuiteError(message: "cannot create \(output.path)")
        }
        defer { try? FileManager.default.removeItem(at: output) }
        let handle = try FileHandle(forWritingTo: output)
        defer { try? handle.close() }
        // Linux resets the peak RSS (VmHWM) to the current RSS when 5 is written here, so the peak is the export's.
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        let rssBefore = Measure.currentRSSBytes()
        let writer = ExportFileWriter(
            handle: handle, format: .twarc2JSONL,
            metadata: TwarcMetadata(url: "tweetsh-bench", retrievedAt: Date(timeIntervalSince1970: 0)))
        let query = "since:2000-01-01"
        let start = DispatchTime.now().uptimeNanoseconds
        let exportCPU = cpuSeconds()
        let written = try await store.exportAll(
            try SearchQuery(parsing: query), request: SearchRequest(query: query, pageSize: 1_000), to: writer)
        try writer.finish()
        let exportSeconds = seconds(since: start)
        add(
            "export-all-rate", Double(written) / exportSeconds, "tweets/s",
            "export --all of \(written) tweets as twarc2 JSONL")
        add(
            "export-all-cpu", cpuSeconds() - exportCPU, "cpu-s",
            "CPU time of the export (reading and writing overlap on two cores)")
        add(
            "export-all-peak-rss", Double(Measure.peakRSSBytes()) / 1_048_576, "MiB",
            "peak RSS during the export (RSS before it \(rssBefore / 1_048_576) MiB)")
        let bytes =
            (try FileManager.default.attributesOfItem(atPath: output.path)[.size] as? NSNumber)?.doubleValue ?? 0
        add("export-bytes-per-tweet", bytes / Double(max(1, written)), "B", "size of the export per tweet")
    }

    /// Where import time goes: decoding alone, and writing already decoded pages alone, over the first 100k tweets.
    static func measureParts(jsonl: URL, folder: URL, add: (String, Double, String, String) -> Void) throws {
        // Only the decoder calls are timed, each on a line in its own buffer as the import's RecordReader makes them:
        // the figure is the decoder's, not the cost of reading and splitting the file.
        let handle = try FileHandle(forReadingFrom: jsonl)
        defer { try? handle.close() }
        var pages: [Page] = []
        var tweets = 0
        var buffer: [UInt8] = []
        var decodeNanoseconds: UInt64 = 0
        var decodeCPUSeconds = 0.0
        reading: while tweets < 100_000, let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            buffer += chunk
            var lineStart = 0
            while let newline = buffer[lineStart...].firstIndex(of: 0x0A) {
                let line = Data(buffer[lineStart..<newline])
                lineStart = newline + 1
                let wall = DispatchTime.now().uptimeNanoseconds
                let cpu = cpuSeconds()
                // As the import decodes: the models and the originals.
                let page = try CollectionLineDecoder.decode(line: line, keepOriginals: true)
                decodeCPUSeconds += cpuSeconds() - cpu
                decodeNanoseconds += DispatchTime.now().uptimeNanoseconds - wall
                if let page {
                    pages.append(page)
                    tweets += page.tweets.count
                }
                if tweets >= 100_000 { break reading }
            }
            buffer.removeSubrange(0..<lineStart)
        }
        add(
            "decode-rate", Double(tweets) / (Double(decodeNanoseconds) / 1e9), "tweets/s",
            "CollectionLineDecoder alone (models and originals), first \(tweets) tweets")
        add("decode-cpu-rate", Double(tweets) / decodeCPUSeconds, "tweets/cpu-s", "the same per CPU second")
        let path = folder.appendingPathComponent("write-only.sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try TweetStore(location: .file(path))
        let per = 50
        let batches = stride(from: 0, to: pages.count, by: per).map { Array(pages[$0..<min($0 + per, pages.count)]) }
        let writeStart = DispatchTime.now().uptimeNanoseconds
        let writeCPU = cpuSeconds()
        try blocking { for batch in batches { try await store.insert(batch) } }
        add(
            "write-rate", Double(tweets) / seconds(since: writeStart), "tweets/s",
            "TweetStore.insert alone, same tweets")
        add(
            "write-cpu-rate", Double(tweets) / (cpuSeconds() - writeCPU), "tweets/cpu-s",
            "the same per CPU second (less noisy when the machine is shared)")
    }

    static func grepMilliseconds(_ pattern: String, _ file: URL) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/grep")
        process.arguments = ["-c", "-F", "-i", "--", pattern, file.path]
        // A pipe, not /dev/null: GNU grep notices /dev/null output and stops at the first match.
        let output = Pipe()
        process.standardOutput = output
        let start = DispatchTime.now().uptimeNanoseconds
        try process.run()
        _ = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return milliseconds(since: start)
    }

    /// User plus system CPU time of the whole process.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(
            usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    static func seconds(since start: UInt64) -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
    static func milliseconds(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }

    static func percentile(_ samples: [Double], _ p: Double) -> Double {
        guard !samples.isEmpty else { return 0 }
        let sorted = samples.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }
}

struct StoreSuiteError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

final class ResultBox<T: Sendable>: @unchecked Sendable {
    var result: Result<T, Error>?
}

/// The 20 searches of the mix, built from the demo corpus's vocabulary, each with what a grep user would look for.
struct StoreQuery {
    var id: String
    var text: String
    var grep: String?

    static func mix(_ corpus: DemoCorpus) -> [StoreQuery] {
        let common = DemoCorpus.commonWords(language: "en")
        let spanish = DemoCorpus.commonWords(language: "es")
        let rare = DemoCorpus.rareWords
        let tags = DemoCorpus.hashtags
        let active = corpus.users[0].username
        let quiet = corpus.users[corpus.users.count - 1].username
        let mentioned = corpus.users[5].username
        return [
            StoreQuery(id: "common1", text: common[0], grep: common[0]),
            StoreQuery(id: "common2", text: common[3], grep: common[3]),
            StoreQuery(id: "common3", text: common[8], grep: common[8]),
            StoreQuery(id: "common-es", text: spanish[6], grep: spanish[6]),
            StoreQuery(id: "rare1", text: rare[0], grep: rare[0]),
            StoreQuery(id: "rare2", text: rare[5], grep: rare[5]),
            StoreQuery(id: "rare3", text: rare[12], grep: rare[12]),
            StoreQuery(id: "two-words", text: "\(common[1]) \(common[2])", grep: common[1]),
            StoreQuery(id: "phrase", text: "\"\(common[0]) \(common[1])\"", grep: "\(common[0]) \(common[1])"),
            StoreQuery(id: "rare-and-common", text: "\(rare[1]) \(common[0])", grep: rare[1]),
            StoreQuery(id: "from-active", text: "from:\(active)", grep: "\"username\":\"\(active)\""),
            StoreQuery(id: "from-quiet", text: "from:\(quiet)", grep: "\"username\":\"\(quiet)\""),
            StoreQuery(id: "tag-common", text: "#\(tags[0])", grep: "#\(tags[0])"),
            StoreQuery(id: "tag-rare", text: "#\(tags[tags.count - 1])", grep: "#\(tags[tags.count - 1])"),
            StoreQuery(id: "or", text: "\(rare[2]) OR \(rare[3])", grep: rare[2]),
            StoreQuery(id: "negation", text: "\(common[4]) -\(common[0])", grep: common[4]),
            StoreQuery(id: "lang", text: "lang:ja", grep: "\"lang\":\"ja\""),
            StoreQuery(id: "word-lang", text: "\(common[5]) lang:en", grep: common[5]),
            StoreQuery(id: "mention", text: "@\(mentioned)", grep: "@\(mentioned)"),
            StoreQuery(id: "reply-word", text: "\(common[2]) is:reply -is:retweet", grep: common[2]),
        ]
    }
}
