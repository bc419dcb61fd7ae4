import Foundation
import TerminalTesting
import XAPIStub
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// `stream` in the real binary against the stub's filtered stream on loopback: piped JSONL, --limit, --for, Ctrl-C on
/// its screen, and a flood of 2,000 tweets a second into a pseudo-terminal.
final class StreamSessionTests: XCTestCase {
    var stub: StubServer!

    override func setUpWithError() throws {
        stub = try StubServer()
    }

    override func tearDown() {
        stub.stop()
    }

    private var environment: [String: String] {
        ["TWEETSH_API_BASE": stub.baseURL.absoluteString, "X_BEARER_TOKEN": StubServer.defaultBearerToken]
    }

    private func store(_ tweetsh: Tweetsh) -> String { tweetsh.home.file("store.sqlite") }

    /// The ids the store holds in `collection`, read with sqlite3.
    private func storedIDs(_ tweetsh: Tweetsh, collection: String) throws -> [String] {
        try StoreInspection(path: store(tweetsh)).query(
            "SELECT m.tweet FROM collection_members m JOIN collections c ON c.id = m.collection "
                + "WHERE c.name = '\(collection)' ORDER BY m.tweet")
    }

    /// How many tweets `search --in collection streamed` lists.
    private func searchCount(_ tweetsh: Tweetsh, collection: String) throws -> Int {
        let run = try tweetsh.run(
            ["--store", store(tweetsh), "-c", "search --source local --in \(collection) --limit 100 streamed"],
            environment: environment)
        return run.standardOutput.split(separator: "\n").filter { $0.contains("@streamposter") }.count
    }

    func testPipedStreamWritesOneTwarc2LinePerTweetAndSearchFindsEveryOne() throws {
        stub.stream.configure(.init(tweetsPerSecond: 200))
        let tweetsh = Tweetsh()
        let run = try tweetsh.run(["--store", store(tweetsh), "-c", "stream --limit 20"], environment: environment)
        XCTAssertEqual(exitCode(run.status), 0, run.standardError)
        let lines = run.standardOutput.split(separator: "\n")
        XCTAssertEqual(lines.count, 20)
        var ids: [String] = []
        var blocks: [String: [String: String]] = [:]
        var ruleLists: [String: [[String: String]]] = [:]
        for line in lines {
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let data = try XCTUnwrap(object["data"] as? [String: Any])
            ids.append(try XCTUnwrap(data["id"] as? String))
            let rules = try XCTUnwrap(object["matching_rules"] as? [[String: Any]])
            XCTAssertEqual(rules.first?["tag"] as? String, "swift")
            let twarc = try XCTUnwrap(object["__twarc"] as? [String: Any])
            // The URL this shell streamed from (the stub), with its query, as twarc2 records what it fetched.
            let url = try XCTUnwrap(twarc["url"] as? String)
            XCTAssertTrue(
                url.hasPrefix(
                    stub.baseURL.absoluteString.trimmingCharacters(in: ["/"]) + "/2/tweets/search/stream?tweet.fields="),
                url)
            XCTAssertNotNil(twarc["retrieved_at"] as? String)
            blocks[ids.last!] = twarc.compactMapValues { $0 as? String }
            ruleLists[ids.last!] = rules.map { $0.compactMapValues { $0 as? String } }
        }
        // An export of the collection later says the same: where and when each tweet was streamed.
        let exported = tweetsh.home.file("streamed.jsonl")
        let export = try tweetsh.run(
            ["--store", store(tweetsh), "-c", "search --in stream --limit 100 streamed; export \(exported)"],
            environment: environment)
        XCTAssertEqual(export.status, 0, export.standardError)
        var checked = 0
        for line in try String(contentsOfFile: exported, encoding: .utf8).split(separator: "\n") {
            let page = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let twarc = (page["__twarc"] as? [String: Any])?.compactMapValues { $0 as? String }
            // The rules each tweet matched, as the stream's line named them (they used to be dropped by the store).
            let rules = (page["matching_rules"] as? [[String: Any]])?.map { $0.compactMapValues { $0 as? String } }
            for tweet in (page["data"] as? [[String: Any]]) ?? [] {
                XCTAssertEqual(twarc, blocks[tweet["id"] as? String ?? ""], "the stream's block, not the export's")
                XCTAssertEqual(rules, ruleLists[tweet["id"] as? String ?? ""], "the stream's matching_rules")
                checked += 1
            }
        }
        XCTAssertEqual(checked, 20)
        XCTAssertEqual(ids, stub.stream.posted.prefix(20).map(\.id.description))
        XCTAssertTrue(run.standardError.contains("20 tweets stored in the collection 'stream'"), run.standardError)
        XCTAssertEqual(try storedIDs(tweetsh, collection: "stream").sorted(), ids.sorted(), "each tweet stored once")
        XCTAssertEqual(try searchCount(tweetsh, collection: "stream"), 20, "search finds the streamed tweets")
    }

    func testForStopsAfterTheDurationIntoTheNamedCollection() throws {
        stub.stream.configure(.init(tweetsPerSecond: 20))
        let tweetsh = Tweetsh()
        let run = try tweetsh.run(
            ["--store", store(tweetsh), "-c", "stream --for 1500ms --into tide"], environment: environment)
        XCTAssertEqual(exitCode(run.status), 0, run.standardError)
        let count = run.standardOutput.split(separator: "\n").count
        XCTAssertGreaterThan(count, 0)
        XCTAssertTrue(run.standardError.contains("\(count) tweets stored in the collection 'tide'"), run.standardError)
        XCTAssertEqual(try storedIDs(tweetsh, collection: "tide").count, count)
    }

