import Foundation
import TweetKit
import TweetStore

/// The `store` suite: generate a twarc2 JSONL collection, import it, then time a mix of searches beside `grep -c`.
///
/// Usage: `tweetsh-bench store [tweets] [--dir PATH] [--keep]` (default 1,000,000 tweets in a temporary folder).
enum StoreSuite: BenchSuite {
    static let name = "store"

    static func run(arguments: [String]) throws -> [Figure] {
        var count = 1_000_000
        var folder = FileManager.default.temporaryDirectory.appendingPathComponent("tweetsh-bench-store-\(getpid())")
        var keep = false
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--keep" { keep = true }
            else if argument == "--dir", let path = rest.popFirst() { folder = URL(fileURLWithPath: path); keep = true }
            else if let n = Int(argument.replacingOccurrences(of: "_", with: "")) { count = n }
            else { throw StoreSuiteError(message: "unknown argument \(argument); usage: store [tweets] [--dir PATH] [--keep]") }
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { if !keep { try? FileManager.default.removeItem(at: folder) } }
        let size = count
        let target = folder
        return try blocking { try await measure(count: size, folder: target) }
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

    static func measure(count: Int, folder: URL) async throws -> [Figure] {
        var figures: [Figure] = []
        func add(_ id: String, _ value: Double, _ unit: String, _ label: String) {
            figures.append(Figure(suite: name, id: id, value: value, unit: unit, label: label))
        }
        let jsonl = folder.appendingPathComponent("corpus.jsonl")
        let database = folder.appendingPathComponent("tweets.sqlite")
        var corpus = BenchCorpus(seed: 2026)
        if FileManager.default.fileExists(atPath: jsonl.path) {
            corpus.tweetsWritten = count
        } else {
            let start = DispatchTime.now().uptimeNanoseconds
            try corpus.write(tweets: count, to: jsonl)
            add("generate", seconds(since: start), "s", "write \(count) tweets as twarc2 JSONL")
        }
        let jsonlBytes = (try FileManager.default.attributesOfItem(atPath: jsonl.path)[.size] as? NSNumber)?.doubleValue ?? 0
        add("jsonl-bytes-per-tweet", jsonlBytes / Double(count), "B", "size of the JSONL per tweet")

        try measureParts(jsonl: jsonl, folder: folder, add: add)

        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database.path + suffix) }
        let rssBefore = Measure.currentRSSBytes()
        let store = try TweetStore(location: .file(database.path))
        let start = DispatchTime.now().uptimeNanoseconds
        let importCPU = cpuSeconds()
        let report = try await store.importJSONL(at: jsonl)
        let importSeconds = seconds(since: start)
        add("import-rate", Double(report.tweets) / importSeconds, "tweets/s", "import \(report.tweets) tweets (\(report.errorCount) bad lines)")
        add("import-cpu", cpuSeconds() - importCPU, "cpu-s", "CPU time of the import (decoding and writing overlap on two cores)")
        add("import-peak-rss", Double(Measure.peakRSSBytes()) / 1_048_576, "MiB",
            "peak RSS of the process (RSS before import \(rssBefore / 1_048_576) MiB)")
        let optimizeStart = DispatchTime.now().uptimeNanoseconds
        try await store.optimize()
        add("optimize", seconds(since: optimizeStart), "s", "merge the FTS5 index and checkpoint the WAL")
        let stats = try await store.statistics()
        let diskBytes = ["", "-wal"].reduce(0.0) { total, suffix in
            total + ((try? FileManager.default.attributesOfItem(atPath: database.path + suffix)[.size] as? NSNumber)?.doubleValue ?? 0)
        }
        add("disk-bytes-per-tweet", diskBytes / Double(max(1, stats.tweets)), "B",
            "database file per tweet (\(stats.tweets) tweets, \(stats.includedTweets) included, \(stats.users) users)")

