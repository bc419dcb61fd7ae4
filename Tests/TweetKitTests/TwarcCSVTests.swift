import Foundation
import Testing

@testable import TweetKit

/// The CSV writer against twarc-csv 0.7.2's rules (dataframe_converter.py, read, not run): its default columns in
/// order, and the values it writes for a retweet, a quote, replies, media, a poll, a place and the `__twarc` block.
@Suite struct TwarcCSVTests {
    static let header =
        "id,conversation_id,referenced_tweets.replied_to.id,referenced_tweets.retweeted.id,referenced_tweets.quoted.id,"
        + "author_id,in_reply_to_user_id,in_reply_to_username,retweeted_user_id,retweeted_username,quoted_user_id,"
        + "quoted_username,created_at,text,lang,source,public_metrics.impression_count,public_metrics.reply_count,"
        + "public_metrics.retweet_count,public_metrics.quote_count,public_metrics.like_count,"
        + "public_metrics.bookmark_count,reply_settings,edit_history_tweet_ids,edit_controls.edits_remaining,"
        + "edit_controls.editable_until,edit_controls.is_edit_eligible,possibly_sensitive,withheld.scope,"
        + "withheld.copyright,withheld.country_codes,entities.annotations,entities.cashtags,entities.hashtags,"
        + "entities.mentions,entities.urls,context_annotations,attachments.media,attachments.media_keys,"
        + "attachments.poll.duration_minutes,attachments.poll.end_datetime,attachments.poll.id,"
        + "attachments.poll.options,attachments.poll.voting_status,attachments.poll_ids,author.id,author.created_at,"
        + "author.username,author.name,author.description,author.entities.description.cashtags,"
        + "author.entities.description.hashtags,author.entities.description.mentions,"
        + "author.entities.description.urls,author.entities.url.urls,author.url,author.location,"
        + "author.pinned_tweet_id,author.profile_image_url,author.protected,author.public_metrics.followers_count,"
        + "author.public_metrics.following_count,author.public_metrics.listed_count,author.public_metrics.tweet_count,"
        + "author.verified,author.verified_type,author.withheld.scope,author.withheld.copyright,"
        + "author.withheld.country_codes,geo.coordinates.coordinates,geo.coordinates.type,geo.country,"
        + "geo.country_code,geo.full_name,geo.geo.bbox,geo.geo.type,geo.id,geo.name,geo.place_id,geo.place_type,"
        + "matching_rules,__twarc.retrieved_at,__twarc.url,__twarc.version"

    static let searchTwarc: [String: String] = [
        "__twarc.retrieved_at": "2022-12-02T00:00:00+00:00",
        "__twarc.url": "https://api.twitter.com/2/tweets/search/recent?query=swift", "__twarc.version": "2.14.0",
    ]

    /// The rows of a fixture line, each as its non-empty cells by column name.
    func rows(_ fixture: String) throws -> [[String: String]] {
        let line = try JSONParser.parse(Data(TwarcCSVFixtures.line(fixture).utf8))
        let names = TwarcCSVColumns.twarcDefaults.names
        return TwarcCSV.rows(ofLine: line).map { cells in
            #expect(cells.count == names.count)
            var filled: [String: String] = [:]
            for (name, cell) in zip(names, cells) where !cell.isEmpty { filled[name] = cell }
            return filled
        }
    }

