import Foundation
import TerminalTesting
import TweetKit
import XAPIStub
import XCTest

/// `hydrate`, `dehydrate` and `rules` in the real binary against the loopback stub: on a pseudo-terminal, piped, and
/// killed with SIGKILL in the middle of a hydration.
final class HydrateSessionTests: XCTestCase {
    var stub: StubServer!

    override func setUpWithError() throws {
        stub = try StubServer()
        stub.lookupWorld.answersAnyID = true
    }

    override func tearDown() {
        stub.stop()
    }

    private var api: [String: String] {
        ["TWEETSH_API_BASE": stub.baseURL.absoluteString, "X_BEARER_TOKEN": StubServer.defaultBearerToken]
    }

    private static func ids(_ count: Int) -> [TweetID] {
        (0..<count).map { TweetID(1_470_000_000_000_000_000 + UInt64($0) * 11) }
    }

    /// Ids of every lookup the stub answered, leaving out requests the client hung up on.
    private var answeredIDs: [String] {
        // A request asked again is equal to the one abandoned: only one of them is left out.
        var abandoned = stub.abandonedRequests
        return stub.requests(path: "/2/tweets").filter { request in
            guard let index = abandoned.firstIndex(of: request) else { return true }
            abandoned.remove(at: index)
            return false
        }.flatMap { ($0.query["ids"] ?? "").split(separator: ",").map(String.init) }
    }