        var firstPage: [Double] = []
        var nextPage: [Double] = []
        for query in corpus.queryMix {
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
                add("grep-\(query.id)", try grepMilliseconds(pattern, jsonl), "ms", "grep -c -F -i '\(pattern)' over the JSONL")
            }
        }
        add("first-page-p50", percentile(firstPage, 0.5), "ms", "first page over the 20-query mix")
        add("first-page-p99", percentile(firstPage, 0.99), "ms", "first page over the 20-query mix")
        add("next-page-p50", percentile(nextPage, 0.5), "ms", "second page over the mix")
        add("next-page-p99", percentile(nextPage, 0.99), "ms", "second page over the mix")
        return figures
    }

    /// Where import time goes: decoding alone, and writing already decoded pages alone, over the first 100k tweets.
    static func measureParts(jsonl: URL, folder: URL, add: (String, Double, String, String) -> Void) throws {
        let handle = try FileHandle(forReadingFrom: jsonl)
        defer { try? handle.close() }
        var pages: [Page] = []
        var tweets = 0
        var pending = Data()
        let start = DispatchTime.now().uptimeNanoseconds
        let decodeCPU = cpuSeconds()
        reading: while tweets < 100_000, let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            pending.append(chunk)
            while let newline = pending.firstIndex(of: 0x0A) {
                if let page = try CollectionLineDecoder.decode(line: pending[pending.startIndex..<newline]) {
                    pages.append(page)
                    tweets += page.tweets.count
                }
                pending = pending[(newline + 1)...]
                if tweets >= 100_000 { break reading }
            }
        }
        add("decode-rate", Double(tweets) / seconds(since: start), "tweets/s", "CollectionLineDecoder alone, first \(tweets) tweets")
        add("decode-cpu-rate", Double(tweets) / (cpuSeconds() - decodeCPU), "tweets/cpu-s", "the same per CPU second")
        let path = folder.appendingPathComponent("write-only.sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try TweetStore(location: .file(path))
        let per = 50
        let batches = stride(from: 0, to: pages.count, by: per).map { Array(pages[$0..<min($0 + per, pages.count)]) }
        let writeStart = DispatchTime.now().uptimeNanoseconds
        let writeCPU = cpuSeconds()
        try blocking { for batch in batches { try await store.insert(batch) } }
        add("write-rate", Double(tweets) / seconds(since: writeStart), "tweets/s", "TweetStore.insert alone, same tweets")
        add("write-cpu-rate", Double(tweets) / (cpuSeconds() - writeCPU), "tweets/cpu-s", "the same per CPU second (less noisy when the machine is shared)")
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
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    static func seconds(since start: UInt64) -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
    static func milliseconds(since start: UInt64) -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6 }

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

/// A deterministic stand-in collection until TweetKit's demo corpus generator lands: skewed authors and words,
/// hashtags, mentions, links, replies, retweets and quotes, several languages, written as twarc2 raw pages of 100.
struct BenchCorpus {
    struct Query {
        var id: String
        var text: String
        var grep: String?
    }

    private var rng: UInt64
    let words: [String]
    let tags: [String]
    let users: [String]
    var tweetsWritten = 0

    init(seed: UInt64) {
        rng = seed
        let common = ["the", "data", "people", "today", "new", "time", "good", "world", "work", "love", "city", "music",
                      "game", "news", "team", "open", "school", "money", "health", "climate"]
        let syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pa", "do", "gu", "fe", "ho", "ju", "ri"]
        var generated: [String] = []
        for a in syllables { for b in syllables { for c in syllables { generated.append(a + b + c) } } }
        words = common + generated  // 4,116 words; rank 0 most common
        tags = (0..<500).map { "tag\($0)" }
        users = (0..<50_000).map { "user\($0)" }
    }