    /// The CSV text of fixture lines, header first, as the exporter writes it.
    func csv(_ fixtures: [String], columns: TwarcCSVColumns = .twarcDefaults) throws -> String {
        var writer = JSONWriter()
        TwarcCSV.writeHeader(columns, into: &writer)
        for fixture in fixtures {
            let line = try JSONParser.parse(Data(TwarcCSVFixtures.line(fixture).utf8))
            TwarcCSV.writeRows(ofLine: line, columns: columns, into: &writer)
        }
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test func headerIsTwarcCSVsDefaultColumnListInOrder() throws {
        #expect(TwarcCSVColumns.twarcDefaults.names.count == 84)
        #expect(TwarcCSVColumns.twarcDefaults.names.joined(separator: ",") == Self.header)
        let text = try csv([TwarcCSVFixtures.searchPage])
        #expect(text.split(separator: "\n").first.map(String.init) == Self.header)
        var exporter = PageExporter(format: .csv)
        #expect(exporter.finishingText() == Self.header + "\n", "an export with no tweets still names its columns")
    }

    @Test func docsListTheSameColumnsInTheSameOrder() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let store = try String(contentsOf: root.appendingPathComponent("docs/store.md"), encoding: .utf8)
        let section = try #require(store.components(separatedBy: "## CSV columns").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```").dropFirst().first)
        let listed = block.split(whereSeparator: { $0 == "\n" || $0 == " " || $0 == "," }).map(String.init)
        #expect(listed == TwarcCSVColumns.twarcDefaults.names)
    }

    @Test func retweetTakesTheOriginalsContentAndKeepsItsOwnIdsAndAuthor() throws {
        let retweet = try rows(TwarcCSVFixtures.searchPage)[0]
        let expected: [String: String] = [
            "id": "1600000000000000010", "conversation_id": "1600000000000000010",
            "referenced_tweets.retweeted.id": "1600000000000000001", "author_id": "20",
            "retweeted_user_id": "10", "retweeted_username": "alice", "created_at": "2022-12-01T10:00:00.000Z",
            "text": #"Original text with #Swift and a link https://t.co/o1\nsecond line"#, "lang": "en",
            "source": "Twitter for iPhone", "public_metrics.impression_count": "1200",
            "public_metrics.reply_count": "2", "public_metrics.retweet_count": "5", "public_metrics.quote_count": "1",
            "public_metrics.like_count": "40", "public_metrics.bookmark_count": "3", "reply_settings": "everyone",
            "edit_history_tweet_ids": #"["1600000000000000010"]"#, "possibly_sensitive": "False",
            "entities.annotations":
                #"[{"start": 20, "end": 24, "probability": 0.9, "type": "Other", "normalized_text": "Swift"}]"#,
            "entities.hashtags": ##"["#Swift"]"##, "entities.urls": #"["https://swift.org/blog"]"#,
            "context_annotations":
                #"[{"domain": {"id": "131", "name": "Unified Twitter Taxonomy"}, "entity": {"id": "848920371311001600", "name": "Technology"}}]"#,
            "attachments.media":
                #"[{"media_key": "3_1", "type": "photo", "url": "https://pbs.twimg.com/media/o1.jpg"}]"#,
            "attachments.media_keys": #"["3_1"]"#, "author.id": "20", "author.username": "bob",
            "author.name": "Bob, B.", "author.protected": "False", "author.public_metrics.followers_count": "1",
            "author.public_metrics.following_count": "2", "author.public_metrics.listed_count": "0",
            "author.public_metrics.tweet_count": "3", "author.verified": "False",
        ]
        // The retweet's own mention of @alice went with its own entities: the row carries the original's.
        #expect(retweet == expected.merging(Self.searchTwarc) { a, _ in a })
    }

