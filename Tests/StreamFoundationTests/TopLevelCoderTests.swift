import Foundation
import StreamCore
import StreamFoundation
import XCTest

private struct Tweet: Codable, Equatable {
    var id: String
    var text: String
}

/// Uses the coders only through the protocols, which is how `encode(encoder:)` and `decode(type:decoder:)` see them.
private func roundTrip<E: TopLevelEncoder, D: TopLevelDecoder>(_ value: Tweet, _ encoder: E, _ decoder: D) throws
    -> Tweet
where E.Output == D.Input {
    try decoder.decode(Tweet.self, from: encoder.encode(value))
}

final class TopLevelCoderTests: XCTestCase {
    func testJSONCodersConform() throws {
        let tweet = Tweet(id: "1", text: "hello")
        XCTAssertEqual(try roundTrip(tweet, JSONEncoder(), JSONDecoder()), tweet)
        let data: Data = try JSONEncoder().encode(tweet)
        XCTAssertTrue(String(decoding: data, as: UTF8.self).contains("\"text\":\"hello\""))
    }

    func testPropertyListCodersConform() throws {
        let tweet = Tweet(id: "2", text: "plist")
        XCTAssertEqual(try roundTrip(tweet, PropertyListEncoder(), PropertyListDecoder()), tweet)
    }

    func testDecodingErrorsSurface() {
        XCTAssertThrowsError(try JSONDecoder().decode(Tweet.self, from: Data("{\"id\":1}".utf8)))
    }
}
