import Foundation
import Testing
import TweetKit
import XAPIStub

@testable import XAPI

@Suite("XAPISource: paging, endpoints and caching over the loopback stub")
struct SourceTests {
    @Test func searchPagesAcrossThreePagesWithNextToken() async throws {
        let harness = try Harness()
        let cache = InMemoryPageCache()
        let source = XAPISource(client: harness.client, cache: cache)
        let request = SearchRequest(query: "#swift", pageSize: 10)
        var cursor: String?
        var pages: [Page] = []
        repeat {
            let page = try await source.search(request, cursor: cursor)
            pages.append(page)
            cursor = page.nextToken
        } while cursor != nil && pages.count < 10
        #expect(pages.map(\.tweets.count) == [10, 10, 5])
        let ids = pages.flatMap(\.tweets).map(\.id)
        #expect(Set(ids).count == StubCorpus.Fixture.swiftCount)
        #expect(ids == ids.sorted(by: >), "recency order across pages")
        #expect(pages[0].newestID == ids.first && pages[2].oldestID == ids.last)
        // Authors arrive through the expansions the client asks for.
        #expect(pages[0].tweets.allSatisfy { pages[0].user($0.authorID) != nil })
        let tweet = try #require(pages[0].tweets.first)
        #expect(tweet.createdAt != nil && tweet.entities.hashtags.first?.tag == "swift" && tweet.metrics != nil)

        let sent = harness.stub.requests(path: "/2/tweets/search/recent")
        #expect(sent.map { $0.query["next_token"] } == [nil, pages[0].nextToken, pages[1].nextToken])
        #expect(sent.allSatisfy { $0.query["max_results"] == "10" && $0.query["sort_order"] == "recency" })
        #expect(sent[0].query["expansions"]?.contains("author_id") == true)
        #expect(sent[0].target.contains("query=%23swift"))

        // Every page went through the cache, each under its cursor, so `more` can resume after a restart.
        let key = XAPISource.cacheKey(for: request)
        let writes = await cache.writes
        #expect(writes.map(\.key) == [key, key, key])
        #expect(writes.map(\.cursor) == [nil, pages[0].nextToken, pages[1].nextToken])
    }

    @Test func resumingAfterARestartUsesTheStoredToken() async throws {
        let harness = try Harness()
        let cache = InMemoryPageCache()
        let request = SearchRequest(query: "#swift", pageSize: 10)
        let first = try await XAPISource(client: harness.client, cache: cache).search(request, cursor: nil)

        // A new source (a new process) with the same store: the first page comes from the cache, the next over the network.
        let later = XAPISource(client: harness.client, cache: cache)
        let cached = try await later.search(request, cursor: nil, policy: .cacheFirst(maxAge: nil))
        #expect(cached.fromCache && cached.page == first)
        let token = try #require(cached.page.nextToken)
        let second = try await later.search(request, cursor: token, policy: .cacheFirst(maxAge: nil))
        #expect(!second.fromCache && second.page.tweets.count == 10)
        #expect(harness.stub.requests.count == 2)
        #expect(harness.stub.requests.last?.query["next_token"] == token)

        // A cached page older than maxAge is fetched again.
        let stale = try await later.search(request, cursor: nil, policy: .cacheFirst(maxAge: -1))
        #expect(!stale.fromCache)
    }

    @Test func moreAfterARestartContinuesFromTheLastCachedPage() async throws {
        let harness = try Harness()
        let cache = InMemoryPageCache()
        let request = SearchRequest(query: "#swift", pageSize: 10)
        let before = XAPISource(client: harness.client, cache: cache)
        let first = try await before.search(request, cursor: nil)
        let second = try await before.search(request, cursor: first.nextToken)

        let after = XAPISource(client: harness.client, cache: cache)
        let last = try #require(try await after.lastCachedPage(for: request))
        #expect(last.cursor == first.nextToken && last.page.page == second)
        let third = try await after.search(request, cursor: last.page.page.nextToken)
        #expect(third.tweets.count == 5 && third.nextToken == nil)
        #expect(Set(first.tweets + second.tweets + third.tweets).count == 25)
        #expect(try await after.lastCachedPage(for: SearchRequest(query: "other")) == nil)
    }

