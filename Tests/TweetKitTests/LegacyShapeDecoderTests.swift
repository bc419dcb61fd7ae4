import Foundation
import Testing

@testable import TweetKit

@Suite struct V1SearchDecoderTests {
    @Test func v1SearchUsesIDStrFullTextAndRetweetedStatus() throws {
        let page = try V1SearchDecoder.decodeSearch(from: Fixtures.v1Search.data)
        #expect(page.tweets.map(\.id) == [1149812345678901234, 1149900000000000000])
        let retweet = page.tweets[0]
        #expect(retweet.authorID == 111)
        #expect(retweet.retweetedID == 1149800000000000000)
        #expect(retweet.createdAt == Date(timeIntervalSince1970: 1_562_974_837))
        #expect(retweet.source == "Twitter Web App")
        #expect(retweet.metrics?.retweets == 5)
        #expect(retweet.entities.mentions == [Mention(start: 3, end: 9, username: "carol", id: 222)])
        #expect(
            retweet.displayText(in: page)
                == "RT @carol: the whole original text, well past the truncation point of the retweet, kept in full & unescaped on display"
        )
        #expect(page.includedTweets.first?.metrics?.likes == 9)
        #expect(page.includedTweets.first?.entities.hashtags == [Hashtag(start: 0, end: 4, tag: "full")])

        let dave = try #require(page.user(111))
        #expect(dave.profileImageURL == "https://a/d.jpg")
        #expect(dave.metrics == UserMetrics(followers: 1, following: 2, tweets: 3, listed: 0))
        #expect(page.user(222)?.profileImageURL == "https://a/c.jpg")
        #expect(page.users.count == 2, "dave appears twice but is included once")

        let reply = page.tweets[1]
        #expect(reply.text == "reply with a photo #pic")
        #expect(reply.repliedToID == 1149800000000000000)
        #expect(reply.inReplyToUserID == 222)
        #expect(reply.conversationID == nil)
        #expect(reply.mediaKeys == ["3_99"])
        #expect(
            page.media == [
                Media(
                    mediaKey: "3_99", kind: .photo, url: "https://pbs.twimg.com/media/p.jpg", width: 1024, height: 768)
            ])
        #expect(page.nextToken == "?max_id=1149812345678901233&q=x")
        #expect(page.newestID == 1149900000000000000)
    }

    @Test func v1SearchWithoutStatusesIsAProblem() {
        #expect(throws: DecodingProblem.self) {
            try V1SearchDecoder.decodeSearch(from: #"{"search_metadata":{}}"#.data)
        }
    }
}

