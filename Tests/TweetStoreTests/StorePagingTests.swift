import Foundation
import Testing
import TweetKit

@testable import TweetStore

@Suite("Store paging")
struct StorePagingTests {
    /// 257 tweets: every one says "common", every third also "rare", and the number of "common"s varies so bm25 ties.
    static func store(countLimit: Int = 1_000) async throws -> TweetStore {
        let store = try TweetStore(location: .inMemory, countLimit: countLimit)
        let tweets = (1...257).map { n in
            Tweet(
                id: TweetID(UInt64(n) * 7),
                text: Array(repeating: "common", count: 1 + n % 4).joined(separator: " ")
                    + (n % 3 == 0 ? " rare" : "") + " filler\(n)", authorID: UserID(UInt64(n % 5 + 1)))
        }
        try await store.insert([
            Page(tweets: tweets, users: (1...5).map { User(id: UserID(UInt64($0)), username: "u\($0)", name: "U") })
        ])
        return store
    }

    func allPages(_ store: TweetStore, _ request: SearchRequest) async throws -> (ids: [UInt64], pages: Int) {
        var ids: [UInt64] = []
        var cursor: String?
        var pages = 0
        repeat {
            let page = try await store.search(request, cursor: cursor)
            ids += page.tweets.map(\.id.rawValue)
            cursor = page.nextToken
            pages += 1
            #expect(page.tweets.count <= request.pageSize)
        } while cursor != nil && pages < 100
        return (ids, pages)
    }

    @Test(arguments: ["common", "rare", "-rare", "from:u2", "common -rare from:u3", "rare OR from:u1"])
    func recencyPagesHaveNoDuplicatesOrGaps(query: String) async throws {
        let store = try await Self.store()
        let (ids, _) = try await allPages(store, SearchRequest(query: query, pageSize: 20))
        let expected = try await store.search(SearchRequest(query: query, pageSize: 1_000), cursor: nil).tweets.map(
            \.id.rawValue)
        #expect(ids == expected)
        #expect(ids == ids.sorted(by: >))
        #expect(!ids.isEmpty)
    }

    @Test func exactPageBoundaryHasNoEmptyTrailingPage() async throws {
        let store = try await Self.store()
        // "rare" matches 85 tweets; 17 per page gives exactly five full pages.
        let (ids, pages) = try await allPages(store, SearchRequest(query: "rare", pageSize: 17))
        #expect(ids.count == 85)
        #expect(pages == 5)
    }

    @Test func relevancePagesCoverEveryMatchOnce() async throws {
        let store = try await Self.store()
        let (ids, _) = try await allPages(store, SearchRequest(query: "common", pageSize: 10, sort: .relevancy))
        #expect(ids.count == 257)
        #expect(Set(ids).count == 257)
        let single = try await store.search(
            SearchRequest(query: "common", pageSize: 1_000, sort: .relevancy), cursor: nil)
        #expect(ids == single.tweets.map(\.id.rawValue))
    }

    @Test func firstPageCountsMatchesWhenCheap() async throws {
        let store = try await Self.store()
        #expect(try await store.search(SearchRequest(query: "rare"), cursor: nil).resultCount == 85)
        let first = try await store.search(SearchRequest(query: "common"), cursor: nil)
        #expect(first.resultCount == 257)
        #expect(try await store.search(SearchRequest(query: "common"), cursor: first.nextToken).resultCount == nil)
        let capped = try await Self.store(countLimit: 100)
        #expect(try await capped.search(SearchRequest(query: "common"), cursor: nil).resultCount == nil)
        #expect(try await capped.search(SearchRequest(query: "rare"), cursor: nil).resultCount == 85)
    }

    @Test func metadataQueriesCountOnlyTenPagesAhead() async throws {
        let store = try await Self.store()
        // "-rare" has no word to look up, so counting reads rows: up to ten pages are counted.
        #expect(try await store.search(SearchRequest(query: "-rare", pageSize: 20), cursor: nil).resultCount == 172)
        #expect(try await store.search(SearchRequest(query: "-rare", pageSize: 10), cursor: nil).resultCount == nil)
        #expect(
            try await store.search(SearchRequest(query: "common from:u1", pageSize: 10), cursor: nil).resultCount == 51)
    }

    @Test func newTweetsDoNotShiftLaterPages() async throws {
        let store = try await Self.store()
        let request = SearchRequest(query: "common", pageSize: 50)
        let first = try await store.search(request, cursor: nil)
        try await store.insert([Page(tweets: [Tweet(id: 100_000, text: "common newest")])])
        let second = try await store.search(request, cursor: first.nextToken)
        #expect(second.tweets.first!.id < first.tweets.last!.id)
        #expect(Set(first.tweets.map(\.id)).isDisjoint(with: second.tweets.map(\.id)))
    }
}