    @Test func newAsksOnlyForWhatIsNewer() async throws {
        let harness = try Harness()
        let cache = InMemoryPageCache()
        let source = XAPISource(client: harness.client, cache: cache)
        let request = SearchRequest(query: "#swift", pageSize: 100)
        let all = try await source.search(request, cursor: nil)
        let newest = try #require(try await source.newestCachedID(for: request))
        #expect(newest == all.newestID)
        var newer = request
        newer.sinceID = all.tweets[3].id
        let page = try await source.search(newer, cursor: nil)
        #expect(page.tweets.map(\.id) == Array(all.tweets.prefix(3)).map(\.id))
        #expect(harness.stub.requests.last?.query["since_id"] == all.tweets[3].id.description)
        #expect(XAPISource.cacheKey(for: newer) != XAPISource.cacheKey(for: request))
    }

    @Test func emptyResultIsAnEmptyPage() async throws {
        let harness = try Harness()
        let page = try await XAPISource(client: harness.client).search(
            SearchRequest(query: "nothingmatchesthis"), cursor: nil)
        #expect(page.tweets.isEmpty && page.nextToken == nil && page.resultCount == 0)
    }

    @Test func fullArchiveTimeBoundsAndSortOrder() async throws {
        let harness = try Harness()
        let start = Date(timeIntervalSince1970: 1_764_460_800 + 120.7)
        let request = SearchRequest(
            query: "#swift", pageSize: 300, sort: .relevancy, startTime: start,
            endTime: Date(timeIntervalSince1970: 1_764_460_800 + 600), fullArchive: true)
        let page = try await XAPISource(client: harness.client).search(request, cursor: nil)
        let sent = try #require(harness.stub.requests.last)
        #expect(sent.path == "/2/tweets/search/all")
        #expect(sent.query["start_time"] == "2025-11-30T00:02:00Z")
        #expect(sent.query["end_time"] == "2025-11-30T00:10:00Z")
        // Full archive would take 300, but not together with context_annotations, which every request asks for.
        #expect(sent.query["sort_order"] == "relevancy" && sent.query["max_results"] == "100")
        #expect(page.tweets.count == 8)
    }