    @Test func quoteNamesTheQuotedAuthorAndExpandsTheProfileWebsite() throws {
        let quote = try rows(TwarcCSVFixtures.searchPage)[1]
        let expected: [String: String] = [
            "id": "1600000000000000020", "conversation_id": "1600000000000000020",
            "referenced_tweets.quoted.id": "1600000000000000002", "author_id": "30", "quoted_user_id": "40",
            "quoted_username": "dave", "created_at": "2022-12-01T11:00:00.000Z",
            "text": #"Agreed, "quoting" this https://t.co/q1"#, "lang": "en",
            "public_metrics.impression_count": "600", "public_metrics.reply_count": "2",
            "public_metrics.retweet_count": "1", "public_metrics.quote_count": "4", "public_metrics.like_count": "3",
            "public_metrics.bookmark_count": "5",
            "edit_history_tweet_ids": #"["1600000000000000019", "1600000000000000020"]"#,
            "edit_controls.edits_remaining": "4", "edit_controls.editable_until": "2022-12-01T11:30:00.000Z",
            "edit_controls.is_edit_eligible": "True",
            "entities.urls": #"["https://twitter.com/dave/status/1600000000000000002"]"#,
            "author.id": "30", "author.username": "carol", "author.name": "Carol",
            "author.description": #"Writes about #café with @dave\nand more https://t.co/d1"#,
            "author.entities.description.hashtags": ##"["#caf\u00e9"]"##,
            "author.entities.description.mentions": #"["@dave"]"#,
            "author.entities.description.urls": #"["https://blog.example.org/"]"#,
            "author.entities.url.urls": #"["https://carol.example.org"]"#, "author.url": "https://carol.example.org",
            "author.location": "Zürich", "author.pinned_tweet_id": "1600000000000000020", "author.protected": "False",
            "author.public_metrics.followers_count": "9", "author.public_metrics.following_count": "8",
            "author.public_metrics.listed_count": "6", "author.public_metrics.tweet_count": "7",
            "author.verified": "False", "author.verified_type": "none", "author.withheld.country_codes": #"["XY"]"#,
        ]
        #expect(quote == expected.merging(Self.searchTwarc) { a, _ in a })
    }

    @Test func replyNamesTheRepliedToAuthorOnlyWhenThePageIncludesTheParent() throws {
        let rows = try rows(TwarcCSVFixtures.searchPage)
        let expected: [String: String] = [
            "id": "1600000000000000030", "conversation_id": "1600000000000000003",
            "referenced_tweets.replied_to.id": "1600000000000000003", "author_id": "20", "in_reply_to_user_id": "10",
            "in_reply_to_username": "alice", "created_at": "2022-12-01T12:00:00.000Z",
            "text": #"@alice thanks, 100% agree\nsee you there"#, "lang": "en",
            "edit_history_tweet_ids": #"["1600000000000000030"]"#, "entities.mentions": #"["@alice"]"#,
            "author.id": "20", "author.username": "bob", "author.name": "Bob, B.", "author.protected": "False",
            "author.public_metrics.followers_count": "1", "author.public_metrics.following_count": "2",
            "author.public_metrics.listed_count": "0", "author.public_metrics.tweet_count": "3",
            "author.verified": "False", "geo.coordinates.coordinates": "[-73.99, 40.73]",
            "geo.coordinates.type": "Point", "geo.country": "United States", "geo.country_code": "US",
            "geo.full_name": "Manhattan, NY", "geo.geo.bbox": "[-74.026675, 40.683935, -73.910408, 40.877483]",
            "geo.geo.type": "Feature", "geo.id": "01a9a39529b27f36", "geo.name": "Manhattan",
            "geo.place_id": "01a9a39529b27f36", "geo.place_type": "city",
        ]
        #expect(rows[2] == expected.merging(Self.searchTwarc) { a, _ in a })
        // twarc-csv takes the name from the included parent, never from in_reply_to_user_id.
        #expect(rows[3]["referenced_tweets.replied_to.id"] == "1600000000000000099")
        #expect(rows[3]["in_reply_to_user_id"] == "10")
        #expect(rows[3]["in_reply_to_username"] == nil)
    }

