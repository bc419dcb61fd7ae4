import Foundation
import TerminalTesting
import TweetKit
import XAPI
import XAPIStub

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `hydrate` suite: `hydrate` of N ids (default 100,000) by the real binary, against the loopback stub with no
/// rate limit, on a fresh store each run (median of 3, start-up included), and beside it the stub's own pace: the
/// same batches, four in flight as the shell keeps them, fetched by the API client without decoding or storing: the
/// most hydrate could do.
///
/// `tweetsh-bench hydrate [--ids N]`.
enum HydrateSuite: BenchSuite {
    static let name = "hydrate"

    static func run(arguments: [String]) throws -> [Figure] {
        var count = 100_000
        if let index = arguments.firstIndex(of: "--ids"), index + 1 < arguments.count {
            count = Int(arguments[index + 1]) ?? count
        }
        let stub = try StubServer(configuration: StubServer.Configuration(rateLimit: 100_000_000))
        defer { stub.stop() }
        stub.lookupWorld.answersAnyID = true
        let ids = (0..<count).map { TweetID(1_460_000_000_000_000_000 + UInt64($0) * 13) }
        let home = TemporaryDirectory(prefix: "tweetsh-bench-hydrate")
        let file = home.file("ids.txt")
        try ids.map { "\($0)\n" }.joined().write(toFile: file, atomically: true, encoding: .utf8)

        let stubOnly = try fetchOnly(ids, stub: stub)
        let executable = builtProductsDirectory() + "/tweetsh"
        let environment = [
            "HOME": home.path, "XDG_STATE_HOME": home.file("state"), "XDG_CONFIG_HOME": home.file("config"),
            "XDG_DATA_HOME": home.file("data"), "PATH": "/usr/bin:/bin", "NO_COLOR": "1",
            "TWEETSH_API_BASE": stub.baseURL.absoluteString, "X_BEARER_TOKEN": StubServer.defaultBearerToken,
        ]
        var samples: [Double] = []
        var rss = 0
        for run in 0..<3 {
            let store = home.file("store-\(run).sqlite")
            let start = DispatchTime.now().uptimeNanoseconds
            let process = try BackgroundProcess(
                executable, arguments: ["--store", store, "-c", "hydrate \(file) --into bench"],
                environment: environment, directory: home.path)
            var peak = 0
            while process.isRunning {
                peak = max(peak, Measure.currentRSSBytes(of: process.pid))
                usleep(50_000)
            }
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
            guard process.waitForExit(timeout: 600) == 0 else { throw HydrateBenchError("hydrate run \(run) failed") }
            samples.append(elapsed)
            rss = max(rss, peak)
        }
        samples.sort()
        let median = samples[samples.count / 2]
        return [
            Figure(
                suite: name, id: "hydrate", value: Double(count) / (median / 1e9), unit: "tweets/s",
                label:
                    "tweetsh -c 'hydrate' of \(count) ids, batches of 100, four in flight, fresh store, median of 3 "
                    + "(\((median / 1e9).formatted(.number.precision(.fractionLength(2)))) s, start-up included)"),
            Figure(
                suite: name, id: "stub-only", value: Double(count) / (stubOnly / 1e9), unit: "tweets/s",
                label:
                    "the same batches, four in flight, fetched by XAPIClient without decoding or storing: the stub's pace"
            ),
            Figure(
                suite: name, id: "hydrate-rss", value: Double(rss) / 1_048_576, unit: "MB",
                label: "peak resident memory of the hydrating shell, sampled every 50 ms"),
        ]
    }

    /// Nanoseconds to fetch every batch once, sequentially, keeping only the byte count.
    private static func fetchOnly(_ ids: [TweetID], stub: StubServer) throws -> Double {
        let client = XAPIClient(
            configuration: .init(settings: XAPISettings(baseURL: stub.baseURL)),
            token: BearerToken(StubServer.defaultBearerToken))
        let batches = stride(from: 0, to: ids.count, by: 100).map { Array(ids[$0..<min($0 + 100, ids.count)]) }
        let semaphore = DispatchSemaphore(value: 0)
        let result = HydrateFetchBox()
        let start = DispatchTime.now().uptimeNanoseconds
        Task {
            do {
                // Four at a time, as the shell's hydrate keeps them in flight.
                result.bytes = try await withThrowingTaskGroup(of: Int.self) { group in
                    var next = 0
                    var bytes = 0
                    func launch() {
                        guard next < batches.count else { return }
                        let query =
                            [URLQueryItem(name: "ids", value: batches[next].map(\.description).joined(separator: ","))]
                            + fieldItems
                        next += 1
                        group.addTask {
                            try await client.get("/2/tweets", endpoint: "GET /2/tweets", query: query).count
                        }
                    }
                    for _ in 0..<4 { launch() }
                    while let count = try await group.next() {
                        bytes += count
                        launch()
                    }
                    return bytes
                }
            } catch {
                result.error = error
            }
            semaphore.signal()
        }
        semaphore.wait()
        if let error = result.error { throw error }
        return Double(DispatchTime.now().uptimeNanoseconds - start)
    }

    private static var fieldItems: [URLQueryItem] {
        [
            URLQueryItem(name: "tweet.fields", value: XAPIFields.tweet.joined(separator: ",")),
            URLQueryItem(name: "expansions", value: XAPIFields.expansions.joined(separator: ",")),
            URLQueryItem(name: "user.fields", value: XAPIFields.user.joined(separator: ",")),
        ]
    }
}

private final class HydrateFetchBox: @unchecked Sendable {
    var bytes = 0
    var error: (any Error)?
}

/// A benchmark that could not run.
struct HydrateBenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