    private func wait(_ what: String, timeout: Double = 20, until condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline { return XCTFail("timed out waiting for \(what)") }
            usleep(20_000)
        }
    }

    func testHydrateOnATerminalThenSearchFindsTheTweets() throws {
        let tweetsh = Tweetsh()
        let ids = Self.ids(250)
        stub.lookupWorld.setMissing([ids[3]], reason: .deleted)
        stub.lookupWorld.setMissing([ids[4]], reason: .suspended)
        let lines = ids.map { "https://x.com/someone/status/\($0)" } + ["# a comment", "", "not-an-id"]
        try lines.joined(separator: "\n").write(
            toFile: tweetsh.home.file("links.txt"), atomically: true, encoding: .utf8)

        let terminal = try tweetsh.terminal(environment: api)
        try terminal.waitForPrompt("(x, key)> ")
        terminal.type("hydrate \(tweetsh.home.file("links.txt")) --into saved\r")
        try terminal.waitFor("links.txt:253: the line 'not-an-id' is not a tweet id or status URL")
        try terminal.waitFor("248 hydrated, 2 missing (1 deleted, 1 suspended) into collection 'saved'")
        try terminal.waitForPrompt("> ")
        // The shell searches X (it has a key); `--in` names a local collection, so the search goes to the store, as
        // the hydrate summary's hint says.
        let searchesBefore = stub.requests(path: "/2/tweets/search/recent").count
        terminal.type("search --in saved \"hydrated tweet \(ids[200])\"\r")
        try terminal.waitFor("hydrated tweet \(ids[200])")
        try terminal.waitForPrompt("> ")
        XCTAssertEqual(stub.requests(path: "/2/tweets/search/recent").count, searchesBefore, "X was not asked")
        terminal.type("search --source x --in saved hydrated\r")
        try terminal.waitFor("--in names a collection of the local store, which --source x does not search")
        try terminal.waitForPrompt("> ")
        terminal.type("quit\r")
        XCTAssertEqual(exitCode(try terminal.waitForExit()), 0)

        let report = try String(contentsOfFile: tweetsh.home.file("saved.missing.csv"), encoding: .utf8)
        XCTAssertTrue(report.hasPrefix("id,reason,detail\n\(ids[3]),deleted,"), report)
        XCTAssertTrue(report.contains("\(ids[4]),suspended,\"User has been suspended"), report)
        XCTAssertEqual(answeredIDs.count, 250)
    }

    /// The missing-ids report is named after the collection, beside the id file; a `/` in the name would have put it
    /// in another folder (`--into ../x` outside the id file's), so it becomes `_`, as does a leading `.`.
    func testTheMissingReportStaysBesideTheIdFile() throws {
        let tweetsh = Tweetsh()
        let ids = Self.ids(5)
        stub.lookupWorld.setMissing([ids[1]], reason: .deleted)
        let folder = tweetsh.home.file("lists")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try ids.map(\.description).joined(separator: "\n").write(
            toFile: folder + "/ids.txt", atomically: true, encoding: .utf8)
        let run = try tweetsh.run(["-c", "hydrate \(folder)/ids.txt --into ../up"], environment: api)
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertTrue(
            run.standardError.contains("missing ids and reasons: \(folder)/_._up.missing.csv"), run.standardError)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/_._up.missing.csv"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: tweetsh.home.file("up.missing.csv")))
    }

    func testKillNineMidwayThenResumeAsksNoAnsweredIdTwice() throws {
        let tweetsh = Tweetsh()
        let ids = Self.ids(1_050)
        let file = tweetsh.home.file("dataset.txt")
        try ids.map(\.description).joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        // The fourth lookup to arrive is held. Four batches are in flight at once, counted from the oldest without an
        // answer, so while batch k is held the shell sends batches up to k + 3 and stops: k + 4 lookups, all but the
        // held one committed.
        stub.lookupWorld.hold(after: 3, seconds: 60)
        let store = tweetsh.home.file("store.sqlite")
        let process = try BackgroundProcess(
            Tweetsh.executable, arguments: ["--store", store, "-c", "hydrate \(file)"],
            environment: tweetsh.environment(api), directory: tweetsh.home.path)
        var held = 0
        wait("the window of four to fill behind the held lookup", timeout: 60) {
            let lookups = stub.requests(path: "/2/tweets")
            guard let first = stub.lookupWorld.heldIDs?.split(separator: ",").first,
                let index = ids.firstIndex(where: { $0.description == first })
            else { return false }
            held = index / 100
            let committed = try? StoreInspection(path: store).query("SELECT count(*) FROM hydrated_ids")
            return lookups.count == held + 4 && committed?.first == "\((held + 3) * 100)"
        }
        XCTAssertEqual(stub.requests(path: "/2/tweets").count, held + 4, "no lookup beyond the window of four")
        process.send(SIGKILL)
        XCTAssertNotNil(process.waitForExit(timeout: 10))
        wait("the stub to see the client hang up") { stub.abandonedRequests.count == 1 }

        let run = try tweetsh.run(["--store", store, "-c", "hydrate \(file)"], environment: api)
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertTrue(
            run.standardOutput.contains(
                "1050 hydrated, 0 missing into collection 'dataset' (resumed: \((held + 3) * 100) ids answered earlier "
                    + "were not asked again)"),
            run.standardOutput)
        let asked = answeredIDs
        XCTAssertEqual(asked.count, 1_050, "every id answered once")
        XCTAssertTrue(Set(asked) == Set(ids.map(\.description)), "the answered ids are the file's ids")
        // The batch held at the kill was never answered, so it was asked again, and only it.
        let left = 1_050 - (held + 3) * 100
        XCTAssertEqual(stub.requests(path: "/2/tweets").count, held + 4 + (left + 99) / 100)
    }

    func testCSVInputAndDehydrateRoundTrip() throws {
        let tweetsh = Tweetsh()
        let ids = Self.ids(30)
        let csv =
            "id,text,author.username\n"
            + ids.map { "\($0),\"a, \"\"quoted\"\" text\",someone" }.joined(separator: "\n") + "\n"
        try csv.write(toFile: tweetsh.home.file("export.csv"), atomically: true, encoding: .utf8)
        let run = try tweetsh.run(
            ["-c", "hydrate \(tweetsh.home.file("export.csv")); dehydrate --in export"], environment: api)
        XCTAssertEqual(run.status, 0, run.standardError)
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "30 hydrated, 0 missing into collection 'export'")
        XCTAssertEqual(Array(lines.dropFirst()), ids.reversed().map(\.description), "ids only, newest first")
        XCTAssertTrue(run.standardError.contains("30 tweet ids"), run.standardError)
    }

    func testRepeatedIDsAreAskedForOnceAndCountedInGoodEnglish() throws {
        let tweetsh = Tweetsh()
        let ids = Self.ids(3).map(\.description)
        try (ids + [ids[0]]).joined(separator: "\n").write(
            toFile: tweetsh.home.file("one.txt"), atomically: true, encoding: .utf8)
        try (ids + [ids[0], ids[1], ids[1]]).joined(separator: "\n").write(
            toFile: tweetsh.home.file("three.txt"), atomically: true, encoding: .utf8)
        let one = try tweetsh.run(["-c", "hydrate \(tweetsh.home.file("one.txt"))"], environment: api)
        XCTAssertEqual(one.status, 0, one.standardError)
        XCTAssertTrue(one.standardError.contains("1 repeated id was asked for once"), one.standardError)
        XCTAssertEqual(answeredIDs.count, 3, "each id asked for once")
        let three = try tweetsh.run(["-c", "hydrate \(tweetsh.home.file("three.txt"))"], environment: api)
        XCTAssertTrue(three.standardError.contains("3 repeated ids were each asked for once"), three.standardError)
    }

    func testRulesAddListDeleteCheckAndRefusals() throws {
        let tweetsh = Tweetsh()
        stub.streamRules.cap = 2
        let script = [
            "rules add #swift lang:en --tag swift", "rules add #swift lang:en", "rules add (cats OR dogs",
            "rules check -cats", "rules add coffee", "rules add tea", "rules list", "rules delete swift", "rules list",
        ].joined(separator: "; ")
        let run = try tweetsh.run(["-c", script], environment: api)
        XCTAssertEqual(run.status, 1, "refusals make the script fail")
        let out = run.standardOutput
        let err = run.standardError
        XCTAssertTrue(out.contains("added rule 1900000000000000001: #swift lang:en [swift]"), out)
        XCTAssertTrue(err.contains("\"#swift lang:en\" is already a rule (id 1900000000000000001)"), err)
        XCTAssertTrue(err.contains("in the rule at column 24: expected ')' to close the '(' at column 11"), err)
        XCTAssertTrue(
            err.contains("X refused \"-cats\" as invalid: Rules must contain a non-negation term (at position 1)"), err)
        XCTAssertTrue(out.contains("added rule 1900000000000000002: coffee"), out)
        XCTAssertTrue(err.contains("X refused \"tea\": the account's rule cap is reached"), err)
        XCTAssertTrue(out.contains("deleted 1 rule"), out)
        XCTAssertEqual(stub.streamRules.rules.map(\.value), ["coffee"])
        // The rule our parser refused was never sent: five POSTs (two adds, the duplicate, the check, the cap) and a
        // delete; the check was a dry run.
        let posts = stub.requests(path: "/2/tweets/search/stream/rules").filter { $0.method == "POST" }
        XCTAssertEqual(posts.count, 6)
        XCTAssertFalse(posts.contains { $0.bodyText.contains("cats OR dogs") })
        XCTAssertEqual(posts.filter { $0.query["dry_run"] == "true" }.count, 1)
    }
}
