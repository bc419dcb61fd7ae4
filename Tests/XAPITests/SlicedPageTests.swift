import Foundation
import Testing
import TweetKit
import XAPIStub

@testable import XAPI

@Suite("Pages below the API's minimum, and the token test that reveals nothing")
struct SlicedPageTests {
    @Test func slicedCursorsRoundTripAndNeverMatchAnAPIToken() {
        for cursor in [SlicedCursor(apiCursor: nil, offset: 2), SlicedCursor(apiCursor: "b26v89c19zqg8o3f", offset: 7)]
        {
            #expect(SlicedCursor(cursor.token) == cursor)
        }
        #expect(SlicedCursor("b26v89c19zqg8o3fpzbkk") == nil)
        #expect(SlicedCursor("~x~abc") == nil)
        #expect(SlicedCursor("~-1~") == nil)
    }

    @Test func theTokenIsHeldWholeDecodedOrByALongPrefix() throws {
        let token = try #require(BearerToken(StubServer.defaultBearerToken))
        let raw = StubServer.defaultBearerToken
        #expect(token.isHeld(in: raw))
        #expect(token.isHeld(in: "x\(raw)y"))
        #expect(token.isHeld(in: raw.removingPercentEncoding!))
        #expect(token.isHeld(in: String(raw.prefix(BearerToken.revealingPrefixLength))))
        #expect(!token.isHeld(in: String(raw.prefix(BearerToken.revealingPrefixLength - 1))))
        #expect(!token.isHeld(in: "AAAAAAAAAAAAAAAAAAAAAOtherAppsToken%2BzQ9%3DkLmN0pQrStUvWxYz0123"))
        let client = XAPIClient(token: token)
        #expect(client.tokenIsHeld(in: raw) && !client.tokenIsHeld(in: "swift"))
        #expect(!XAPIClient().tokenIsHeld(in: raw), "no token, nothing held")
    }

    @Test func aSmallPageIsCutFromOneRequestAndContinuesAcrossPages() async throws {
        let stub = try StubServer()
        defer { stub.stop() }
        let client = XAPIClient(
            configuration: XAPIClient.Configuration(settings: XAPISettings(baseURL: stub.baseURL)),
            token: BearerToken(StubServer.defaultBearerToken))
        let source = XAPISource(client: client, cache: InMemoryPageCache())
        let request = SearchRequest(query: "#swift", pageSize: 4)
        var seen: [TweetID] = []
        var cursor: String?
        var sizes: [Int] = []
        repeat {
            let page = try await source.search(request, cursor: cursor, policy: .cacheFirst(maxAge: nil)).page
            sizes.append(page.tweets.count)
            seen += page.tweets.map(\.id)
            cursor = page.nextToken
        } while cursor != nil
        #expect(sizes == [4, 4, 4, 4, 4, 4, 1])
        #expect(Set(seen).count == StubCorpus.Fixture.swiftCount)
        #expect(stub.requests(path: "/2/tweets/search/recent").count == 3, "three pages of ten, each fetched once")
    }
}
