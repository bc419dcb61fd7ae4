import Foundation
import Testing

@testable import TweetKit

/// Flattened lines (`twarc2 flatten`) are spliced from and split into originals by their bytes, so values that a
/// `Double` or a resolved escape would change come back exactly as they were written.
@Suite struct ExactFlatteningTests {
    /// Values a tree would rewrite: an integer past 64 bits, one past a `Double`'s range, a negative zero, an
    /// exponent, a decimal with more digits than a `Double` holds, and a lone surrogate.
    static let odd =
        #""big":123456789012345678901234567890,"huge":1.0e400,"neg":-0,"exp":1E2,"#
        + #""dec":0.1000000000000000055511151231257827,"lone":"\ud800 \u00e9""#
    static let quoted =
        #"{"id":"1690000000000000004","text":"quoted \u2019","author_id":"103","#
        + #""geo":{"place_id":"p1","coordinates":{"type":"Point","coordinates":[-73.98000,40.0]}}}"#
    static let tweet =
        #"{"id":"1700000000000000007","text":"see \ud83d\ude00","author_id":"101","in_reply_to_user_id":"103","#
        + odd
        + #","attachments":{"media_keys":["3_9"],"poll_ids":["55"]},"#
        + #""referenced_tweets":[{"type":"quoted","id":"1690000000000000004"},{"type":"replied_to","id":"9"}]}"#
    static let users = [
        #"{"id":"101","username":"ada","name":"Ada","public_metrics":{"followers_count":18446744073709551616}}"#,
        #"{"id":"103","username":"cy","name":"C\u0079","protected":true}"#,
    ]
    static let media = #"{"media_key":"3_9","type":"video","duration_ms":1.50,"variants":[{"bit_rate":832000}]}"#
    static let poll = #"{"id":"55","options":[{"position":1,"label":"yes","votes":3}]}"#
    static let place = #"{"id":"p1","full_name":"Somewhere","geo":{"bbox":[-122.50,37.70,-122.3,37.8]}}"#

    /// The page as the API would send it.
    static var page: String {
        #"{"data":["# + tweet + #"],"includes":{"users":["# + users.joined(separator: ",") + #"],"tweets":["#
            + quoted + #"],"media":["# + media + #"],"polls":["# + poll + #"],"places":["# + place + "]},"
            + #""__twarc":{"url":"https://api.twitter.com/2/tweets/search/all?query=x","version":"2.14.0","#
            + #""retrieved_at":"2024-03-01T10:00:05+00:00"}}"#
    }

    func decoded(_ line: String) throws -> Page {
        try #require(try CollectionLineDecoder.decode(line: Data(line.utf8), keepOriginals: true))
    }

    func flattened(_ page: Page) -> String {
        var exporter = PageExporter(format: .flattenedJSONL)
        return exporter.encode(page)
    }

    @Test func theFlattenedLineHoldsEveryObjectByteForByte() throws {
        let line = flattened(try decoded(Self.page)).split(separator: "\n")[0]
        for piece in [Self.odd, Self.media, Self.poll, Self.place, Self.users[0], Self.users[1]] {
            #expect(line.contains(piece), "\(piece) in \(line)")
        }
        #expect(line.contains(#""text":"see \ud83d\ude00""#))
        #expect(line.contains(#""attachments":{"media_keys":["3_9"],"poll_ids":["55"],"media":["# + Self.media))
        #expect(line.contains(#","poll":"# + Self.poll + "}"))
        // The quoted tweet expanded one level, with its author and its place; the reply keeps its plain link.
        #expect(line.contains(#"{"type":"quoted","id":"1690000000000000004","text":"quoted \u2019""#))
        #expect(line.contains(#""coordinates":[-73.98000,40.0]},"place":"# + Self.place + #"},"author":"#))
        #expect(line.contains(#"{"type":"replied_to","id":"9"}"#))
        #expect(line.contains(#""in_reply_to_user":"# + Self.users[1]))
        #expect(line.hasSuffix(#""retrieved_at":"2024-03-01T10:00:05+00:00"}}"#))
    }

    @Test func aFlattenedLineSplitsBackIntoTheObjectsAsWritten() throws {
        let line = String(flattened(try decoded(Self.page)).split(separator: "\n")[0])
        let again = try decoded(line)
        #expect(again.originals.tweets[1_700_000_000_000_000_007]?.text == Self.tweet)
        #expect(again.originals.tweets[1_690_000_000_000_000_004]?.text == Self.quoted)
        #expect(again.originals.users[101]?.text == Self.users[0])
        #expect(again.originals.users[103]?.text == Self.users[1])
        #expect(again.originals.media["3_9"]?.text == Self.media)
        #expect(again.originals.polls["55"]?.text == Self.poll)
        #expect(again.originals.places["p1"]?.text == Self.place)
        #expect(flattened(again) == line + "\n", "flattened again, the same line")
    }

    @Test func aSpacedFlattenedLineKeepsCompactOriginals() throws {
        let spaced = #"{ "id" : "5", "text" : "a  b", "author" : { "id" : "7", "username" : "x" }, "n" : 1E2 }"#
        let page = try decoded(spaced)
        #expect(page.originals.tweets[5]?.text == #"{"id":"5","text":"a  b","n":1E2}"#)
        #expect(page.originals.users[7]?.text == #"{"id":"7","username":"x"}"#)
    }

    /// A lookup by id answers with one object under `data`: it too is kept as it came, in a file and from the API.
    @Test func aLookupsSingleObjectIsKeptAsWritten() throws {
        let body =
            #"{"data":"# + Self.tweet + #","includes":{"users":["# + Self.users[0] + #"],"media":["# + Self.media
            + "]}}"
        let fromFile = try decoded(body)
        let fromAPI = try APIResponseDecoder.decodePage(from: Data(body.utf8), keepOriginals: true)
        for page in [fromFile, fromAPI] {
            #expect(page.tweets.map(\.id) == [1_700_000_000_000_000_007])
            #expect(page.originals.tweets[1_700_000_000_000_000_007]?.text == Self.tweet)
            #expect(page.originals.users[101]?.text == Self.users[0])
            #expect(page.originals.media["3_9"]?.text == Self.media)
        }
        let user = #"{"data":"# + Self.users[0] + "}"
        #expect(try decoded(user).originals.users[101]?.text == Self.users[0])
    }
}
