import Foundation
import TweetKit
import TweetShell
import TweetStore
import XAPI

/// The `stream-ingest` suite: how fast streamed tweets get into the store. Lines shaped like the filtered stream's
/// (tweet, author, matching rule; a heartbeat every 500 lines) go through the stream's own path: the line splitter in
/// 64 KB chunks, the line decoder, and `StreamStoreWriter`'s batches into an SQLite store on a real file.
///
/// `tweetsh-bench stream-ingest [--tweets N]` (default 200,000). The figure is sustained: from the first chunk to the
/// last batch committed, so the writer keeping up is part of it.
enum StreamIngestSuite: BenchSuite {
    static let name = "stream-ingest"

    static func run(arguments: [String]) throws -> [Figure] {
        var count = 200_000
        if let index = arguments.firstIndex(of: "--tweets"), index + 1 < arguments.count {
            count = Int(arguments[index + 1]) ?? count
        }
        let bytes = lines(count)
        let decodeCPU = cpuSeconds()
        let decode = decodeOnly(bytes)
        let decodeCPUSeconds = cpuSeconds() - decodeCPU
        let ingestCPU = cpuSeconds()
        let ingest = try ingestIntoStore(bytes, expected: count)
        let ingestCPUSeconds = cpuSeconds() - ingestCPU
        return [
            // CPU time beside wall time: on the shared machine the wall clock mostly measures the other processes.
            Figure(
                suite: name, id: "decode-cpu", value: Double(count) / decodeCPUSeconds, unit: "tweets per CPU-s",
                label: "the same, per second of this process's CPU time"),
            Figure(
                suite: name, id: "ingest-cpu", value: Double(count) / ingestCPUSeconds, unit: "tweets per CPU-s",
                label: "the same, per second of CPU time of all its threads (reader, writer task, store thread)"),
            Figure(
                suite: name, id: "decode", value: Double(count) / decode, unit: "tweets/s",
                label: "\(count) stream lines split and decoded (no store)"),
            Figure(
                suite: name, id: "ingest", value: Double(count) / ingest.seconds, unit: "tweets/s",
                label:
                    "\(count) stream lines split, decoded and committed to a store file in \(ingest.batches) batches "
                    + "(\(String(format: "%.2f", ingest.seconds)) s)"),
        ]
    }

    /// CPU time of the whole process so far, all threads.
    static func cpuSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Stream lines with varied words, so the full-text index does real work.
    static func lines(_ count: Int) -> [UInt8] {
        let words = [
            "swift", "stream", "server", "concurrency", "actor", "async", "linux", "store", "index", "query",
            "tweet", "rule", "heartbeat", "backoff", "recover", "gap", "batch", "writer", "reader", "pipe",
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        var out: [UInt8] = []
        out.reserveCapacity(count * 620)
        let base: UInt64 = 2_100_000_000_000_000_000
        for index in 0..<count {
            let id = base + UInt64(index) * 4096
            let author = 1_000 + next() % 5_000
            let text = (0..<12).map { _ in words[next() % words.count] }.joined(separator: " ") + " #swift"
            let line =
                #"{"data":{"author_id":"\#(author)","conversation_id":"\#(id)","created_at":"2026-12-01T12:00:00.000Z","#
                + #""edit_history_tweet_ids":["\#(id)"],"id":"\#(id)","lang":"en","public_metrics":{"like_count":0,"#
                + #""quote_count":0,"reply_count":0,"retweet_count":0},"text":"\#(text)"},"includes":{"users":[{"id":"#
                + #""\#(author)","name":"User \#(author)","username":"user\#(author)"}]},"matching_rules":[{"id":"#
                + #""1","tag":"swift"}]}"# + "\r\n"
            out += Array(line.utf8)
            if index % 500 == 499 { out += Array("\r\n".utf8) }
        }
        return out
    }

    /// Seconds to split and decode every line.
    static func decodeOnly(_ bytes: [UInt8]) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        var splitter = StreamLineSplitter()
        var tweets = 0
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + 65_536)
            for line in splitter.feed(bytes[offset..<end]) {
                if case .tweet? = try? StreamLineDecoder.decode(line) { tweets += 1 }
            }
            offset = end
        }
        precondition(tweets > 0)
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// Seconds from the first chunk to the last batch committed, and the batches used.
    static func ingestIntoStore(_ bytes: [UInt8], expected: Int) throws -> (seconds: Double, batches: Int) {
        let path = "/tmp/tweetsh-bench-stream-ingest-\(getpid()).sqlite"
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let store = try TweetStore(location: .file(path))
        defer { store.close() }
        let semaphore = DispatchSemaphore(value: 0)
        let result = ResultBox()
        let started = DispatchTime.now().uptimeNanoseconds
        Task.detached {
            let writer = StreamStoreWriter(store: store, collection: "stream")
            var splitter = StreamLineSplitter()
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + 65_536)
                for line in splitter.feed(bytes[offset..<end]) {
                    if case .tweet(let tweet)? = try? StreamLineDecoder.decode(line) { writer.add(tweet) }
                }
                offset = end
            }
            result.summary = await writer.finish()
            semaphore.signal()
        }
        semaphore.wait()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        guard let summary = result.summary, summary.stored == expected, summary.failure == nil else {
            throw BenchFailure(message: "stored \(result.summary?.stored ?? 0) of \(expected) tweets")
        }
        return (seconds, summary.batches)
    }

    private final class ResultBox: @unchecked Sendable {
        var summary: StreamStoreWriter.Summary?
    }

    struct BenchFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
