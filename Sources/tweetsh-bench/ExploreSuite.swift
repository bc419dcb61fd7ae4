import Foundation
import TweetKit
import TweetStore

/// The `explore` suite: `count` by day of a common word (at least 100k matches) and of a rare one, `top hashtags`
/// over the common word's matches, and `stats` over the whole store, on the store suite's generated corpus; beside
/// each, the `jq … | sort | uniq -c` pipeline a user runs over the JSONL today, and the ratio.
///
/// Usage: `tweetsh-bench explore [tweets] [--dir PATH] [--no-jq]` (default 1,000,000 tweets; with `--dir` the JSONL
/// and the store are kept, and a later run of the same size reuses them instead of importing again: the JSONL is the
/// store suite's, shared through `BenchCorpusFolder`; `--no-jq` skips the pipelines, which take minutes each). Each workload also reports the process's CPU time, which a loaded machine
/// inflates far less than the wall time.
enum ExploreSuite: BenchSuite {
    static let name = "explore"

    static func run(arguments: [String]) throws -> [Figure] {
        let setUp = try BenchCorpusFolder(
            arguments: arguments, suite: name, flags: ["--no-jq"], usage: "explore [tweets] [--dir PATH] [--no-jq]")
        let withJQ = !setUp.flags.contains("--no-jq")
        return try setUp.withFolder { try StoreSuite.blocking { try await measure(setUp, withJQ: withJQ) } }
    }

    static func measure(_ setUp: BenchCorpusFolder, withJQ: Bool) async throws -> [Figure] {
        var figures: [Figure] = []
        func add(_ id: String, _ value: Double, _ unit: String, _ label: String) {
            figures.append(Figure(suite: name, id: id, value: value, unit: unit, label: label))
        }
        let jsonl = setUp.jsonl
        let database = setUp.folder.appendingPathComponent("explore-\(setUp.count).sqlite")
        try setUp.writeJSONLIfMissing()
        let fresh = !FileManager.default.fileExists(atPath: database.path)
        let opening = DispatchTime.now().uptimeNanoseconds
        let store = try TweetStore(location: .file(database.path))
        if fresh {
            let start = DispatchTime.now().uptimeNanoseconds
            let cpuStart = StoreSuite.cpuSeconds()
            let report = try await store.importJSONL(at: jsonl)
            let importSeconds = StoreSuite.seconds(since: start)
            add(
                "import-rate", Double(report.tweets) / importSeconds, "tweets/s",
                "import \(report.tweets) tweets into a new store")
            add("import-cpu", StoreSuite.cpuSeconds() - cpuStart, "cpu-s", "the same, CPU time")
            try await store.optimize()
            add("import", StoreSuite.seconds(since: start), "s", "import and optimize \(report.tweets) tweets")
        } else {
            // An older store's schema steps run here.
            add("open", StoreSuite.seconds(since: opening), "s", "open the kept store (with any schema step it needs)")
        }
        let tweets = try await store.statistics().tweets
        let jq = withJQ && FileManager.default.isExecutableFile(atPath: "/usr/bin/jq")
        if withJQ && !jq { add("jq-missing", 0, "", "/usr/bin/jq is not installed: the ratios are skipped") }

        // The first common word (not a stop word) with at least 100k matches; the first rare word that matches at all.
        var common: (word: String, matches: Int)?
        let stop = StopWords.list(for: "en")
        for word in DemoCorpus.commonWords(language: "en") where !stop.contains(word) {
            let series = try await countByDay(store, word)
            if series.total >= 100_000 || tweets < 200_000 {
                common = (word, series.total)
                break
            }
        }
        guard let common else { throw StoreSuiteError(message: "no English word has 100k matches") }
        var rare = DemoCorpus.rareWords[0]
        for word in DemoCorpus.rareWords where try await countByDay(store, word).total > 0 {
            rare = word
            break
        }
        for (id, word) in [("common", common.word), ("rare", rare)] {
            var matched = 0
            let (times, cpu) = try await timedRuns(20) { matched = try await countByDay(store, word).total }
            add("count-day-\(id)-cpu-p50", StoreSuite.percentile(cpu, 0.5), "cpu-ms", "the same, CPU time, p50")
            let p50 = StoreSuite.percentile(times, 0.5)
            add("count-day-\(id)-p50", p50, "ms", "count \(word) --by day (\(matched) matches), 20 runs")
            add("count-day-\(id)-p99", StoreSuite.percentile(times, 0.99), "ms", "the same, p99")
            if jq {
                try compare(
                    "jq -r '.data[] | select(.text | test(\"\\\\b\(word)\\\\b\"; \"i\")) | .created_at[0:10]' "
                        + "\(jsonl.path) | sort | uniq -c",
                    with: p50, id: "count-day-\(id)", what: "jq select(text) | .created_at[0:10] | sort | uniq -c",
                    add: add)
            }
        }

        var topRows = 0
        let query = try SearchQuery(parsing: common.word)
        let (topTimes, topCPU) = try await timedRuns(5) {
            topRows = try await store.topList(
                .hashtags, query: query, request: SearchRequest(query: common.word), limit: 10
            )
            .rows.count
        }
        add("top-hashtags-cpu", StoreSuite.percentile(topCPU, 0.5), "cpu-ms", "the same, CPU time, p50")
        let top = StoreSuite.percentile(topTimes, 0.5)
        add(
            "top-hashtags", top, "ms",
            "top hashtags \(common.word) (\(common.matches) matches, \(topRows) rows), p50 of 5")
        if jq {
            try compare(
                "jq -r '.data[] | select(.text | test(\"\\\\b\(common.word)\\\\b\"; \"i\")) | .entities.hashtags[]?.tag "
                    + "| ascii_downcase' \(jsonl.path) | sort | uniq -c | sort -rn | head -10",
                with: top, id: "top-hashtags", what: "jq select(text) | hashtags | sort | uniq -c | sort -rn | head",
                add: add)
        }

        var covered = 0
        let (statsTimes, statsCPU) = try await timedRuns(3) {
            covered = try await store.overview(collection: nil).tweets
        }
        add("stats-cpu", StoreSuite.percentile(statsCPU, 0.5), "cpu-ms", "the same, CPU time, p50")
        let stats = StoreSuite.percentile(statsTimes, 0.5)
        add("stats", stats, "ms", "stats over the whole store (\(covered) tweets), p50 of 3")
        if jq {
            // One of the several passes a jq user makes for an overview: the languages alone.
            let pipeline = "jq -r '.data[] | .lang' \(jsonl.path) | sort | uniq -c | sort -rn"
            let shell = try pipelineMilliseconds(pipeline)
            add("jq-stats-langs", shell, "ms", "jq .lang | sort | uniq -c (languages only, one part of stats)")
            add("ratio-stats", shell / stats, "x", "that one jq pass over the whole of stats")
        }
        return figures
    }

