import Foundation
import TerminalTesting
import XCTest

/// An X account archive imported and read in the real shell: the summary, `show` of a retweet and `thread`.
final class ArchiveSessionTests: XCTestCase {
    /// Writes a 2023-layout archive (`data/tweets.js`) into `folder`, with `account.js` unless left out.
    func writeArchive(in folder: String, account: Bool) throws {
        let data = folder + "/data"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        if account {
            try Data(
                #"window.YTD.account.part0 = [{"account":{"accountId":"99","username":"archiveowner","accountDisplayName":"A"}}]"#
                    .utf8
            ).write(to: URL(fileURLWithPath: data + "/account.js"))
        }
        func entry(_ id: Int, _ text: String, reply: Int? = nil, mention: (String, Int, Int)? = nil) -> String {
            let replyFields =
                reply.map {
                    #""in_reply_to_status_id_str":"\#($0)","in_reply_to_user_id_str":"99","#
                        + #""in_reply_to_screen_name":"archiveowner","#
                } ?? ""
            let mentions =
                mention.map {
                    #"{"screen_name":"\#($0.0)","name":"\#($0.0)","id_str":"\#($0.1)","indices":["\#($0.2)","\#($0.2 + 1 + $0.0.count)"]}"#
                } ?? ""
            return #"{"tweet":{"id_str":"\#(id)",\#(replyFields)"full_text":"\#(text)","#
                + #""created_at":"Fri Jul 12 23:40:37 +0000 2019","entities":{"user_mentions":[\#(mentions)]}}}"#
        }
        let entries = [
            entry(1_000_001, "zebraword first post"),
            entry(1_000_002, "@archiveowner zebraword second", reply: 1_000_001, mention: ("archiveowner", 99, 0)),
            entry(1_000_003, "RT @quokka_fan: zebraword retweeted text", mention: ("quokka_fan", 77, 3)),
        ]
        try Data("window.YTD.tweets.part0 = [\n\(entries.joined(separator: ",\n"))\n]".utf8)
            .write(to: URL(fileURLWithPath: data + "/tweets.js"))
    }

    func testAnArchiveRetweetSaysWhomItRetweetsAndThreadFollowsTheReplies() throws {
        let tweetsh = Tweetsh()
        let folder = tweetsh.home.file("archive")
        try writeArchive(in: folder, account: true)
        let run = try tweetsh.run([
            "-c", "import \(folder); search is:retweet zebraword; show 1; search zebraword second; thread 1",
        ])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertTrue(
            run.standardOutput.contains("imported 3 tweets from 3 archive entries: 3 new"), run.standardOutput)
        XCTAssertFalse(run.standardOutput.contains("0 lines"), run.standardOutput)
        let again = try tweetsh.run(["-c", "import \(folder)"])
        XCTAssertTrue(
            again.standardOutput.contains("imported 3 tweets from 3 archive entries: 0 new"), again.standardOutput)
        XCTAssertTrue(run.standardOutput.contains("Retweet of @quokka_fan"), run.standardOutput)
        XCTAssertTrue(run.standardError.contains("thread 1000001: 2 tweets"), run.standardError)
        XCTAssertFalse(run.standardError.contains("account.js"), run.standardError)
    }

    func testAnArchiveWithoutAccountJSWarnsWhatIsLost() throws {
        let tweetsh = Tweetsh()
        let folder = tweetsh.home.file("archive")
        try writeArchive(in: folder, account: false)
        let run = try tweetsh.run(["-c", "import \(folder)"])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertTrue(run.standardOutput.contains("imported 3 tweets from 3 archive entries"), run.standardOutput)
        XCTAssertTrue(
            run.standardError.contains("account.js is missing: the tweets have no author"), run.standardError)
    }

    /// The ZIP X hands out imports as its folder does, named after the ZIP, and leaves nothing unpacked behind; its
    /// warnings name the ZIP; a ZIP that holds no archive is refused in one line.
    func testAZippedArchiveImportsWithoutUnzipping() throws {
        let tweetsh = Tweetsh()
        let folder = tweetsh.home.file("unzipped")
        try writeArchive(in: folder, account: false)
        var writer = ZipWriter()
        for name in ["tweets.js"] {
            writer.add(
                "twitter-2024-01-01-abc/data/\(name)",
                try Data(contentsOf: URL(fileURLWithPath: folder + "/data/" + name)))
        }
        writer.add("twitter-2024-01-01-abc/data/tweets_media/1.jpg", Data(repeating: 0xFF, count: 64))
        let zip = tweetsh.home.file("twitter-2024-01-01-abc.zip")
        try writer.finish().write(to: URL(fileURLWithPath: zip))
        let temporary = tweetsh.home.file("tmp")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)

        let run = try tweetsh.run(
            ["-c", "import \(zip); collections; search zebraword second"], environment: ["TMPDIR": temporary])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertTrue(run.standardOutput.contains("imported 3 tweets from 3 archive entries"), run.standardOutput)
        XCTAssertTrue(run.standardOutput.contains("twitter-2024-01-01-abc     3 tweets"), run.standardOutput)
        XCTAssertTrue(run.standardOutput.contains("zebraword second"), run.standardOutput)
        XCTAssertTrue(
            run.standardError.contains("\(zip): data/account.js is missing: the tweets have no author"),
            run.standardError)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary), [], "nothing left unpacked")

        var other = ZipWriter()
        other.add("photos/a.jpg", Data(repeating: 0xFF, count: 64))
        let photos = tweetsh.home.file("photos.zip")
        try other.finish().write(to: URL(fileURLWithPath: photos))
        let refused = try tweetsh.run(["-c", "import \(photos)"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(
            refused.standardError.contains("photos.zip: not JSON text: looks like a ZIP archive, and not an X archive"),
            refused.standardError)
    }
}