@Suite struct ArchiveReaderTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tweetkit-archive-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("data"), withIntermediateDirectories: true)
    }

    func write(_ text: String, _ name: String) throws {
        try text.write(
            to: folder.appendingPathComponent("data").appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    func readAll(_ reader: ArchiveReader, batchSize: Int = 1000) throws -> (pages: [Page], skipped: [DecodingProblem]) {
        var pages: [Page] = []
        let skipped = try reader.forEachPage(batchSize: batchSize) { pages.append($0) }
        return (pages, skipped)
    }

    @Test func archiveFolderWithStringNumbersAndOwnerFromAccount() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try write(Fixtures.archiveTweets, "tweets.js")
        try write(Fixtures.archiveAccount, "account.js")
        try write(Fixtures.archiveProfile, "profile.js")
        let reader = try ArchiveReader(url: folder)
        #expect(reader.parts.map(\.lastPathComponent) == ["tweets.js"])
        let owner = try #require(reader.owner)
        #expect(owner.id == 4242)
        #expect(owner.username == "owner")
        #expect(owner.name == "The Owner")
        #expect(owner.description == "I tweet")
        #expect(owner.profileImageURL == "https://pbs.twimg.com/profile_images/4242/o.jpg")

        let (pages, skipped) = try readAll(reader)
        #expect(skipped.isEmpty)
        #expect(pages.count == 1)
        let page = pages[0]
        #expect(page.users == [owner])
        let first = page.tweets[0]
        #expect(first.id == 1500000000000000001)
        #expect(first.authorID == 4242)
        #expect(first.text == "Hello #swift @bob")
        #expect(first.metrics?.likes == 12)
        #expect(first.metrics?.retweets == 3)
        #expect(first.entities.hashtags == [Hashtag(start: 6, end: 12, tag: "swift")])
        #expect(first.entities.mentions == [Mention(start: 13, end: 17, username: "bob", id: 783214)])
        #expect(first.createdAt == TwitterDate.parseISO8601("2022-03-05T09:30:00Z"))
        #expect(first.source == "Twitter Web App")
        // Archives keep only the text of a retweet.
        let retweet = page.tweets[1]
        #expect(retweet.retweetedID == nil)
        #expect(retweet.displayText(in: page) == "RT @carol: only the text survives in an archive")
    }

    @Test func olderTweetJSAndSingleFileOpen() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try write(Fixtures.archivePart("tweet.part0", ids: 1...3), "tweet.js")
        let fromFolder = try ArchiveReader(url: folder)
        #expect(fromFolder.parts.map(\.lastPathComponent) == ["tweet.js"])
        #expect(fromFolder.owner == nil)
        #expect(try readAll(fromFolder).pages.flatMap(\.tweets).map(\.id) == [1, 2, 3])

        let fromFile = try ArchiveReader(url: folder.appendingPathComponent("data/tweet.js"))
        #expect(try readAll(fromFile).pages.flatMap(\.tweets).map(\.id) == [1, 2, 3])
    }

    @Test func partsComeFromTheManifestInOrderAndBatch() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try write(Fixtures.archivePart("tweets.part0", ids: 1...2), "tweets.js")
        try write(Fixtures.archivePart("tweets.part1", ids: 3...5), "tweets-part1.js")
        // Not in the manifest: must not be read.
        try write(Fixtures.archivePart("tweets.part9", ids: 90...91), "tweets-part9.js")
        try write(Fixtures.archiveManifest, "manifest.js")
        let reader = try ArchiveReader(url: folder)
        #expect(reader.parts.map(\.lastPathComponent) == ["tweets.js", "tweets-part1.js"])
        #expect(reader.owner?.username == "owner", "the manifest's userInfo stands in for account.js")
        let (pages, _) = try readAll(reader, batchSize: 2)
        #expect(pages.map { $0.tweets.map(\.id.rawValue) } == [[1, 2], [3, 4], [5]])
        #expect(pages.allSatisfy { $0.tweets.allSatisfy { $0.authorID == 4242 } })
    }

    @Test func partsFoundByNameWithoutManifest() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try write(Fixtures.archivePart("tweets.part0", ids: 1...1), "tweets.js")
        try write(Fixtures.archivePart("tweets.part2", ids: 3...3), "tweets-part2.js")
        try write(Fixtures.archivePart("tweets.part10", ids: 10...10), "tweets-part10.js")
        try write(Fixtures.archivePart("tweets.part1", ids: 2...2), "tweets-part1.js")
        let reader = try ArchiveReader(url: folder.appendingPathComponent("data"))
        #expect(
            reader.parts.map(\.lastPathComponent) == [
                "tweets.js", "tweets-part1.js", "tweets-part2.js", "tweets-part10.js",
            ])
        #expect(try readAll(reader).pages.flatMap(\.tweets).map(\.id) == [1, 2, 3, 10])
    }

    @Test func badEntriesAreSkippedAndNamed() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try write(
            #"window.YTD.tweets.part0 = [ {"tweet":{"id_str":"1","full_text":"ok"}}, {"tweet":{"full_text":"no id"}}, {"tweet":{"id_str":"3","full_text":"ok too"}} ]"#,
            "tweets.js")
        let (pages, skipped) = try readAll(try ArchiveReader(url: folder))
        #expect(pages.flatMap(\.tweets).map(\.id) == [1, 3])
        #expect(skipped.count == 1)
        #expect(skipped.first?.message.contains("tweets.js entry 1") == true)
    }

    @Test func notAnArchiveIsAProblem() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: DecodingProblem.self) { try ArchiveReader(url: folder) }
        #expect(throws: DecodingProblem.self) { try ArchiveReader(url: folder.appendingPathComponent("missing")) }
        let zip = folder.appendingPathComponent("twitter-2023.zip")
        try Data("PK".utf8).write(to: zip)
        do {
            _ = try ArchiveReader(url: zip)
            Issue.record("a zip file opened")
        } catch let problem as DecodingProblem {
            #expect(problem.message.contains("unzip"))
        }
        try write("[1,2,3]", "tweets.js")
        var reader = try ArchiveReader(url: folder).makePageReader()
        #expect(throws: DecodingProblem.self) { try reader.next() }
    }
}

