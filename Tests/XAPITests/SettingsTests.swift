import Foundation
import Testing

@testable import XAPI

@Suite("Settings: base URL precedence, URL building, User-Agent")
struct SettingsTests {
    @Test func environmentWinsOverConfigWhichWinsOverDefault() throws {
        #expect(try XAPISettings.resolve(config: [:], environment: [:]).baseURL.absoluteString == "https://api.x.com")
        let config = ["api_base": "https://api.twitter.com/"]
        #expect(
            try XAPISettings.resolve(config: config, environment: [:]).baseURL.absoluteString
                == "https://api.twitter.com")
        let both = try XAPISettings.resolve(config: config, environment: ["TWEETSH_API_BASE": "http://127.0.0.1:8080"])
        #expect(both.baseURL.absoluteString == "http://127.0.0.1:8080")
        let blank = try XAPISettings.resolve(config: config, environment: ["TWEETSH_API_BASE": "  "])
        #expect(blank.baseURL.absoluteString == "https://api.twitter.com")
        #expect(try XAPISettings.resolve(environment: [:], version: "1.2.3").userAgent == "tweetsh/1.2.3")
    }

    @Test func unusableBaseURLSaysWhereItCameFrom() {
        #expect(
            throws: XAPIError.invalidSetting(
                "config key api_base is \"api.x.com\", which is not an http(s) URL; use e.g. https://api.x.com")
        ) {
            try XAPISettings.resolve(config: ["api_base": "api.x.com"], environment: [:])
        }
        #expect(throws: XAPIError.self) {
            try XAPISettings.resolve(config: [:], environment: ["TWEETSH_API_BASE": "ftp://example.com"])
        }
    }

    @Test func queryIsStrictlyPercentEncoded() throws {
        let settings = XAPISettings(baseURL: URL(string: "https://api.x.com/proxy")!)
        let url = try #require(
            settings.url(
                path: "/2/tweets/search/recent",
                query: [
                    URLQueryItem(name: "query", value: "#swift (a OR b) -is:retweet lang:en \"x+y\" 🐦"),
                    URLQueryItem(name: "tweet.fields", value: "author_id,created_at"),
                ]))
        #expect(
            url.absoluteString
                == "https://api.x.com/proxy/2/tweets/search/recent?query=%23swift%20%28a%20OR%20b%29%20-is%3A"
                + "retweet%20lang%3Aen%20%22x%2By%22%20%F0%9F%90%A6&tweet.fields=author_id%2Ccreated_at")
    }

    @Test func subSecondTimeoutsBecomeOneSecond() {
        #expect(XAPISettings(requestTimeout: 0.2).effectiveRequestTimeout == 1)
        #expect(XAPISettings(requestTimeout: 2.5).effectiveRequestTimeout == 3)
    }

    @Test func timestampsAreWholeSecondUTC() {
        #expect(XAPIFields.timestamp(Date(timeIntervalSince1970: 1_637_000_000.9)) == "2021-11-15T18:13:20Z")
    }

    @Test func problemTypesMatchByLastPathComponent() {
        let body = Data(#"{"title":"x","type":"https://api.x.com/2/problems/client-forbidden","reason":"r"}"#.utf8)
        #expect(
            ResponseClassifier.classify(status: 403, headers: [:], body: body, endpoint: "E")
                == .fail(.clientForbidden(endpoint: "E", reason: "r")))
        // A 429 with requests left in the window is a per-second limit, unless the body names the usage cap.
        let tooMany = Data(#"{"title":"Too Many Requests","type":"about:blank","status":429}"#.utf8)
        #expect(
            ResponseClassifier.classify(
                status: 429, headers: ["x-rate-limit-remaining": "3"], body: tooMany, endpoint: "E")
                == .waitBriefly)
        let cap = Data(#"{"title":"UsageCapExceeded","period":"Daily"}"#.utf8)
        #expect(
            ResponseClassifier.classify(status: 429, headers: ["x-rate-limit-remaining": "0"], body: cap, endpoint: "E")
                == .fail(.usageCapExceeded(endpoint: "E", period: "Daily", detail: nil)))
        #expect(
            ResponseClassifier.classify(
                status: 429, headers: ["x-rate-limit-reset": "100"], body: Data(), endpoint: "E")
                == .waitForWindow(resetAt: Date(timeIntervalSince1970: 100)))
        #expect(
            ResponseClassifier.classify(status: 418, headers: [:], body: Data(), endpoint: "E")
                == .fail(.unexpectedStatus(endpoint: "E", status: 418, detail: nil)))
    }
}
