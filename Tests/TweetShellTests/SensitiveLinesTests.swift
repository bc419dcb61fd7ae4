import XCTest

@testable import TweetShell

/// The secret rule in words: what is a bearer-token shape, what a quote exempts, and what stays out of history.
final class SensitiveLinesTests: XCTestCase {
    private let shaped = "AAAAAAAAAAAAAAAAAAAAAOtherAppsToken%2BzQ9%3DkLmN0pQrStUvWxYz0123"

    func testBearerShapesAndOrdinaryLongWords() {
        XCTAssertTrue(SensitiveLines.hasBearerShape(shaped))
        XCTAssertTrue(SensitiveLines.hasBearerShape("(\(shaped))"), "brackets around it do not hide it")
        XCTAssertTrue(SensitiveLines.hasBearerShape("xYz0123456789abcdefghijklmnopqrstuv%3Dwxyz"), "escapes alone")
        XCTAssertTrue(SensitiveLines.hasBearerShape(String(repeating: "A", count: 30) + "0123456789bcd"))
        for ordinary in [
            "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
            "0x52908400098527886E0F7030069857D2E4169EE7", "Pneumonoultramicroscopicsilicovolcanoconiosis",
            "https://example.com/a/very/long/path/that/goes/on/and/on", String(shaped.prefix(39)),
            "dGhpcyBpcyBqdXN0IHNvbWUgYmFzZTY0IHRleHQgd2l0aG91dCBlc2NhcGVz+/==",
        ] {
            XCTAssertFalse(SensitiveLines.hasBearerShape(ordinary), ordinary)
        }
    }

    func testQuotedWordsAreNotJudged() {
        XCTAssertEqual(SensitiveLines.bearerShapedWords(in: "leaked \(shaped) lang:en"), [shaped])
        XCTAssertEqual(SensitiveLines.bearerShapedWords(in: "leaked \"\(shaped)\" lang:en"), [])
        XCTAssertEqual(SensitiveLines.bearerShapedWords(in: "\"a b\" \(shaped)"), [shaped])
    }

    func testHistoryKeepsOutAuthLinesTokenShapesAndTheUsersOwnSecrets() {
        let own = OwnSecrets(
            tokenIsHeld: { $0.contains("MyOwnToken") }, environment: ["CONSUMER_SECRET": "consumer-secret-value"])
        XCTAssertTrue(own.isSensitive("auth AAAAsomething"))
        XCTAssertFalse(own.isSensitive("auth status"))
        XCTAssertTrue(own.isSensitive("search \(shaped)"))
        XCTAssertTrue(own.isSensitive("search MyOwnToken"))
        XCTAssertTrue(own.isSensitive("search x consumer-secret-value"))
        XCTAssertFalse(own.isSensitive("search 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"))
        XCTAssertTrue(own.appear(in: "swift MyOwnToken lang:en"))
        XCTAssertFalse(own.appear(in: "swift lang:en"))
    }
}