@Suite struct CollectionLineDecoderTests {
    @Test func twarcRawPageLine() throws {
        let page = try #require(try CollectionLineDecoder.decode(line: Fixtures.twarcRawLine.data))
        #expect(page.tweets.map(\.id) == [30])
        #expect(page.user(12)?.username == "zed")
        #expect(page.resultCount == 1)
    }

    @Test func flattenedLineBringsItsOwnIncludes() throws {
        let page = try #require(try CollectionLineDecoder.decode(line: Fixtures.twarcFlatLine.data))
        #expect(page.tweets.map(\.id) == [40])
        let tweet = page.tweets[0]
        #expect(tweet.quotedID == 41)
        #expect(tweet.mediaKeys == ["3_7"])
        #expect(Set(page.users.map(\.username)) == ["zed", "yan"])
        #expect(page.user(12)?.url == nil)
        #expect(page.includedTweets.map(\.id) == [41])
        #expect(page.includedTweets.first?.authorID == 13)
        #expect(page.media.map(\.mediaKey) == ["3_7"])
        #expect(tweet.displayText(in: page) == "flat & quoted")
    }

    @Test func singleLookupsV1AndSkippableLines() throws {
        #expect(
            try CollectionLineDecoder.decode(line: Fixtures.singleTweet.data)?.tweets.map(\.id) == [1212092628029698048]
        )
        #expect(
            try CollectionLineDecoder.decode(line: Fixtures.userFound.data)?.users.map(\.username) == ["XDevelopers"])
        #expect(try CollectionLineDecoder.decode(line: Fixtures.v1Search.data)?.tweets.count == 2)
        let status =
            #"{"id_str":"7","text":"twarc1 line","user":{"id_str":"8","screen_name":"old"},"created_at":"Fri Jul 12 23:40:37 +0000 2019"}"#
        #expect(try CollectionLineDecoder.decode(line: status.data)?.tweets.first?.authorID == 8)
        #expect(try CollectionLineDecoder.decode(line: Data()) == nil)
        #expect(try CollectionLineDecoder.decode(line: "  \r".data) == nil)
        #expect(try CollectionLineDecoder.decode(line: Fixtures.emptyPage.data) == nil)
        #expect(try CollectionLineDecoder.decode(line: Fixtures.onlyErrors.data) == nil)
    }

    @Test func byteOrderMarkAndFlattenedUsers() throws {
        let marked = Data([0xEF, 0xBB, 0xBF]) + Data(Fixtures.twarcRawLine.utf8)
        #expect(try CollectionLineDecoder.decode(line: marked)?.tweets.map(\.id) == [30])
        let user = #"{"id":"12","username":"zed","name":"Zed","url":""}"#
        let page = try #require(try CollectionLineDecoder.decode(line: Data(user.utf8)))
        #expect(page.tweets.isEmpty)
        #expect(page.users.map(\.username) == ["zed"])
    }

    @Test func mixedFileIsDetectedLineByLine() throws {
        let file = [
            Fixtures.twarcRawLine, "", Fixtures.emptyPage, Fixtures.twarcFlatLine,
            Fixtures.singleTweet.replacingOccurrences(of: "\n", with: " "),
        ]
        let ids = try file.compactMap { try CollectionLineDecoder.decode(line: $0.data) }.flatMap(\.tweets).map(\.id)
        #expect(ids == [30, 40, 1212092628029698048])
    }

    @Test func malformedLinesSayWhatIsWrong() {
        func problem(_ line: String) -> DecodingProblem? {
            do {
                _ = try CollectionLineDecoder.decode(line: line.data)
                return nil
            } catch {
                return error as? DecodingProblem
            }
        }
        let truncated = problem(#"{"data":[{"id":"1","text":"cut off"#)
        #expect(truncated?.message.contains("not valid JSON") == true)
        #expect(truncated?.column != nil)
        #expect(problem("[1,2]")?.message.contains("not an object") == true)
        #expect(problem(#"{"hello":"world"}"#)?.message.contains("hello") == true)
        #expect(problem(#"{"data":[{"text":"no id"}]}"#)?.message.contains("data[0] has no id") == true)
        #expect(problem(#"{"data":"nope"}"#) != nil)
    }
}