    var queryMix: [Query] {
        [
            Query(id: "common1", text: words[0], grep: words[0]),
            Query(id: "common2", text: words[3], grep: words[3]),
            Query(id: "common3", text: words[10], grep: words[10]),
            Query(id: "mid1", text: words[200], grep: words[200]),
            Query(id: "mid2", text: words[900], grep: words[900]),
            Query(id: "rare1", text: words[3000], grep: words[3000]),
            Query(id: "rare2", text: words[4100], grep: words[4100]),
            Query(id: "two-words", text: "\(words[1]) \(words[2])", grep: words[1]),
            Query(id: "phrase", text: "\"\(words[0]) \(words[1])\"", grep: "\(words[0]) \(words[1])"),
            Query(id: "rare-phrase", text: "\"\(words[300]) \(words[301])\"", grep: "\(words[300]) \(words[301])"),
            Query(id: "from-active", text: "from:\(users[0])", grep: "\"username\":\"\(users[0])\""),
            Query(id: "from-quiet", text: "from:\(users[40_000])", grep: "\"username\":\"\(users[40_000])\""),
            Query(id: "tag-common", text: "#\(tags[0])", grep: "#\(tags[0])"),
            Query(id: "tag-rare", text: "#\(tags[480])", grep: "#\(tags[480])"),
            Query(id: "or", text: "\(words[3000]) OR \(words[3001])", grep: words[3000]),
            Query(id: "negation", text: "\(words[5]) -\(words[0])", grep: words[5]),
            Query(id: "lang", text: "lang:ja", grep: "\"lang\":\"ja\""),
            Query(id: "word-lang", text: "\(words[4]) lang:es", grep: words[4]),
            Query(id: "mention", text: "@\(users[3])", grep: "@\(users[3])"),
            Query(id: "reply-word", text: "\(words[2]) is:reply -is:retweet", grep: words[2]),
        ]
    }

    private mutating func next() -> UInt64 {
        rng &+= 0x9E37_79B9_7F4A_7C15
        var z = rng
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    /// Skewed pick: low indexes much more likely, like word frequencies and user activity.
    private mutating func skewed(_ count: Int, _ power: Double) -> Int { min(count - 1, Int(pow(unit(), power) * Double(count))) }
    private mutating func chance(_ p: Double) -> Bool { unit() < p }

    mutating func write(tweets: Int, to url: URL) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw StoreSuiteError(message: "cannot create \(url.path)")
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var buffer = ""
        buffer.reserveCapacity(1 << 20)
        let startMs: UInt64 = 1_672_531_200_000  // 2023-01-01
        let langs = ["en", "en", "en", "en", "en", "en", "es", "pt", "ja", "fr", "de", "und"]
        var recent: [(id: UInt64, author: Int)] = []
        var written = 0
        while written < tweets {
            let n = min(100, tweets - written)
            var page: [String] = []
            var authors = Set<Int>()
            for i in 0..<n {
                let index = written + i
                let ms = startMs + UInt64(index) * 20_000 + (next() % 10_000)
                let id = (ms - 1_288_834_974_657) << 22 | (next() & 0x3FFFFF)
                let author = skewed(users.count, 3.0)
                authors.insert(author)
                page.append(tweetJSON(id: id, ms: ms, author: author, lang: langs[Int(next() % UInt64(langs.count))], recent: recent))
                recent.append((id, author))
                if recent.count > 50 { recent.removeFirst() }
            }
            written += n
            let usersJSON = authors.sorted().map { "{\"id\":\"\($0 + 1)\",\"username\":\"\(users[$0])\",\"name\":\"User \($0)\"}" }
            buffer += "{\"data\":[" + page.reversed().joined(separator: ",") + "],\"includes\":{\"users\":["
                + usersJSON.joined(separator: ",") + "]},\"meta\":{\"result_count\":\(n)},"
                + "\"__twarc\":{\"url\":\"https://api.twitter.com/2/tweets/search/all\",\"version\":\"2.2.0\"}}\n"
            if buffer.utf8.count > 1 << 20 {
                handle.write(Data(buffer.utf8))
                buffer.removeAll(keepingCapacity: true)
            }
        }
        handle.write(Data(buffer.utf8))
        tweetsWritten = written
    }

