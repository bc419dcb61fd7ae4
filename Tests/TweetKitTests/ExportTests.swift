import Foundation
import Testing

@testable import TweetKit

@Suite struct ExportTests {
    func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }

    @Test func twarc2JSONLRoundTripsThroughOurDecoder() throws {
        let page = try APIResponseDecoder.decodePage(from: Fixtures.searchPage.data)
        var exporter = PageExporter(format: .twarc2JSONL)
        let text = exporter.encode(page)
        #expect(lines(text).count == 1)
        #expect(text.hasSuffix("}\n"))
        let back = try #require(try CollectionLineDecoder.decode(line: Data(text.utf8)))
        #expect(back == page)
    }

    @Test func twarc2LinesCarryTwarcMetadataAndPartialErrors() throws {
        let page = try APIResponseDecoder.decodePage(from: Fixtures.pageWithPartialErrors.data)
        let when = Date(timeIntervalSince1970: 1_700_000_000)
        var exporter = PageExporter(
            format: .twarc2JSONL, metadata: TwarcMetadata(url: "tweetsh:local", retrievedAt: when))
        let line = exporter.encode(page)
        let root = try JSONParser.parse(Data(line.utf8))
        #expect(root["__twarc"]?["url"]?.string == "tweetsh:local")
        #expect(root["__twarc"]?["retrieved_at"]?.string == "2023-11-14T22:13:20.000Z")
        #expect(root["meta"]?["result_count"]?.int == 1)
        #expect(root["data"]?.array?.first?["edit_history_tweet_ids"]?.array?.first?.string == "20")
        #expect(try APIResponseDecoder.decodePage(from: Data(line.utf8)).errors == page.errors)
    }

    @Test func emptyPageExportsAsTheAPIsEmptyResult() throws {
        var exporter = PageExporter(format: .twarc2JSONL)
        #expect(exporter.encode(Page()) == #"{"meta":{"result_count":0}}"# + "\n")
    }

    @Test func flattenedLinesEmbedAuthorsMediaAndReferences() throws {
        let page = try APIResponseDecoder.decodePage(from: Fixtures.searchPage.data)
        var exporter = PageExporter(format: .flattenedJSONL)
        let output = lines(exporter.encode(page))
        #expect(output.count == 2)
        let reply = try JSONParser.parse(Data(output[0].utf8))
        #expect(reply["author"]?["username"]?.string == "alice")
        #expect(reply["in_reply_to_user"]?["username"]?.string == "bob")
        #expect(reply["attachments"]?["media"]?.array?.first?["media_key"]?.string == "3_1460323730000000000")
        let retweet = try JSONParser.parse(Data(output[1].utf8))
        let reference = try #require(retweet["referenced_tweets"]?.array?.first)
        #expect(reference["type"]?.string == "retweeted")
        #expect(reference["author"]?["username"]?.string == "alice")
        #expect(reference["text"]?.string?.hasSuffix("at the end.") == true)

        // Read back line by line, each flattened tweet brings what it needs to display itself.
        let decoded = try output.map { try #require(try CollectionLineDecoder.decode(line: Data($0.utf8))) }
        #expect(decoded.flatMap(\.tweets) == page.tweets)
        #expect(decoded[1].tweets[0].displayText(in: decoded[1]) == page.tweets[1].displayText(in: page))
        #expect(decoded[0].media == [page.media[0]], "a flattened tweet carries only its own media")
    }

    @Test func csvUsesTwarcColumnsAndQuotesProperly() throws {
        let page = try APIResponseDecoder.decodePage(from: Fixtures.searchPage.data)
        var exporter = PageExporter(format: .csv)
        let output = lines(exporter.encode(page))
        #expect(output.count == 3)
        #expect(
            output[0].hasPrefix("id,conversation_id,referenced_tweets.replied_to.id,referenced_tweets.retweeted.id,"))
        let header = output[0].split(separator: ",").map(String.init)
        #expect(header == TwarcCSVColumns.twarcDefaults.names)
        let rows = try output.dropFirst().map { try Self.parseCSVLine($0) }
        #expect(rows.allSatisfy { $0.count == header.count })
        func cell(_ row: [String], _ column: String) -> String { row[header.firstIndex(of: column)!] }
        let reply = rows[0]
        #expect(cell(reply, "id") == "1460323737035677698")
        #expect(cell(reply, "referenced_tweets.replied_to.id") == "1460300000000000000")
        // The replied-to tweet is not in the page's includes, so twarc-csv leaves the name empty.
        #expect(cell(reply, "in_reply_to_username") == "")
        #expect(cell(reply, "in_reply_to_user_id") == "783214")
        #expect(cell(reply, "entities.hashtags") == ##"["#food"]"##)
        #expect(cell(reply, "entities.urls") == #"["https://example.com/fish"]"#)
        #expect(cell(reply, "author.username") == "alice")
        #expect(cell(reply, "author.name") == "Alice A.")
        #expect(cell(reply, "author.verified") == "True")
        #expect(cell(reply, "public_metrics.like_count") == "14")
        #expect(cell(reply, "created_at") == "2021-11-15T18:00:00.000Z")
        let retweet = rows[1]
        #expect(cell(retweet, "retweeted_username") == "alice")
        #expect(
            cell(retweet, "text").hasSuffix("adds an ellipsis at the end."), "a retweet row carries the original's text"
        )
        #expect(cell(retweet, "author.username") == "bob")
    }

    @Test func csvEscapesCommasQuotesAndNewlines() throws {
        let tweet = Tweet(id: 1, text: "line one,\n\"two\"\r\nthree")
        var exporter = PageExporter(format: .csv)
        let output = lines(exporter.encode(Page(tweets: [tweet])))
        #expect(output.count == 2, "newlines inside text must not split the row")
        let row = try Self.parseCSVLine(output[1])
        #expect(row[TwarcCSVColumns.twarcDefaults.names.firstIndex(of: "text")!] == #"line one,\n"two"\nthree"#)
    }

    @Test func emptyCSVStillHasAHeader() {
        var exporter = PageExporter(format: .csv)
        #expect(exporter.finishingText().hasPrefix("id,conversation_id"))
        #expect(exporter.finishingText() == "")
    }

    @Test func fileWriterStreamsToAFileHandle() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tweetkit-export-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        let page = try APIResponseDecoder.decodePage(from: Fixtures.searchPage.data)
        let writer = ExportFileWriter(handle: handle, format: .twarc2JSONL)
        for _ in 0..<3 { try writer.write(page) }
        try writer.finish()
        try handle.close()
        #expect(writer.tweetsWritten == 6)
        let written = try String(contentsOf: url, encoding: .utf8)
        let decoded = try lines(written).compactMap { try CollectionLineDecoder.decode(line: Data($0.utf8)) }
        #expect(decoded == [page, page, page])
    }

    @Test func textOutputStreamExport() throws {
        var output = ""
        var exporter = PageExporter(format: .flattenedJSONL)
        exporter.write(Page(tweets: [Tweet(id: 9, text: "a \"quoted\" \\ tab\there \u{1}")]), to: &output)
        let back = try #require(try CollectionLineDecoder.decode(line: Data(output.utf8)))
        #expect(back.tweets.first?.text == "a \"quoted\" \\ tab\there \u{1}")
    }

    /// A strict RFC 4180 line reader for one physical line, to check the writer's quoting.
    static func parseCSVLine(_ line: String) throws -> [String] {
        var fields: [String] = []
        var current = ""
        var inQuotes = false
        var characters = Array(line)[...]
        while let character = characters.popFirst() {
            if inQuotes {
                if character == "\"" {
                    if characters.first == "\"" {
                        current.append("\"")
                        characters.removeFirst()
                    } else {
                        inQuotes = false
                    }
                } else {
                    current.append(character)
                }
            } else if character == "\"" {
                inQuotes = true
            } else if character == "," {
                fields.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        if inQuotes { throw DecodingProblem("unterminated quote") }
        fields.append(current)
        return fields
    }
}
