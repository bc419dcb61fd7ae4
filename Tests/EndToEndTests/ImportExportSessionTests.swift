import Foundation
import TerminalTesting
import XCTest

/// `import` then `export` in the real binary: the path a user takes, not the store's own API, gives back every key of
/// every imported object, in twarc2 pages and in flattened lines.
final class ImportExportSessionTests: XCTestCase {
    /// A twarc2 page with fields the models do not hold: context annotations, edit controls, a place, reply
    /// settings, withheld content, a note tweet, URL details, a poll, media variants and an author's extra fields.
    static let page = #"""
        {"data":[{"id":"1800000000000000002","text":"Shell lossless check https://t.co/abc","edit_history_tweet_ids":["1799999999999999999","1800000000000000002"],"author_id":"202","created_at":"2024-03-01T10:00:00.000Z","lang":"en","conversation_id":"1800000000000000002","reply_settings":"mentionedUsers","edit_controls":{"edits_remaining":4,"is_edit_eligible":true,"editable_until":"2024-03-01T11:00:00.000Z"},"context_annotations":[{"domain":{"id":"66","name":"Interests and Hobbies Category"},"entity":{"id":"847544972781826048","name":"Data science"}}],"geo":{"place_id":"5a110d312052166f"},"withheld":{"copyright":false,"country_codes":["DE"]},"note_tweet":{"text":"Shell lossless check, the whole long note."},"entities":{"urls":[{"start":21,"end":44,"url":"https://t.co/abc","expanded_url":"https://example.org/a","display_url":"example.org/a","unwound_url":"https://example.org/a?x=1","title":"A title","description":"A description","status":200,"images":[{"url":"https://pbs.twimg.com/i.jpg","width":100,"height":50}]}],"annotations":[{"start":0,"end":4,"probability":0.5,"type":"Other","normalized_text":"Shell"}]},"attachments":{"media_keys":["3_1800000000000000009"],"poll_ids":["1800000000000000010"]},"public_metrics":{"retweet_count":1,"reply_count":2,"like_count":3,"quote_count":4,"bookmark_count":5,"impression_count":600}}],"includes":{"users":[{"id":"202","username":"grace","name":"Grace","created_at":"2010-01-01T00:00:00.000Z","verified_type":"none","pinned_tweet_id":"1700000000000000000","entities":{"description":{"hashtags":[{"start":0,"end":5,"tag":"data"}]}},"public_metrics":{"followers_count":10,"following_count":20,"tweet_count":30,"listed_count":1,"like_count":7}}],"media":[{"media_key":"3_1800000000000000009","type":"video","duration_ms":12000,"preview_image_url":"https://pbs.twimg.com/p.jpg","public_metrics":{"view_count":99},"variants":[{"bit_rate":832000,"content_type":"video/mp4","url":"https://video.twimg.com/v.mp4"},{"content_type":"application/x-mpegURL","url":"https://video.twimg.com/v.m3u8"}]}],"places":[{"id":"5a110d312052166f","full_name":"San Francisco, CA","country":"United States","country_code":"US","place_type":"city","geo":{"type":"Feature","bbox":[-122.5,37.7,-122.3,37.8],"properties":{}}}],"polls":[{"id":"1800000000000000010","options":[{"position":1,"label":"yes","votes":3},{"position":2,"label":"no","votes":1}],"voting_status":"closed","duration_minutes":60,"end_datetime":"2024-03-01T11:00:00.000Z"}]},"meta":{"result_count":1,"newest_id":"1800000000000000002","oldest_id":"1800000000000000002"},"__twarc":{"url":"https://api.twitter.com/2/tweets/search/all?query=shell","version":"2.14.0","retrieved_at":"2024-03-02T00:00:00+00:00"}}
        """#

    static func json(_ text: Substring) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// A shell whose home holds the page as `mine.jsonl`, and that file's path.
    private func shellWithThePage() throws -> (Tweetsh, String) {
        let tweetsh = Tweetsh()
        let input = tweetsh.home.file("mine.jsonl")
        try (Self.page + "\n").write(toFile: input, atomically: true, encoding: .utf8)
        return (tweetsh, input)
    }

    func testImportThenExportInTheShellKeepsEveryKey() throws {
        let (tweetsh, input) = try shellWithThePage()
        let twarc = tweetsh.home.file("out.jsonl")
        let flat = tweetsh.home.file("flat.jsonl")
        let run = try tweetsh.run([
            "-c", "import \(input); search lossless; export \(twarc) --all; export \(flat) --format flat --all",
        ])
        XCTAssertEqual(run.status, 0, run.standardError)

        let original = try Self.json(Self.page[...])
        let originalTweet = try XCTUnwrap((original["data"] as? [[String: Any]])?.first)
        let originalIncludes = try XCTUnwrap(original["includes"] as? [String: Any])

        let line = try XCTUnwrap(try String(contentsOfFile: twarc, encoding: .utf8).split(separator: "\n").first)
        let exported = try Self.json(line)
        let tweet = try XCTUnwrap((exported["data"] as? [[String: Any]])?.first)
        XCTAssertEqual(tweet as NSDictionary, originalTweet as NSDictionary, "the tweet, key for key")
        let includes = try XCTUnwrap(exported["includes"] as? [String: Any])
        for kind in ["users", "media", "places", "polls"] {
            XCTAssertEqual(
                includes[kind] as? NSArray, originalIncludes[kind] as? NSArray, "includes.\(kind), key for key")
        }
        XCTAssertEqual(exported["__twarc"] as? NSDictionary, original["__twarc"] as? NSDictionary, "the page's block")

        let flatLine = try XCTUnwrap(try String(contentsOfFile: flat, encoding: .utf8).split(separator: "\n").first)
        let flattened = try Self.json(flatLine)
        // Flattening merges the expansions into the tweet (`geo.place`, `attachments.media`, `author`), so objects
        // may hold more than they came with; every key is there, and every value that is not an object is as sent.
        for (key, value) in originalTweet {
            XCTAssertNotNil(flattened[key], "flattened \(key)")
            if !(value is [String: Any]) {
                XCTAssertEqual(flattened[key] as? NSObject, value as? NSObject, "flattened \(key)")
            }
        }
        XCTAssertEqual(
            (flattened["author"] as? NSDictionary)?["pinned_tweet_id"] as? String, "1700000000000000000",
            "the author's own fields merged in")
    }

    /// Tweets imported from two pages (two `__twarc` blocks) export a CSV row each. The export wrote the header alone
    /// and said "wrote 2 tweets": the page of results was two twarc2 lines, which the CSV writer failed to read as one.
    func testACSVOfTweetsFromTwoPagesHasARowForEachTweet() throws {
        let tweetsh = Tweetsh()
        let input = tweetsh.home.file("two-pages.jsonl")
        let second = Self.page.replacingOccurrences(of: "1800000000000000002", with: "1800000000000000003")
            .replacingOccurrences(of: "2024-03-02T00:00:00+00:00", with: "2024-03-03T00:00:00+00:00")
        try (Self.page + "\n" + second + "\n").write(toFile: input, atomically: true, encoding: .utf8)
        let shown = tweetsh.home.file("shown.csv")
        let all = tweetsh.home.file("all.csv")
        let run = try tweetsh.run([
            "-c", "import \(input); search lossless; export \(shown) --format csv; export \(all) --format csv --all",
        ])
        XCTAssertEqual(run.status, 0, run.standardError)
        for path in [shown, all] {
            let rows = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            XCTAssertEqual(rows.count, 3, "a header and two rows in \(path): \(rows)")
            XCTAssertEqual(
                Set(rows.dropFirst().map { $0.prefix(19) }), ["1800000000000000002", "1800000000000000003"], path)
        }
    }

    /// `format json` and `format csv` print what `export` writes: the objects as imported, not the models' fields.
    func testTheDataFormatsPrintWhatExportWrites() throws {
        let (tweetsh, input) = try shellWithThePage()
        let exported = tweetsh.home.file("out.jsonl")
        let csv = tweetsh.home.file("out.csv")
        let setup = try tweetsh.run([
            "-c", "import \(input)", "-c", "search lossless", "-c", "export \(exported)", "-c", "export \(csv)",
        ])
        XCTAssertEqual(setup.status, 0, setup.standardError)
        let run = try tweetsh.run([
            "-c", "format json", "-c", "search lossless", "-c", "show 1", "-c", "format csv", "-c", "search lossless",
        ])
        XCTAssertEqual(run.status, 0, run.standardError)
        let lines = run.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        let page = try XCTUnwrap(try String(contentsOfFile: exported, encoding: .utf8).split(separator: "\n").first)
        // The search's line and show's line, then the CSV header and row.
        XCTAssertEqual(lines.count, 5, run.standardOutput)
        XCTAssertEqual(lines.first.map(String.init), String(page), "format json's search line is export's line")
        XCTAssertEqual(lines.dropFirst().first.map(String.init), String(page), "and so is show's")
        let csvText = try String(contentsOfFile: csv, encoding: .utf8)
        XCTAssertEqual(lines.dropFirst(2).joined(separator: "\n"), csvText, "format csv prints export's CSV")
        XCTAssertFalse(run.standardOutput.contains(#""verified":false"#), "nothing invented")
    }

    /// An import that fails partway (here the store's files may not grow past a size limit, as on a full disk) says
    /// what it committed, and the same import run again completes it: exactly the lines not committed are read.
    func testAnImportThatFailsPartwaySaysWhatStaysAndTheSameImportCompletesIt() throws {
        let tweetsh = Tweetsh()
        let store = tweetsh.home.file("store.sqlite")
        let input = tweetsh.home.file("big.jsonl")
        // 40,000 one-tweet pages with distinct words: eight batches of 5,000 lines, far more than the limit lets in.
        let total = 40_000
        let lines = (0..<total).map { index -> String in
            let id = 1_700_000_000_000_000_000 + index
            let words = (0..<30).map { "w\(($0 * 7_919 + id) % 100_003)" }.joined(separator: " ")
            return #"{"data":[{"id":"\#(id)","text":"\#(words)","author_id":"\#(index % 40 + 1)"}]}"#
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: input, atomically: true, encoding: .utf8)
        let seeded = try tweetsh.run(["--store", store, "-c", "collections"])
        XCTAssertEqual(seeded.status, 0, seeded.standardError)

        // A file-size limit 8 MB over the seeded store (in 512-byte blocks as dash counts them, or 1 KB ones), with
        // SIGXFSZ ignored so a write past it fails instead of killing the shell.
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: store)[.size] as? Int)
        let blocks = (size + 8_000_000) / 512
        let limited = try ProcessRun.run(
            "/bin/sh",
            arguments: [
                "-c", "trap '' XFSZ; ulimit -f \(blocks); exec \"$0\" --store \"$1\" -c \"import $2\"",
                Tweetsh.executable, store, input,
            ],
            environment: tweetsh.environment())
        XCTAssertEqual(limited.status, 1, limited.standardError)
        let message = limited.standardError
        XCTAssertTrue(message.contains("import of \(input) failed: "), message)
        let held = try XCTUnwrap(
            message.firstMatch(
                of: /stays \(the collection 'big' holds (\d+) tweets\), and running the same import again completes it/
            )
            .flatMap { Int($0.1) }, message)
        XCTAssertGreaterThan(held, 0, "some batches were committed before the limit: \(message)")
        XCTAssertLessThan(held, total, message)

        let again = try tweetsh.run(["--store", store, "-c", "import \(input)", "-c", "collections"])
        XCTAssertEqual(again.status, 0, again.standardError)
        XCTAssertTrue(
            again.standardOutput.contains("\(total - held) read this run, \(total - held) new"), again.standardOutput)
        XCTAssertTrue(again.standardOutput.contains("big   \(total) tweets"), again.standardOutput)
        XCTAssertEqual(StoreInspection(path: store).integrityProblems(), [])
    }
}