    @Test func lookupOneAndManyAndTooMany() async throws {
        let harness = try Harness()
        let source = XAPISource(client: harness.client)
        let one = try await source.lookup(ids: [StubCorpus.Fixture.withMedia])
        #expect(one.tweets.first?.text == "Fish &amp; chips &lt;3 🐟 #lunch")
        #expect(one.media.first?.altText == "A plate of fish and chips")
        #expect(harness.stub.requests.last?.path == "/2/tweets/\(StubCorpus.Fixture.withMedia)")
        let retweet = try await source.lookup(ids: [
            StubCorpus.Fixture.retweet, StubCorpus.Fixture.threadRoot, StubCorpus.Fixture.retweet,
        ])
        #expect(retweet.tweets.map(\.id) == [StubCorpus.Fixture.retweet, StubCorpus.Fixture.threadRoot])
        #expect(retweet.tweet(StubCorpus.Fixture.threadRoot)?.text == "A thread on structured concurrency 🧵")
        #expect(
            harness.stub.requests.last?.query["ids"] == "\(StubCorpus.Fixture.retweet),\(StubCorpus.Fixture.threadRoot)"
        )
        let unknown = try await source.lookup(ids: [42])
        #expect(unknown.tweets.isEmpty && unknown.errors.first?.resourceID == "42")
        let tooMany = await capture { _ = try await source.lookup(ids: (1...101).map { TweetID(UInt64($0)) }) }
        #expect("\(tooMany!)".contains("1 to 100 tweet ids"))
        let none = await capture { _ = try await source.lookup(ids: []) }
        #expect(none is XAPIError)
    }

    @Test func userTimelinePagesWithPaginationToken() async throws {
        let harness = try Harness()
        let cache = InMemoryPageCache()
        let source = XAPISource(client: harness.client, cache: cache)
        var cursor: String?
        var counts: [Int] = []
        repeat {
            let page = try await source.userTimeline(username: "@alice", cursor: cursor, limit: 5)
            counts.append(page.tweets.count)
            #expect(page.tweets.allSatisfy { $0.authorID == StubCorpus.Fixture.alice })
            cursor = page.nextToken
        } while cursor != nil && counts.count < 10
        #expect(counts == [5, 5, 2])
        let timeline = harness.stub.requests(path: "/2/users/1001/tweets")
        #expect(timeline.map { $0.query["pagination_token"] == nil } == [true, false, false])
        #expect(timeline.allSatisfy { $0.query["next_token"] == nil })
        #expect(harness.stub.requests(path: "/2/users/by/username/alice").count == 1, "the id is looked up once")
        #expect(await cache.writes.count == 3)
    }

    @Test func unknownAndInvalidUsers() async throws {
        let harness = try Harness()
        let source = XAPISource(client: harness.client)
        let user = try await source.user(username: "XDevelopers")
        #expect(user.id == StubCorpus.Fixture.developers && user.verified)
        let unknown = await capture { _ = try await source.user(username: "nobody_here") }
        #expect("\(unknown!)".contains("No user @nobody_here"))
        let invalid = await capture {
            _ = try await source.userTimeline(username: "not a handle!", cursor: nil, limit: 10)
        }
        #expect("\(invalid!)".contains("not a valid X username"))
        #expect(harness.stub.requests.count == 2)
    }

    @Test func conversationSearchesByConversationID() async throws {
        let harness = try Harness()
        let page = try await XAPISource(client: harness.client).conversation(
            id: StubCorpus.Fixture.threadRoot, cursor: nil, limit: 20)
        #expect(page.tweets.count == 5)
        #expect(page.tweets.allSatisfy { $0.conversationID == StubCorpus.Fixture.threadRoot })
        #expect(harness.stub.requests.last?.query["query"] == "conversation_id:\(StubCorpus.Fixture.threadRoot)")
    }

    /// `since:` and `until:` exist only locally: X gets them as the time bounds, and a query it would reject is refused
    /// before any request.
    @Test func sinceAndUntilBecomeTheTimeBounds() async throws {
        let harness = try Harness()
        let source = XAPISource(client: harness.client)
        _ = try await source.search(SearchRequest(query: "#swift since:2021-11-01 until:2021-12-01"), cursor: nil)
        let sent = try #require(harness.stub.requests.last?.query)
        #expect(sent["query"] == "#swift")
        #expect(sent["start_time"] == "2021-11-01T00:00:00Z")
        #expect(sent["end_time"] == "2021-12-01T00:00:00Z")
        let plain = SearchRequest(query: "#Swift  from:XDevelopers")
        _ = try await source.search(plain, cursor: nil)
        #expect(
            harness.stub.requests.last?.query["query"] == "#Swift  from:XDevelopers",
            "without them, the text goes as typed")
        let refused = await capture { _ = try await source.search(SearchRequest(query: "lang:ja"), cursor: nil) }
        guard case .invalidRequest(let message)? = refused as? XAPIError else {
            Issue.record("expected invalidRequest, got \(String(describing: refused))")
            return
        }
        #expect(message.contains("is:, has:, lang: and sample:"))
        #expect(harness.stub.requests.count == 2)
    }

    @Test func malformedBodyIsATypedError() async throws {
        let harness = try Harness(retry: RetryPolicy(maxAttempts: 1))
        harness.stub.enqueue(.tokenTypeNotBearer)
        let error = await capture {
            _ = try await XAPISource(client: harness.client).search(SearchRequest(query: "#swift"), cursor: nil)
        }
        guard case .malformedResponse(let endpoint, _)? = error as? XAPIError else {
            Issue.record("expected malformedResponse, got \(String(describing: error))")
            return
        }
        #expect(endpoint == "GET /2/tweets/search/recent")
    }
}