    func testADroppedConnectionIsReconnectedAndReported() throws {
        stub.stream.configure(.init(tweetsPerSecond: 50, maximumTweets: 40))
        let tweetsh = Tweetsh()
        let process = try BackgroundProcess(
            Tweetsh.executable, arguments: ["--store", store(tweetsh), "-c", "stream --limit 40"],
            environment: tweetsh.environment(environment),
            directory: tweetsh.home.path)
        // Drop the connection once the first tweets have gone out; the rest come on the next connection.
        for _ in 0..<500 where stub.stream.posted.count < 5 { usleep(10_000) }
        stub.stream.enqueue(.drop)
        XCTAssertNotNil(process.waitForExit(timeout: 30))
        XCTAssertEqual(stub.stream.connectionCount, 2, process.standardError)
        XCTAssertTrue(process.standardError.contains("disconnected: the connection dropped"), process.standardError)
        XCTAssertTrue(process.standardError.contains("1 reconnect"), process.standardError)
        let ids = process.standardOutput.split(separator: "\n").compactMap { line -> String? in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return (object?["data"] as? [String: Any])?["id"] as? String
        }
        XCTAssertEqual(ids.count, Set(ids).count, "no tweet twice")
        XCTAssertEqual(try storedIDs(tweetsh, collection: "stream").count, Set(ids).count)
    }

    func testCtrlCOnTheScreenCommitsTheLastBatchAndNamesTheCollection() throws {
        stub.stream.configure(.init(tweetsPerSecond: 30))
        let tweetsh = Tweetsh()
        let terminal = try tweetsh.terminal(["--store", store(tweetsh)], environment: environment)
        try terminal.waitForPrompt("(x, key)> ")
        terminal.type("stream --into screen1\r")
        try terminal.waitFor("connected")
        try terminal.waitFor("[swift]")
        terminal.type("\u{03}")
        let after = try terminal.waitFor("stored in the collection 'screen1'")
        try terminal.waitForPrompt("(x, key)> ")
        terminal.type("quit\r")
        XCTAssertEqual(exitCode(try terminal.waitForExit()), 0)
        let summary = try XCTUnwrap(after.components(separatedBy: "stream: ").last)
        let stored = try XCTUnwrap(Int(summary.split(separator: " ")[0]))
        XCTAssertGreaterThan(stored, 0)
        XCTAssertEqual(try storedIDs(tweetsh, collection: "screen1").count, stored)
    }

    func testRulesAddThenStreamLimit20ThenSearchFindsTheStreamedTweets() throws {
        stub.stream.configure(.init(tweetsPerSecond: 40))
        let tweetsh = Tweetsh()
        let terminal = try tweetsh.terminal(["--store", store(tweetsh)], environment: environment)
        try terminal.waitForPrompt("(x, key)> ")
        terminal.type("rules add #swift --tag lang-swift\r")
        try terminal.waitForPrompt("(x, key)> ")
        XCTAssertEqual(stub.streamRules.rules.map(\.value), ["#swift"])
        terminal.type("stream --limit 20\r")
        try terminal.waitFor("[lang-swift]")
        try terminal.waitFor("20 tweets stored in the collection 'stream'")
        try terminal.waitForPrompt("(x, key)> ")
        terminal.type("search --source local --in stream --limit 50 streamed\r")
        let listed = try terminal.waitFor("streamed tweet 1 about")
        try terminal.waitForPrompt("(x, key)> ")
        terminal.type("quit\r")
        XCTAssertEqual(exitCode(try terminal.waitForExit()), 0)
        XCTAssertTrue(listed.contains("streamed tweet 20 about"), listed)
        XCTAssertEqual(try storedIDs(tweetsh, collection: "stream").count, 20)
    }

    /// 2,000 tweets a second for 10 s into a pseudo-terminal: memory stays bounded, every tweet is stored, and the
    /// screen keeps drawing and answers a key.
    func testAFloodOf2000TweetsASecondIsStoredWholeWithBoundedMemory() throws {
        let total = 20_000
        stub.stream.configure(.init(tweetsPerSecond: 2_000, maximumTweets: total))
        let tweetsh = Tweetsh()
        let terminal = try tweetsh.terminal(["--store", store(tweetsh)], environment: environment)
        try terminal.waitForPrompt("(x, key)> ")
        terminal.type("stream --limit \(total) --into flood\r")
        try terminal.waitFor("connected")
        var samples: [Int] = []
        var frames = 0
        let deadline = Date().addingTimeInterval(120)
        var summary: String?
        while Date() < deadline {
            if let text = try? terminal.waitFor("stored in the collection 'flood'", timeout: 1) {
                summary = text
                break
            }
            frames += 1
            if let rss = Self.residentKilobytes(terminal.pid) { samples.append(rss) }
        }
        let text = try XCTUnwrap(summary, "the stream did not finish")
        let peak = samples.max() ?? 0
        print("stream flood: \(total) tweets, peak RSS \(peak / 1024) MB over \(samples.count) samples")
        XCTAssertTrue(text.contains("\(total) tweets stored"), text)
        XCTAssertTrue(terminal.output.contains("not drawn (all stored)"))
        XCTAssertLessThan(peak, 400 * 1024, "resident memory stays bounded")
        try terminal.waitForPrompt("(x, key)> ")
        terminal.type("quit\r")
        XCTAssertEqual(exitCode(try terminal.waitForExit()), 0)
        let stored = try storedIDs(tweetsh, collection: "flood")
        XCTAssertEqual(stored.count, total)
        XCTAssertEqual(Set(stored), Set(stub.stream.posted.map { String(Int64(bitPattern: $0.id.rawValue)) }))
        XCTAssertGreaterThan(frames, 0)
    }

    static func residentKilobytes(_ pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }
}
