import Foundation
import PostgresStore
import PostgresTesting
import TweetKit
import TweetStore

/// The `pg` suite: the same generated twarc2 JSONL imported into the SQLite store and into a PostgreSQL store, then
/// the store suite's 20-query mix on each, alone and from several clients at once, side by side in one run.
///
/// Usage: `tweetsh-bench pg [tweets] [--dir PATH] [--url URL] [--clients N] [--keep-database] [--import-only]
/// [--per-query]` (default 1,000,000 tweets, 8 clients). `--import-only` measures the PostgreSQL import and its disk
/// alone (no SQLite side, no query mix), so import changes can be compared, or the server profiled, run after run.
/// `--per-query` adds each query's own first-page p50 to the single-client figures, to find the query a plan change
/// slowed.
/// Without `--url` (a superuser's `postgresql://user@host:port`, no database) it uses the server that
/// `TWEETSH_TEST_PG_URL` names, or else starts a throwaway cluster as the PostgreSQL tests do. Each run imports into a
/// new database, which is dropped at the end unless `--keep-database` is given.
enum PostgresSuite: BenchSuite {
    static let name = "pg"

    /// What the command line asked for, beside the corpus's size and folder.
    struct Options {
        var corpus: BenchCorpusFolder
        var url: String?
        var clients = 8
        /// Keeps the benchmark's database on the server afterwards, to look at its plans and sizes.
        var keepDatabase = false
        /// Stops after the PostgreSQL import's figures.
        var importOnly = false
        /// Adds each query's p50 to the single-client figures.
        var perQuery = false
    }

    static let usage =
        "pg [tweets] [--dir PATH] [--url URL] [--clients N] [--keep-database] [--import-only] [--per-query]"