    private mutating func tweetJSON(id: UInt64, ms: UInt64, author: Int, lang: String, recent: [(id: UInt64, author: Int)]) -> String {
        var text = ""
        var offset = 0
        var hashtags: [String] = []
        var mentions: [String] = []
        var urls: [String] = []
        func append(_ piece: String) {
            if !text.isEmpty { text += " "; offset += 1 }
            text += piece
            offset += piece.unicodeScalars.count
        }
        var references = ""
        var replyTo = ""
        var conversation = id
        let kind = unit()
        if kind < 0.10, let original = recent.randomElement() {
            append("RT @\(users[original.author]):")
            mentions.append("{\"start\":3,\"end\":\(4 + users[original.author].count),\"username\":\"\(users[original.author])\",\"id\":\"\(original.author + 1)\"}")
            references = ",\"referenced_tweets\":[{\"type\":\"retweeted\",\"id\":\"\(original.id)\"}]"
        } else if kind < 0.22, let parent = recent.last {
            replyTo = ",\"in_reply_to_user_id\":\"\(parent.author + 1)\""
            references = ",\"referenced_tweets\":[{\"type\":\"replied_to\",\"id\":\"\(parent.id)\"}]"
            conversation = parent.id
        } else if kind < 0.27, let quoted = recent.first {
            references = ",\"referenced_tweets\":[{\"type\":\"quoted\",\"id\":\"\(quoted.id)\"}]"
        }
        if chance(0.25) {
            let user = users[skewed(users.count, 3.0)]
            let start = text.isEmpty ? 0 : offset + 1
            append("@" + user)
            mentions.append("{\"start\":\(start),\"end\":\(offset),\"username\":\"\(user)\"}")
        }
        for _ in 0..<(6 + Int(next() % 16)) {
            append(lang == "ja" && chance(0.5) ? ["東京", "今日", "ありがとう", "音楽"][Int(next() % 4)] : words[skewed(words.count, 2.2)])
        }
        if chance(0.05) { append("🚀") }
        if chance(0.3) {
            let tag = tags[skewed(tags.count, 2.5)]
            let start = offset + 1
            append("#" + tag)
            hashtags.append("{\"start\":\(start),\"end\":\(offset),\"tag\":\"\(tag)\"}")
        }
        if chance(0.15) {
            let short = "https://t.co/\(String(next() % 1_000_000_000, radix: 36))"
            let start = offset + 1
            append(short)
            urls.append("{\"start\":\(start),\"end\":\(offset),\"url\":\"\(short)\",\"expanded_url\":\"https://example.com/\(words[skewed(words.count, 2)])\",\"display_url\":\"example.com/…\"}")
        }
        var entities: [String] = []
        if !hashtags.isEmpty { entities.append("\"hashtags\":[" + hashtags.joined(separator: ",") + "]") }
        if !mentions.isEmpty { entities.append("\"mentions\":[" + mentions.joined(separator: ",") + "]") }
        if !urls.isEmpty { entities.append("\"urls\":[" + urls.joined(separator: ",") + "]") }
        let likes = skewed(5_000, 4.0)
        return "{\"id\":\"\(id)\",\"text\":\"\(text)\",\"author_id\":\"\(author + 1)\",\"created_at\":\"\(Self.iso8601(ms))\","
            + "\"lang\":\"\(lang)\",\"conversation_id\":\"\(conversation)\"\(replyTo)\(references),"
            + "\"public_metrics\":{\"retweet_count\":\(likes / 7),\"reply_count\":\(likes / 20),\"like_count\":\(likes),\"quote_count\":\(likes / 50)}"
            + (entities.isEmpty ? "" : ",\"entities\":{" + entities.joined(separator: ",") + "}")
            + ",\"edit_history_tweet_ids\":[\"\(id)\"]}"
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` without a formatter: a million of these through Foundation would dominate the run.
    static func iso8601(_ ms: UInt64) -> String {
        let days = Int(ms / 86_400_000)
        let msOfDay = Int(ms % 86_400_000)
        let z = days + 719_468
        let era = z / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let millis = msOfDay % 1000
        let millisText = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(year)-\(two(month))-\(two(day))T\(two(msOfDay / 3_600_000)):\(two(msOfDay / 60_000 % 60)):"
            + "\(two(msOfDay / 1000 % 60)).\(millisText)Z"
    }
}