    @Test func mediaTweetListsItsMediaObjectsAndShowsMediaLinksInDisplayForm() throws {
        let media = try rows(TwarcCSVFixtures.searchPage)[4]
        let expected: [String: String] = [
            "id": "1600000000000000040", "conversation_id": "1600000000000000040", "author_id": "10",
            "created_at": "2022-12-01T13:00:00.000Z", "text": "Look 😀 #Caturday https://t.co/m1", "lang": "en",
            "edit_history_tweet_ids": #"["1600000000000000040"]"#, "possibly_sensitive": "True",
            "withheld.scope": "tweet", "withheld.copyright": "False", "withheld.country_codes": #"["DE", "FR"]"#,
            "entities.hashtags": ##"["#Caturday"]"##, "entities.urls": #"["pic.twitter.com/m1"]"#,
            "attachments.media":
                #"[{"media_key": "3_2", "type": "photo", "url": "https://pbs.twimg.com/media/m1.jpg", "width": 1200, "height": 800, "alt_text": "A cat \u2014 sleeping"}, "#
                + #"{"media_key": "7_3", "type": "video", "preview_image_url": "https://pbs.twimg.com/v.jpg", "duration_ms": 4200, "variants": [{"bit_rate": 832000, "content_type": "video/mp4", "url": "https://video.twimg.com/v.mp4"}]}]"#,
            "attachments.media_keys": #"["3_2", "7_3"]"#, "author.id": "10",
            "author.created_at": "2010-01-01T00:00:00.000Z", "author.username": "alice", "author.name": "Alice",
            "author.protected": "False", "author.public_metrics.followers_count": "100",
            "author.public_metrics.following_count": "50", "author.public_metrics.listed_count": "7",
            "author.public_metrics.tweet_count": "1000", "author.verified": "True", "author.verified_type": "blue",
        ]
        #expect(media == expected.merging(Self.searchTwarc) { a, _ in a })
    }

    @Test func streamLineWithOneTweetCarriesItsPollAndMatchingRules() throws {
        let rows = try rows(TwarcCSVFixtures.streamLine)
        #expect(rows.count == 1)
        let expected: [String: String] = [
            "id": "1600000000000000050", "author_id": "10", "text": "Poll time",
            "edit_history_tweet_ids": #"["1600000000000000050"]"#, "attachments.poll.duration_minutes": "1440",
            "attachments.poll.end_datetime": "2022-12-02T13:00:00.000Z", "attachments.poll.id": "1199786642468413448",
            "attachments.poll.options":
                #"[{"position": 1, "label": "yes", "votes": 3}, {"position": 2, "label": "no", "votes": 1}]"#,
            "attachments.poll.voting_status": "closed", "attachments.poll_ids": #"["1199786642468413448"]"#,
            "author.id": "10", "author.username": "alice", "author.name": "Alice",
            "matching_rules": #"[{"id": "1", "tag": "polls"}]"#, "__twarc.retrieved_at": "2022-12-02T13:05:00+00:00",
            "__twarc.url": "https://api.twitter.com/2/tweets/search/stream", "__twarc.version": "2.14.0",
        ]
        #expect(rows[0] == expected)
    }

