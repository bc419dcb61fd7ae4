import Foundation
import Glibc
import TerminalTesting
import TweetKit
import XCTest

/// kill -9 in the middle of `tweetsh -c "import FILE"`, at random moments: the store must pass `PRAGMA integrity_check`,
/// show no half-written tweet (table, index and authors agree, and the committed progress record matches the tweets
/// present), and running the import again must finish with exactly the counts of an uninterrupted import.
///
/// Sized for the regular suite by default; `scripts/crash-import.sh` runs the million-tweet version. Settings come
/// from the environment: `TWEETSH_CRASH_TWEETS` (tweets in the file), `TWEETSH_CRASH_KILLS` (kill points),
/// `TWEETSH_CRASH_SEED` (reproduces the kill points), `TWEETSH_BINARY` (a release build of tweetsh to run).
final class CrashSafeImportTests: XCTestCase {
    private struct Settings {
        var tweets = 6_000
        var kills = 5
        var seed = UInt64.random(in: 1...UInt64(UInt32.max))
        var executable = Tweetsh.executable
        /// Where the kill lands: a random point in the input file (`bytes`, for big files: the importer's read position,
        /// which runs a little ahead of what is committed) or a random moment of an import's duration (`time`, for small files, which are
        /// read to the end before their first batch is committed).
        var killBy = "time"

        init() {
            let environment = ProcessInfo.processInfo.environment
            if let value = environment["TWEETSH_CRASH_TWEETS"].flatMap(Int.init), value > 0 { tweets = value }
            if let value = environment["TWEETSH_CRASH_KILLS"].flatMap(Int.init), value > 0 { kills = value }
            if let value = environment["TWEETSH_CRASH_SEED"].flatMap(UInt64.init) { seed = value }
            if let value = environment["TWEETSH_BINARY"], !value.isEmpty { executable = value }
            if let value = environment["TWEETSH_CRASH_KILL_BY"], ["bytes", "time"].contains(value) { killBy = value }
        }
    }

    /// What the generated file holds, worked out from the generator rather than from the store under test.
    private struct Expectation {
        /// Searchable tweets in the store after the first `n` lines are committed, demo corpus included (index n).
        var searchableAfterLines: [Int] = []
        var finalSearchable = 0
        var finalIncludedOnly = 0
        var finalUsers = 0
        var lines: Int { searchableAfterLines.count - 1 }
    }

