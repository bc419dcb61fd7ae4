import Foundation
import PostgresStore
import PostgresTesting
import TweetKit
import TweetStore

/// The `pg` suite: the same generated twarc2 JSONL imported into an SQLite store and a PostgreSQL store in one run,
/// then the `store` suite's 20-query mix on both (first page p50/p99), the mix from 8 concurrent clients (p99 per
/// client), and disk per tweet.
///
/// Usage: `tweetsh-bench pg [tweets] [--url postgresql://…]` (default 1,000,000 tweets). Without `--url` (or
/// `TWEETSH_TEST_PG_URL`) it starts a throwaway cluster from the installed PostgreSQL binaries, as the tests do; a
/// fresh database is made on it either way.
enum PostgresSuite: BenchSuite {
    static let name = "pg"

    static func run(arguments: [String]) throws -> [Figure] {
        var count = 1_000_000
        var rest = arguments[...]
        var environment = ProcessInfo.processInfo.environment
        while let argument = rest.popFirst() {
            if argument == "--url", let url = rest.popFirst() {
                environment[PostgresTestServer.environmentVariable] = url
                setenv(PostgresTestServer.environmentVariable, url, 1)
            } else if let n = Int(argument.replacingOccurrences(of: "_", with: "")) {
                count = n
            } else {
                throw StoreSuiteError(message: "unknown argument \(argument); usage: pg [tweets] [--url URL]")
            }
        }
        if let reason = PostgresTestServer.unavailableReason {
            throw StoreSuiteError(message: "no PostgreSQL server: \(reason)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tweetsh-bench-pg-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let size = count
        return try StoreSuite.blocking { try await measure(count: size, folder: folder) }
    }

    static func measure(count: Int, folder: URL) async throws -> [Figure] {
        var figures: [Figure] = []
        func add(_ id: String, _ value: Double, _ unit: String, _ label: String) {
            figures.append(Figure(suite: name, id: id, value: value, unit: unit, label: label))
        }
        let corpus = DemoCorpus(seed: 2026, tweetCount: count)
        let jsonl = folder.appendingPathComponent("corpus.jsonl")
        guard FileManager.default.createFile(atPath: jsonl.path, contents: nil) else {
            throw StoreSuiteError(message: "cannot create \(jsonl.path)")
        }
        let handle = try FileHandle(forWritingTo: jsonl)
        try corpus.writeTwarc2JSONL(to: handle)
        try handle.close()

        let sqlitePath = folder.appendingPathComponent("tweets.sqlite").path
        let sqlite = try TweetStore(location: .file(sqlitePath))
        var start = DispatchTime.now().uptimeNanoseconds
        let sqliteReport = try await sqlite.importJSONL(at: jsonl)
        add(
            "sqlite-import-rate", Double(sqliteReport.tweets) / StoreSuite.seconds(since: start), "tweets/s",
            "SQLite: import \(sqliteReport.tweets) tweets")
        try await sqlite.optimize()

        let url = try PostgresTestServer.makeDatabase()
        let postgres = try PostgresStore(address: url)
        start = DispatchTime.now().uptimeNanoseconds
        let postgresReport = try await postgres.importJSONL(at: jsonl)
        add(
            "pg-import-rate", Double(postgresReport.tweets) / StoreSuite.seconds(since: start), "tweets/s",
            "PostgreSQL: import \(postgresReport.tweets) tweets (COPY and upsert, GIN index kept during the load)")
        let connection = try PGConnection(conninfo: url)
        try connection.execute("VACUUM ANALYZE", doing: "analyzing")

        let stored = max(1, try postgres.counts().tweets)
        let sqliteBytes = ["", "-wal"].reduce(0.0) { total, suffix in
            total
                + ((try? FileManager.default.attributesOfItem(atPath: sqlitePath + suffix)[.size] as? NSNumber)?
                    .doubleValue ?? 0)
        }
        add("sqlite-disk-bytes-per-tweet", sqliteBytes / Double(stored), "B", "SQLite: database file per tweet")
        let postgresBytes = Double(try connection.scalar("SELECT pg_database_size(current_database())") ?? 0)
        add(
            "pg-disk-bytes-per-tweet", postgresBytes / Double(stored), "B",
            "PostgreSQL: pg_database_size per tweet (tables, indexes, TOAST)")

        let mix = StoreQuery.mix(corpus).map(\.text)
        let stores: [(String, any CollectionStore)] = [("sqlite", sqlite), ("pg", postgres)]
        for (label, store) in stores {
            var firsts: [Double] = []
            for query in mix {
                for run in 0..<11 {
                    let t0 = DispatchTime.now().uptimeNanoseconds
                    _ = try await store.search(SearchRequest(query: query), cursor: nil)
                    if run > 0 { firsts.append(StoreSuite.milliseconds(since: t0)) }
                }
            }
            add("\(label)-first-page-p50", StoreSuite.percentile(firsts, 0.5), "ms", "first page over the 20-query mix")
            add(
                "\(label)-first-page-p99", StoreSuite.percentile(firsts, 0.99), "ms", "first page over the 20-query mix"
            )
        }

        // 8 clients at once, each with its own store (its own connection or SQLite handle), each running the mix 3 times.
        for label in ["sqlite", "pg"] {
            let clients = try (0..<8).map { _ -> any CollectionStore in
                label == "pg"
                    ? try PostgresStore(address: url, migrate: false) : try TweetStore(location: .file(sqlitePath))
            }
            let perClient = try await withThrowingTaskGroup(of: Double.self) { group in
                for client in clients {
                    group.addTask {
                        var samples: [Double] = []
                        for _ in 0..<3 {
                            for query in mix {
                                let t0 = DispatchTime.now().uptimeNanoseconds
                                _ = try await client.search(SearchRequest(query: query), cursor: nil)
                                samples.append(StoreSuite.milliseconds(since: t0))
                            }
                        }
                        return StoreSuite.percentile(samples, 0.99)
                    }
                }
                var all: [Double] = []
                for try await p99 in group { all.append(p99) }
                return all
            }
            for client in clients { client.close() }
            add(
                "\(label)-8-clients-p99-worst", perClient.max() ?? 0, "ms",
                "first page p99 of the slowest of 8 concurrent clients")
            add(
                "\(label)-8-clients-p99-median", StoreSuite.percentile(perClient, 0.5), "ms",
                "median over the 8 clients of their first page p99")
        }
        sqlite.close()
        postgres.close()
        return figures
    }
}