    static func run(arguments: [String]) throws -> [Figure] {
        var url: String?
        var clients = 8
        var corpusArguments: [String] = []
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--url":
                guard let value = rest.popFirst() else { throw usageError("--url needs a server URL") }
                url = value
            case "--clients":
                guard let text = rest.popFirst(), let n = Int(text), n > 0 else {
                    throw usageError("--clients needs N > 0")
                }
                clients = n
            default:
                corpusArguments.append(argument)
            }
        }
        let corpus = try BenchCorpusFolder(
            arguments: corpusArguments, suite: name, flags: ["--keep-database", "--import-only", "--per-query"],
            usage: usage)
        let options = Options(
            corpus: corpus, url: url, clients: clients, keepDatabase: corpus.flags.contains("--keep-database"),
            importOnly: corpus.flags.contains("--import-only"), perQuery: corpus.flags.contains("--per-query"))
        return try corpus.withFolder { try StoreSuite.blocking { try await measure(options) } }
    }

    private static func usageError(_ problem: String) -> StoreSuiteError {
        StoreSuiteError(message: "\(problem); usage: \(usage)")
    }

    static func measure(_ options: Options) async throws -> [Figure] {
        var figures: [Figure] = []
        func add(_ id: String, _ value: Double, _ unit: String, _ label: String) {
            figures.append(Figure(suite: name, id: id, value: value, unit: unit, label: label))
        }
        let corpus = options.corpus.corpus
        try options.corpus.writeJSONLIfMissing()
        let jsonl = options.corpus.jsonl
        let mix = StoreQuery.mix(corpus)
        let count = options.corpus.count
        // `firstPages` returns each query's `runs` samples in the mix's order.
        func addPerQuery(_ label: String, _ samples: [Double], runs: Int) {
            for (index, query) in mix.enumerated() {
                let own = Array(samples[(index * runs)..<min(samples.count, (index + 1) * runs)])
                add(
                    "\(label)-q-\(query.id)-p50", StoreSuite.percentile(own, 0.5), "ms",
                    "\(label): first page of \(query.id) (\(query.text))")
            }
        }

        // SQLite first, in a file of its own beside the JSONL.
        let database = options.corpus.folder.appendingPathComponent("pg-suite-side.sqlite")
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database.path + suffix) }
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database.path + suffix) }
        }
        // `--import-only` measures nothing of SQLite, so it creates no SQLite file either.
        let sqlite = options.importOnly ? nil : try TweetStore(location: .file(database.path))
        var start = DispatchTime.now().uptimeNanoseconds
        var cpu = StoreSuite.cpuSeconds()
        if let sqlite {
            let sqliteReport = try await sqlite.importJSONL(at: jsonl)
            add(
                "sqlite-import-rate", Double(sqliteReport.tweets) / StoreSuite.seconds(since: start), "tweets/s",
                "SQLite: import \(sqliteReport.tweets) tweets")
            add(
                "sqlite-import-cpu", StoreSuite.cpuSeconds() - cpu, "cpu-s",
                "SQLite: CPU of the import (all in-process)")
            try await sqlite.optimize()
            let sqliteBytes = ["", "-wal"].reduce(0.0) { total, suffix in
                total + fileSize(database.path + suffix)
            }
            add("sqlite-disk-bytes-per-tweet", sqliteBytes / Double(count), "B", "SQLite: database file per tweet")
        }

        // PostgreSQL: a new database on the chosen server.
        let server = try options.url ?? PostgresTestServer.serverURL
        let databaseName = "tweetsh_bench_\(getpid())"
        let admin = try PGConnection(conninfo: server + "/postgres")
        try admin.execute("DROP DATABASE IF EXISTS \(databaseName)")
        try admin.execute("CREATE DATABASE \(databaseName)")
        defer {
            if !options.keepDatabase {
                _ = try? admin.execute("DROP DATABASE IF EXISTS \(databaseName) WITH (FORCE)")
            }
        }
        let address = server + "/" + databaseName
        let postgres = try PostgresStore(address: address)
        let backend = try postgres.serverProcessID()
        let backendCPU = processCPUSeconds(backend)
        start = DispatchTime.now().uptimeNanoseconds
        cpu = StoreSuite.cpuSeconds()
        let pgReport = try await postgres.importJSONL(at: jsonl)
        add(
            "pg-import-rate", Double(pgReport.tweets) / StoreSuite.seconds(since: start), "tweets/s",
            "PostgreSQL: import \(pgReport.tweets) tweets (COPY into staging, one upsert per batch)")
        add("pg-import-cpu", StoreSuite.cpuSeconds() - cpu, "cpu-s", "PostgreSQL: CPU of the importing client")
        if let before = backendCPU, let after = processCPUSeconds(backend) {
            add("pg-import-server-cpu", after - before, "cpu-s", "PostgreSQL: CPU of the server process importing")
        }
        if sqlite != nil {
            // The mix once more before `VACUUM ANALYZE`, on the statistics the import's own `ANALYZE` left: what a
            // user searching right after an import gets, and whether those statistics plan as well.
            let samples = try await firstPages(postgres, mix: mix, runs: 5)
            add(
                "pg-after-import-first-page-p50", StoreSuite.percentile(samples, 0.5), "ms",
                "pg: first page, mix, right after the import (before VACUUM ANALYZE)")
            add(
                "pg-after-import-first-page-p99", StoreSuite.percentile(samples, 0.99), "ms",
                "pg: first page, mix, right after the import (before VACUUM ANALYZE)")
            if options.perQuery { addPerQuery("pg-after-import", samples, runs: 5) }
        }
        let vacuum = try PGConnection(conninfo: address)
        try vacuum.execute("VACUUM ANALYZE")
        let pgBytes = Double(try vacuum.scalar("SELECT pg_database_size(current_database())") ?? 0)
        add("pg-disk-bytes-per-tweet", pgBytes / Double(count), "B", "PostgreSQL: database size per tweet")
        guard let sqlite else {
            postgres.close()
            return figures
        }

        // One client each: the first page of every query of the mix, ten times after one warm-up.
        for (label, source) in [("sqlite", sqlite as any TweetSource), ("pg", postgres as any TweetSource)] {
            let samples = try await firstPages(source, mix: mix, runs: 10)
            add("\(label)-first-page-p50", StoreSuite.percentile(samples, 0.5), "ms", "\(label): first page, mix")
            add("\(label)-first-page-p99", StoreSuite.percentile(samples, 0.99), "ms", "\(label): first page, mix")
            if options.perQuery { addPerQuery(label, samples, runs: 10) }
        }

        // Several clients at once, each with its own store (its own connection), the mix five times each.
        let clients = options.clients
        for label in ["sqlite", "pg"] {
            var sources: [any TweetSource] = []
            for _ in 0..<clients {
                if label == "sqlite" {
                    sources.append(try TweetStore(location: .file(database.path)))
                } else {
                    sources.append(try PostgresStore(address: address, migrate: false))
                }
            }
            let started = DispatchTime.now().uptimeNanoseconds
            let perClient = try await withThrowingTaskGroup(of: [Double].self) { group in
                for source in sources {
                    group.addTask { try await firstPages(source, mix: mix, runs: 5) }
                }
                var all: [[Double]] = []
                for try await samples in group { all.append(samples) }
                return all
            }
            let wall = StoreSuite.seconds(since: started)
            let p99s = perClient.map { StoreSuite.percentile($0, 0.99) }
            let searches = perClient.reduce(0) { $0 + $1.count }
            add(
                "\(label)-\(clients)-clients-p50", StoreSuite.percentile(perClient.flatMap { $0 }, 0.5), "ms",
                "\(label): first page with \(clients) clients at once, all samples")
            add(
                "\(label)-\(clients)-clients-worst-p99", p99s.max() ?? 0, "ms",
                "\(label): the worst client's p99 with \(clients) clients")
            for (index, p99) in p99s.enumerated() {
                add("\(label)-client-\(index + 1)-p99", p99, "ms", "\(label): client \(index + 1)'s p99 of \(clients)")
            }
            add(
                "\(label)-\(clients)-clients-rate", Double(searches) / wall, "searches/s",
                "\(label): first pages per second over all \(clients) clients")
        }
        postgres.close()
        return figures
    }

    /// The first page of each query in `mix`, `runs` times after a warm-up, in milliseconds.
    static func firstPages(_ source: any TweetSource, mix: [StoreQuery], runs: Int) async throws -> [Double] {
        var samples: [Double] = []
        for query in mix {
            _ = try await source.search(SearchRequest(query: query.text), cursor: nil)
            for _ in 0..<runs {
                let t0 = DispatchTime.now().uptimeNanoseconds
                _ = try await source.search(SearchRequest(query: query.text), cursor: nil)
                samples.append(StoreSuite.milliseconds(since: t0))
            }
        }
        return samples
    }

    static func fileSize(_ path: String) -> Double {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.doubleValue ?? 0
    }

    /// User plus system CPU seconds of another process, from `/proc/<pid>/stat` (nil when it cannot be read).
    static func processCPUSeconds(_ pid: Int32) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // Fields after the command name: state is field 3, utime 14, stime 15 (clock ticks).
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