    /// Runs `body` once to warm up, then `runs` times; returns each timed run's wall and CPU milliseconds.
    static func timedRuns(
        _ runs: Int, _ body: () async throws -> Void
    ) async throws -> (wall: [Double], cpu: [Double]) {
        try await body()
        var wall: [Double] = []
        var cpu: [Double] = []
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            let cpuStart = StoreSuite.cpuSeconds()
            try await body()
            wall.append(StoreSuite.milliseconds(since: start))
            cpu.append((StoreSuite.cpuSeconds() - cpuStart) * 1000)
        }
        return (wall, cpu)
    }

    /// Times the shell `pipeline` once and adds it as `jq-<id>`, with its ratio to tweetsh's `milliseconds`.
    static func compare(
        _ pipeline: String, with milliseconds: Double, id: String, what: String,
        add: (String, Double, String, String) -> Void
    ) throws {
        let shell = try pipelineMilliseconds(pipeline)
        add("jq-\(id)", shell, "ms", what)
        add("ratio-\(id)", shell / milliseconds, "x", "the jq pipeline's time over tweetsh's")
    }

    static func countByDay(_ store: TweetStore, _ word: String) async throws -> CountSeries {
        try await store.countByTime(
            try SearchQuery(parsing: word), request: SearchRequest(query: word), granularity: .day)
    }

    /// Wall time of a shell pipeline, its output read through a pipe (so no tool takes a shortcut for /dev/null).
    static func pipelineMilliseconds(_ pipeline: String) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", pipeline]
        let output = Pipe()
        process.standardOutput = output
        let start = DispatchTime.now().uptimeNanoseconds
        try process.run()
        _ = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw StoreSuiteError(message: "the pipeline failed (\(process.terminationStatus)): \(pipeline)")
        }
        return StoreSuite.milliseconds(since: start)
    }
}