    func testKillDashNineDuringImportAtRandomPoints() throws {
        let settings = Settings()
        report(
            "crash-import: \(settings.tweets) tweets, \(settings.kills) kills, seed \(settings.seed), binary \(settings.executable)"
        )
        let tweetsh = Tweetsh()
        let file = tweetsh.home.file("collection.jsonl")
        let clock = Date()
        let expectation = try writeCollection(to: file, tweets: settings.tweets)
        report("crash-import: wrote \(expectation.lines) lines in \(seconds(since: clock)) s")

        // The store the shell seeds on first run; every attempt starts from a copy of it.
        let template = tweetsh.home.file("template.sqlite")
        let seeding = try ProcessRun.run(
            settings.executable, arguments: ["--store", template, "-c", "source"],
            environment: tweetsh.environment())
        XCTAssertEqual(seeding.status, 0, seeding.standardError)

        let fileSize = (try FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.intValue ?? 0
        var random = SplitMix64(seed: settings.seed)
        let attempt = tweetsh.home.file("attempt.sqlite")
        // For kills in time, how long an import takes here and now; a miss (the import ended first) shortens it.
        var duration = 0.0
        if settings.killBy == "time" {
            try StoreInspection.copy(from: template, to: attempt)
            let started = Date()
            let full = try importRun(settings.executable, store: attempt, file: file, tweetsh: tweetsh)
            duration = Date().timeIntervalSince(started)
            XCTAssertEqual(full.status, 0, full.standardError)
            try checkFinal(StoreInspection(path: attempt), expectation, label: "uninterrupted")
            report("crash-import: uninterrupted import \(seconds(since: started)) s")
        }
        for kill in 1...settings.kills {
            let fraction = 0.03 + 0.94 * random.unit()
            var killedAfter = 0.0
            var killed = false
            for attemptIndex in 0..<4 where !killed {
                try StoreInspection.copy(from: template, to: attempt)
                let child = try BackgroundProcess(
                    settings.executable, arguments: ["--store", attempt, "-c", "import \(file)"],
                    environment: tweetsh.environment(), directory: tweetsh.home.path)
                let killStart = Date()
                if settings.killBy == "bytes" {
                    let target = Int(fraction * Double(fileSize))
                    while child.isRunning, (child.position(inOpenFile: file) ?? 0) < target { usleep(2_000) }
                } else if kill % 2 == 0 && attemptIndex == 0 {
                    // Every other kill lands just after a batch is committed, while the next one is being written,
                    // so the resume path is crossed even when a small file's batches all commit near its end. On a
                    // fast machine the last batch can commit before the kill lands; the retries then kill by time.
                    let progress = StoreInspection(path: attempt)
                    while child.isRunning, ((try? progress.query("SELECT line FROM imports;")) ?? []).isEmpty {
                        usleep(5_000)
                    }
                } else {
                    while child.isRunning, Date().timeIntervalSince(killStart) < fraction * duration { usleep(1_000) }
                }
                killed = child.isRunning
                child.send(SIGKILL)
                child.waitForExit(timeout: 30)
                killedAfter = Date().timeIntervalSince(killStart)
                if !killed { duration = killedAfter * 0.8 }
            }
            XCTAssertTrue(killed, "kill \(kill): the import always ended before the kill at \(fraction)")

            let inspection = StoreInspection(path: attempt)
            XCTAssertEqual(inspection.integrityProblems(), [], "kill \(kill): integrity")
            let counts = try inspection.counts()
            XCTAssertTrue(counts.isConsistent, "kill \(kill): half-written tweets: \(counts)")
            let progress = try inspection.imports().first
            let committedLines = progress?.line ?? 0
            XCTAssertEqual(
                counts.searchable, expectation.searchableAfterLines[min(committedLines, expectation.lines)],
                "kill \(kill): the tweets present are exactly those of the \(committedLines) committed lines")
            let checked = Date()
            let rerun = try importRun(settings.executable, store: attempt, file: file, tweetsh: tweetsh)
            let rerunSeconds = Date().timeIntervalSince(checked)
            XCTAssertEqual(rerun.status, 0, rerun.standardError)
            XCTAssertTrue(
                rerun.standardOutput.contains("imported \(settings.tweets) tweets from \(expectation.lines) lines"),
                "kill \(kill): \(rerun.standardOutput)")
            if let progress, !progress.finished, progress.line > 0 {
                XCTAssertTrue(
                    rerun.standardOutput.contains("(resumed after line \(progress.line))"),
                    "kill \(kill): \(rerun.standardOutput)")
            }
            XCTAssertFalse((rerun.standardOutput + rerun.standardError).contains("database is locked"))
            try checkFinal(inspection, expectation, label: "kill \(kill) rerun")
            report(
                "crash-import: kill \(kill) at \(Int(fraction * 100))% of the \(settings.killBy == "bytes" ? "file" : kill % 2 == 0 ? "duration (after the first commit)" : "duration"), \(String(format: "%.1f", killedAfter)) s in: "
                    + "\(committedLines) of \(expectation.lines) lines committed, \(counts); rerun \(String(format: "%.1f", rerunSeconds)) s: "
                    + (rerun.standardOutput.split(separator: "\n").last.map(String.init) ?? ""))
        }
    }

    private func importRun(_ executable: String, store: String, file: String, tweetsh: Tweetsh) throws -> ProcessRun {
        try ProcessRun.run(
            executable, arguments: ["--store", store, "-c", "import \(file)"],
            environment: tweetsh.environment(), timeout: 3600)
    }

    private func checkFinal(_ inspection: StoreInspection, _ expectation: Expectation, label: String) throws {
        XCTAssertEqual(inspection.integrityProblems(), [], "\(label): integrity")
        let counts = try inspection.counts()
        XCTAssertTrue(counts.isConsistent, "\(label): \(counts)")
        XCTAssertEqual(counts.searchable, expectation.finalSearchable, "\(label): searchable")
        XCTAssertEqual(counts.includedOnly, expectation.finalIncludedOnly, "\(label): included-only")
        XCTAssertEqual(counts.users, expectation.finalUsers, "\(label): users")
        XCTAssertEqual(try inspection.imports().map(\.finished), [true], "\(label): the import is recorded as finished")
    }

    /// Writes the collection as twarc2 JSONL, one page per line, and works out the expected counts on the way: the
    /// store also holds the first-run demo corpus, so both are counted together.
    private func writeCollection(to path: String, tweets: Int) throws -> Expectation {
        var searchable = Set<UInt64>()
        var included = Set<UInt64>()
        var users = Set<UInt64>()
        func note(_ page: Page) {
            for tweet in page.tweets { searchable.insert(tweet.id.rawValue) }
            for tweet in page.includedTweets { included.insert(tweet.id.rawValue) }
            for user in page.users { users.insert(user.id.rawValue) }
        }
        // The shell's first-run corpus (TweetshApp seeds exactly this one).
        for page in DemoCorpus.firstRun { note(page) }

        var expectation = Expectation()
        expectation.searchableAfterLines = [searchable.count]
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let writer = ExportFileWriter(
            handle: handle, format: .twarc2JSONL,
            metadata: TwarcMetadata(url: "tweetsh-crash-test", retrievedAt: Date(timeIntervalSince1970: 1_780_000_000)))
        for page in DemoCorpus(seed: 77, tweetCount: tweets) {
            try writer.write(page)
            note(page)
            expectation.searchableAfterLines.append(searchable.count)
        }
        try writer.finish()
        expectation.finalSearchable = searchable.count
        expectation.finalIncludedOnly = included.subtracting(searchable).count
        expectation.finalUsers = users.count
        return expectation
    }

    /// Progress lines for the script's log, flushed at once since a long run's output goes to a pipe.
    private func report(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    private func seconds(since date: Date) -> String { String(format: "%.1f", Date().timeIntervalSince(date)) }
}
