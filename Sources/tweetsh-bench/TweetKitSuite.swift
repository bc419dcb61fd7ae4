import Foundation
import TweetKit

/// The `tweetkit` suite: how fast collections decode and the demo corpus generates, in tweets per second.
///
/// `tweetsh-bench tweetkit [tweets]` (default 100,000). Decoding is most of an import's cost, so the figure to
/// watch is `decode.twarc2`; the Foundation figures beside it show what the hand-written parser buys.
enum TweetKitSuite: BenchSuite {
    static let name = "tweetkit"

    static func run(arguments: [String]) throws -> [Figure] {
        let count = arguments.first.flatMap(Int.init) ?? 100_000
        // An optional second argument keeps only the measurements whose id starts with it (for profiling one).
        let only = arguments.dropFirst().first ?? ""
        func wanted(_ id: String) -> Bool { id.hasPrefix(only) }
        var figures: [Figure] = []
        func add(_ id: String, _ value: Double, _ unit: String, _ label: String) {
            figures.append(Figure(suite: name, id: id, value: value, unit: unit, label: label))
        }

        // Generate the corpus as twarc2 JSONL lines in memory.
        let corpus = DemoCorpus(seed: 42, tweetCount: count, pageSize: 100)
        var lines: [Data] = []
        var exporter = PageExporter(format: .twarc2JSONL)
        let generation = Measure.medianNanoseconds(runs: wanted("generate") ? 3 : 1) {
            lines.removeAll(keepingCapacity: true)
            var total = 0
            for page in corpus {
                var writer = JSONWriter(capacity: 256 * 1024)
                exporter.encode(page, into: &writer)
                total += writer.count
                lines.append(writer.data)
            }
            return total
        }
        let bytes = lines.reduce(0) { $0 + $1.count }
        add("generate.twarc2", Double(count) / (generation.median / 1e9), "tweets/s", "demo corpus → twarc2 JSONL in memory")
        add("line.bytes", Double(bytes) / Double(lines.count), "bytes", "mean twarc2 line (100 tweets with includes)")

        if wanted("decode.twarc2") {
        let decode = try Measure.medianNanoseconds(runs: 5) {
            var tweets = 0
            for line in lines { tweets += try CollectionLineDecoder.decode(line: line)?.tweets.count ?? 0 }
            return tweets
        }
        add("decode.twarc2", Double(count) / (decode.median / 1e9), "tweets/s", "CollectionLineDecoder, twarc2 raw lines")
        add("decode.twarc2.mbps", Double(bytes) / (decode.median / 1e9) / 1e6, "MB/s", "same, input bytes")
        let decodeCPU = try medianCPU(runs: 5) {
            var tweets = 0
            for line in lines { tweets += try CollectionLineDecoder.decode(line: line)?.tweets.count ?? 0 }
            return tweets
        }
        add("decode.twarc2.cpu", Double(count) / (decodeCPU / 1e9), "tweets/cpu-s", "same, per second of CPU time")
        }

        if wanted("parse.tree") {
        let parseOnly = try Measure.medianNanoseconds(runs: 5) {
            var members = 0
            for line in lines { members += try JSONParser.parse(line).object?.members.count ?? 0 }
            return members
        }
        add("parse.tree", Double(count) / (parseOnly.median / 1e9), "tweets/s", "JSONParser alone (tree, no mapping)")
        }

        if wanted("parse.jsonserialization") {
        let serialization = try Measure.medianNanoseconds(runs: 3) {
            var members = 0
            for line in lines {
                members += (try JSONSerialization.jsonObject(with: line) as? [String: Any])?.count ?? 0
            }
            return members
        }
        add("parse.jsonserialization", Double(count) / (serialization.median / 1e9), "tweets/s",
            "Foundation JSONSerialization, parse only (for comparison)")
        }

        if wanted("decode.jsondecoder") {
        let decoder = JSONDecoder()
        let codable = try Measure.medianNanoseconds(runs: 3) {
            var tweets = 0
            for line in lines { tweets += try decoder.decode(CodablePage.self, from: line).data?.count ?? 0 }
            return tweets
        }
        add("decode.jsondecoder", Double(count) / (codable.median / 1e9), "tweets/s",
            "Foundation JSONDecoder into Codable mirrors of the same fields (for comparison)")
        }

        if wanted("decode.flattened") {
        var flat = PageExporter(format: .flattenedJSONL)
        var flatLines: [Data] = []
        for page in corpus.prefix(max(1, count / 100)) {
            for line in flat.encode(page).split(separator: "\n") { flatLines.append(Data(line.utf8)) }
        }
        let flatDecode = try Measure.medianNanoseconds(runs: 5) {
            var tweets = 0
            for line in flatLines { tweets += try CollectionLineDecoder.decode(line: line)?.tweets.count ?? 0 }
            return tweets
        }
        add("decode.flattened", Double(flatLines.count) / (flatDecode.median / 1e9), "tweets/s", "CollectionLineDecoder, flattened lines")
        }
        return figures
    }
}

/// Process CPU time in nanoseconds. On this shared machine other builds inflate wall time, so the suite reports
/// throughput per CPU-second beside the wall-clock figure.
private func cpuNanoseconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) * 1e9 + Double(spec.tv_nsec)
}

/// Median CPU time of `runs` runs of `body` after one warm-up.
private func medianCPU(runs: Int, _ body: () throws -> Int) rethrows -> Double {
    _ = try body()
    var samples: [Double] = []
    for _ in 0..<runs {
        let start = cpuNanoseconds()
        _ = try body()
        samples.append(cpuNanoseconds() - start)
    }
    return samples.sorted()[runs / 2]
}

/// Codable mirrors of the fields TweetKit decodes, so the JSONDecoder figure compares like with like.
private struct CodablePage: Decodable {
    struct Metrics: Decodable {
        var retweet_count: Int?, reply_count: Int?, like_count: Int?, quote_count: Int?, impression_count: Int?, bookmark_count: Int?
    }
    struct Span: Decodable { var start: Int, end: Int, tag: String?, username: String?, id: String?, url: String?, expanded_url: String?, display_url: String? }
    struct Entities: Decodable { var hashtags: [Span]?, mentions: [Span]?, urls: [Span]?, cashtags: [Span]? }
    struct Reference: Decodable { var type: String, id: String }
    struct Attachments: Decodable { var media_keys: [String]? }
    struct TweetDTO: Decodable {
        var id: String, text: String, author_id: String?, created_at: String?, lang: String?, conversation_id: String?
        var in_reply_to_user_id: String?, referenced_tweets: [Reference]?, public_metrics: Metrics?, entities: Entities?
        var attachments: Attachments?, source: String?, possibly_sensitive: Bool?
    }
    struct UserMetrics: Decodable { var followers_count: Int?, following_count: Int?, tweet_count: Int?, listed_count: Int? }
    struct UserDTO: Decodable {
        var id: String, username: String, name: String?, profile_image_url: String?, verified: Bool?, description: String?
        var location: String?, created_at: String?, protected: Bool?, url: String?, public_metrics: UserMetrics?
    }
    struct MediaDTO: Decodable { var media_key: String, type: String, url: String?, width: Int?, height: Int?, alt_text: String? }
    struct Includes: Decodable { var users: [UserDTO]?, tweets: [TweetDTO]?, media: [MediaDTO]? }
    struct Meta: Decodable { var newest_id: String?, oldest_id: String?, result_count: Int?, next_token: String? }
    var data: [TweetDTO]?
    var includes: Includes?
    var meta: Meta?
}