    @Test func rowsAreOneLineEachWithMinimalQuoting() throws {
        let text = try csv([TwarcCSVFixtures.searchPage, TwarcCSVFixtures.streamLine])
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 8, "header, six rows and the final newline")
        #expect(lines.last == "")
        #expect(lines[2].contains(#","Agreed, ""quoting"" this https://t.co/q1",en,"#))
        #expect(lines[2].contains(#","[""https://carol.example.org""]",https://carol.example.org,Zürich,"#))
        #expect(lines[1].hasPrefix("1600000000000000010,1600000000000000010,,1600000000000000001,,20,,,10,alice,,,"))
        let parsed = try lines.dropFirst().dropLast().map { try ExportTests.parseCSVLine($0) }
        let expected = try rows(TwarcCSVFixtures.searchPage) + rows(TwarcCSVFixtures.streamLine)
        let names = TwarcCSVColumns.twarcDefaults.names
        #expect(
            parsed.map { Dictionary(uniqueKeysWithValues: zip(names, $0)).filter { !$0.value.isEmpty } } == expected)
    }

    @Test func flattenedLinesGiveTheSameRowsAsPages() throws {
        // twarc2 flatten's shape for the reply: its author and referenced tweet inline, __twarc copied in.
        let flat = #"""
            {"id":"1600000000000000030","text":"@alice thanks","author_id":"20","in_reply_to_user_id":"10",
             "referenced_tweets":[{"type":"replied_to","id":"1600000000000000003","text":"Who is coming?",
                                   "author_id":"10","author":{"id":"10","username":"alice"}}],
             "author":{"id":"20","username":"bob"},"in_reply_to_user":{"id":"10","username":"alice"},
             "__twarc":{"url":"u","version":"2.14.0","retrieved_at":"r"}}
            """#
        let page = #"""
            {"data":[{"id":"1600000000000000030","text":"@alice thanks","author_id":"20","in_reply_to_user_id":"10",
                      "referenced_tweets":[{"type":"replied_to","id":"1600000000000000003"}]}],
             "includes":{"users":[{"id":"20","username":"bob"},{"id":"10","username":"alice"}],
                         "tweets":[{"id":"1600000000000000003","text":"Who is coming?","author_id":"10"}]},
             "__twarc":{"url":"u","version":"2.14.0","retrieved_at":"r"}}
            """#
        let fromFlat = try rows(flat)
        #expect(fromFlat == (try rows(page)))
        #expect(fromFlat.first?["in_reply_to_username"] == "alice")
        #expect(try rows(#"{"errors":[{"title":"Not Found Error"}]}"#).isEmpty)
        #expect(try rows(#"{"meta":{"result_count":0}}"#).isEmpty)
    }

    /// Integers past 64 bits stay digit for digit, as Python's `json` keeps them; they had become the nearest double
    /// (`1e+20`), in a cell and inside a list alike. A float keeps Python's rendering.
    @Test func integersTooLargeForSixtyFourBitsKeepTheirDigits() throws {
        let page = #"""
            {"data":[{"id":"1600000000000000040","text":"counted","author_id":"20",
                      "public_metrics":{"like_count":99999999999999999999,"retweet_count":1.5e3,
                                        "reply_count":-18446744073709551617,"quote_count":9223372036854775807},
                      "edit_history_tweet_ids":[18446744073709551616]}]}
            """#
        let row = try #require(try rows(page).first)
        #expect(row["public_metrics.like_count"] == "99999999999999999999")
        #expect(row["public_metrics.reply_count"] == "-18446744073709551617")
        #expect(row["public_metrics.quote_count"] == "9223372036854775807")
        #expect(row["public_metrics.retweet_count"] == "1500.0")
        #expect(row["edit_history_tweet_ids"] == "[18446744073709551616]")
        // Written back as JSON, the same digits.
        var writer = JSONWriter()
        writer.value(try JSONParser.parse(Data("[99999999999999999999,-9223372036854775809,1.5e3]".utf8)))
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "[99999999999999999999,-9223372036854775809,1500.0]")
    }

    @Test func chosenColumnsAreWrittenInTheOrderGiven() throws {
        let columns = try TwarcCSVColumns(parsing: "author.username,id,text")
        let text = try csv([TwarcCSVFixtures.searchPage], columns: columns)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[0] == "author.username,id,text")
        #expect(
            lines[1] == #"bob,1600000000000000010,Original text with #Swift and a link https://t.co/o1\nsecond line"#)
        // A row of one empty field is quoted, as Python's csv module writes it, so it is not a blank line.
        let single = try csv([TwarcCSVFixtures.searchPage], columns: TwarcCSVColumns(parsing: "geo.name"))
        #expect(single == "geo.name\n\"\"\n\"\"\nManhattan\n\"\"\n\"\"\n")
    }

    @Test func unknownColumnsAreRefusedWithACloseMatch() {
        func failure(_ list: String) -> TwarcCSVColumnError? {
            do {
                _ = try TwarcCSVColumns(parsing: list)
                return nil
            } catch { return error }
        }
        let typo = failure("id,autor.username")
        #expect(typo?.column == "autor.username")
        #expect(typo?.offset == 3)
        #expect(typo?.suggestion == "author.username")
        #expect(
            typo?.description.hasPrefix("unknown CSV column 'autor.username'; did you mean 'author.username'?") == true)
        #expect(failure("username")?.suggestion == "author.username")
        #expect(failure("ID")?.suggestion == "id")
        #expect(failure("author.followers")?.suggestion == "author.public_metrics.followers_count")
        #expect(failure("retweet_count")?.suggestion == "public_metrics.retweet_count")
        // A name like no column gets no guess rather than a far one.
        #expect(failure("nope")?.suggestion == nil)
        #expect(failure("nope")?.description == "unknown CSV column 'nope' ('help export' lists all 84)")
        #expect(failure("sentiment")?.suggestion == nil)
        #expect(failure("id,,text")?.column == "")
        #expect(failure("id,,text")?.offset == 3)
        #expect(failure("id, text ,lang") == nil, "spaces around names are forgiven")
    }

    @Test func valuesRenderAsPythonWritesThem() {
        #expect(TwarcCSVCellText.pythonRepr(40.73) == "40.73")
        #expect(TwarcCSVCellText.pythonRepr(5) == "5.0")
        #expect(TwarcCSVCellText.pythonRepr(-0.0) == "-0.0")
        #expect(TwarcCSVCellText.pythonRepr(0.0001) == "0.0001")
        #expect(TwarcCSVCellText.pythonRepr(0.00001) == "1e-05")
        #expect(TwarcCSVCellText.pythonRepr(1e15) == "1000000000000000.0")
        #expect(TwarcCSVCellText.pythonRepr(1e16) == "1e+16")
        #expect(TwarcCSVCellText.pythonRepr(1.5e300) == "1.5e+300")
        #expect(TwarcCSVCellText.pythonRepr(123456.789) == "123456.789")
        var quoted = ""
        TwarcCSVCellText.asciiQuoted("é😀\"\\\n\t\u{7F}\u{01}", into: &quoted)
        #expect(quoted == #""\u00e9\ud83d\ude00\"\\\n\t\u007f\u0001""#)
        #expect(
            TwarcCSVCellText.cell(.array([.int(1), .double(2.5), .bool(true), .null, .array([])]))
                == "[1, 2.5, true, null, []]")
        #expect(TwarcCSVCellText.cell(.object(JSONObject())) == "")
        #expect(TwarcCSVCellText.cell(.string("a\r\nb\rc\nd")) == #"a\nbc\nd"#)
    }

    @Test func storeModelPagesGoThroughTheSameWriter() throws {
        // Today's export path: the stored model written as its twarc2 line, then the line's rows.
        let page = try APIResponseDecoder.decodePage(from: Fixtures.searchPage.data)
        let metadata = TwarcMetadata(url: "tweetsh:local:fish", retrievedAt: Date(timeIntervalSince1970: 0))
        var exporter = PageExporter(
            format: .csv, metadata: metadata, columns: try TwarcCSVColumns(parsing: "id,text,__twarc.url"))
        let lines = exporter.encode(page).split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0] == "id,text,__twarc.url")
        #expect(lines[2].hasPrefix(#"1460323737035677697,"This original is much longer"#))
        #expect(lines[2].hasSuffix(",tweetsh:local:fish"))
    }

    /// A store page whose tweets came from two fetches is two twarc2 lines, one per `__twarc` block. The CSV writer
    /// read them as one document, failed to parse it, and wrote no row for any of the page's tweets.
    @Test func aPageOfTweetsFromTwoFetchesGivesARowForEachTweet() throws {
        var page = try APIResponseDecoder.decodePage(from: Fixtures.searchPage.data, keepOriginals: true)
        try #require(page.tweets.count == 2)
        page.originals.twarc = nil
        page.originals.tweetTwarc[page.tweets[0].id] = OriginalJSON(#"{"url":"first","retrieved_at":"a"}"#)
        page.originals.tweetTwarc[page.tweets[1].id] = OriginalJSON(#"{"url":"second","retrieved_at":"b"}"#)
        var jsonl = PageExporter(format: .twarc2JSONL)
        #expect(jsonl.encode(page).split(separator: "\n").count == 2, "one line per fetch")
        var csv = PageExporter(format: .csv, columns: try TwarcCSVColumns(parsing: "id,__twarc.url"))
        let lines = csv.encode(page).split(separator: "\n").map(String.init)
        #expect(lines == ["id,__twarc.url", "\(page.tweets[0].id),first", "\(page.tweets[1].id),second"])
    }
}
