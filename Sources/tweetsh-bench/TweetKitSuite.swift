import Foundation
import TweetKit

/// The `tweetkit` suite: how fast collections decode and the demo corpus generates, in tweets per second.
///
/// `tweetsh-bench tweetkit [tweets] [id-prefix]` (default 100,000 tweets, every measurement). Decoding is most of
/// an import's cost, so the figure to watch is `decode.twarc2`; the Foundation figures beside it show what the
/// hand-written decoder buys.
enum TweetKitSuite: BenchSuite {
    static let name = "tweetkit"

    static func run(arguments: [String]) throws -> [Figure] {
        let count = arguments.first.flatMap(Int.init) ?? 100_000
        // An optional second argument keeps only the measurements whose id starts with it (for profiling one).
        let only = arguments.dropFirst().first ?? ""
        var figures: [Figure] = []

        /// Times `body` (which handles `tweets` tweets) by wall clock and by CPU time; the machine is shared,
        /// so the CPU figure is the steadier one.
        func measure(_ id: String, tweets: Int, runs: Int = 5, _ label: String, _ body: () throws -> Int) rethrows {
            guard id.hasPrefix(only) else { return }
            let wall = try Measure.medianNanoseconds(runs: runs, body).median
            let cpu = try medianCPU(runs: runs, body)
            figures.append(
                Figure(suite: name, id: id, value: Double(tweets) / (wall / 1e9), unit: "tweets/s", label: label))
            figures.append(
                Figure(
                    suite: name, id: id + ".cpu", value: Double(tweets) / (cpu / 1e9), unit: "tweets/cpu-s",
                    label: "same, per second of CPU time"))
        }

        let corpus = DemoCorpus(seed: 42, tweetCount: count, pageSize: 100)
        var lines: [Data] = []
        var exporter = PageExporter(format: .twarc2JSONL)
        func generate() -> Int {
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
        _ = generate()
        measure("generate.twarc2", tweets: count, runs: 3, "demo corpus → twarc2 JSONL in memory", generate)
        let bytes = lines.reduce(0) { $0 + $1.count }
        figures.append(
            Figure(
                suite: name, id: "line.bytes", value: Double(bytes) / Double(lines.count), unit: "bytes",
                label: "mean twarc2 line (100 tweets with includes)"))

        try measure("decode.twarc2", tweets: count, "CollectionLineDecoder, twarc2 raw lines") {
            var tweets = 0
            for line in lines { tweets += try CollectionLineDecoder.decode(line: line)?.tweets.count ?? 0 }
            return tweets
        }
        try measure("parse.tree", tweets: count, "JSONParser alone: the general tree, no mapping") {
            var members = 0
            for line in lines { members += try JSONParser.parse(line).object?.members.count ?? 0 }
            return members
        }
        try measure("parse.jsonserialization", tweets: count, runs: 3, "Foundation JSONSerialization, parse only") {
            var members = 0
            for line in lines {
                members += (try JSONSerialization.jsonObject(with: line) as? [String: Any])?.count ?? 0
            }
            return members
        }
        let decoder = JSONDecoder()
        try measure(
            "decode.jsondecoder", tweets: count, runs: 3,
            "Foundation JSONDecoder into Codable mirrors of the same fields"
        ) {
            var tweets = 0
            for line in lines { tweets += try decoder.decode(CodablePage.self, from: line).data?.count ?? 0 }
            return tweets
        }

        var flat = PageExporter(format: .flattenedJSONL)
        var flatLines: [Data] = []
        if "decode.flattened".hasPrefix(only) {
            for page in corpus.prefix(max(1, count / 1000)) {
                for line in flat.encode(page).split(separator: "\n") { flatLines.append(Data(line.utf8)) }
            }
        }
        try measure("decode.flattened", tweets: flatLines.count, "CollectionLineDecoder, flattened lines") {
            var tweets = 0
            for line in flatLines { tweets += try CollectionLineDecoder.decode(line: line)?.tweets.count ?? 0 }
            return tweets
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

/// Codable mirrors of the fields TweetKit decodes, so the JSONDecoder figure compares like with like. The API's
/// snake_case keys are spelled out in `CodingKeys` rather than converted by the decoder, whose key conversion would add
/// work to the figure that TweetKit's decoder does not do.
private struct CodablePage: Decodable {
    struct Metrics: Decodable {
        var retweetCount: Int?, replyCount: Int?, likeCount: Int?, quoteCount: Int?, impressionCount: Int?
        var bookmarkCount: Int?
        enum CodingKeys: String, CodingKey {
            case retweetCount = "retweet_count"
            case replyCount = "reply_count"
            case likeCount = "like_count"
            case quoteCount = "quote_count"
            case impressionCount = "impression_count"
            case bookmarkCount = "bookmark_count"
        }
    }
    struct Span: Decodable {
        var start: Int, end: Int, tag: String?, username: String?, id: String?, url: String?, expandedURL: String?
        var displayURL: String?
        enum CodingKeys: String, CodingKey {
            case start, end, tag, username, id, url
            case expandedURL = "expanded_url"
            case displayURL = "display_url"
        }
    }
    struct Entities: Decodable { var hashtags: [Span]?, mentions: [Span]?, urls: [Span]?, cashtags: [Span]? }
    struct Reference: Decodable { var type: String, id: String }
    struct Attachments: Decodable {
        var mediaKeys: [String]?
        enum CodingKeys: String, CodingKey { case mediaKeys = "media_keys" }
    }
    struct TweetDTO: Decodable {
        var id: String, text: String, authorID: String?, createdAt: String?, lang: String?, conversationID: String?
        var inReplyToUserID: String?, referencedTweets: [Reference]?, publicMetrics: Metrics?, entities: Entities?
        var attachments: Attachments?, source: String?, possiblySensitive: Bool?
        enum CodingKeys: String, CodingKey {
            case id, text
            case authorID = "author_id"
            case createdAt = "created_at"
            case lang
            case conversationID = "conversation_id"
            case inReplyToUserID = "in_reply_to_user_id"
            case referencedTweets = "referenced_tweets"
            case publicMetrics = "public_metrics"
            case entities, attachments, source
            case possiblySensitive = "possibly_sensitive"
        }
    }
    struct UserMetrics: Decodable {
        var followersCount: Int?, followingCount: Int?, tweetCount: Int?, listedCount: Int?
        enum CodingKeys: String, CodingKey {
            case followersCount = "followers_count"
            case followingCount = "following_count"
            case tweetCount = "tweet_count"
            case listedCount = "listed_count"
        }
    }
    struct UserDTO: Decodable {
        var id: String, username: String, name: String?, profileImageURL: String?, verified: Bool?
        var description: String?
        var location: String?, createdAt: String?, protected: Bool?, url: String?, publicMetrics: UserMetrics?
        enum CodingKeys: String, CodingKey {
            case id, username, name
            case profileImageURL = "profile_image_url"
            case verified, description, location
            case createdAt = "created_at"
            case protected, url
            case publicMetrics = "public_metrics"
        }
    }
    struct MediaDTO: Decodable {
        var mediaKey: String, type: String, url: String?, width: Int?, height: Int?, altText: String?
        enum CodingKeys: String, CodingKey {
            case mediaKey = "media_key"
            case type, url, width, height
            case altText = "alt_text"
        }
    }
    struct Includes: Decodable { var users: [UserDTO]?, tweets: [TweetDTO]?, media: [MediaDTO]? }
    struct Meta: Decodable {
        var newestID: String?, oldestID: String?, resultCount: Int?, nextToken: String?
        enum CodingKeys: String, CodingKey {
            case newestID = "newest_id"
            case oldestID = "oldest_id"
            case resultCount = "result_count"
            case nextToken = "next_token"
        }
    }
    var data: [TweetDTO]?
    var includes: Includes?
    var meta: Meta?
}
