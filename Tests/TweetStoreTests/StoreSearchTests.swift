import Foundation
import Testing
import TweetKit

@testable import TweetStore

@Suite("Store search semantics")
struct StoreSearchTests {
    func ids(_ store: TweetStore, _ query: String, sort: SearchRequest.Sort = .recency) async throws -> [UInt64] {
        let page = try await store.search(SearchRequest(query: query, pageSize: 50, sort: sort), cursor: nil)
        return page.tweets.map(\.id.rawValue)
    }

    @Test func everyOperatorSelectsWhatItShould() async throws {
        let store = try await Fixtures.store()
        let cases: [(String, [UInt64])] = [
            ("swift", [500, 100]),
            ("SWIFT concurrency", [100]),
            ("\"swift is\"", [500]),
            ("\"is swift\"", []),
            ("swift OR rust", [500, 200, 100]),
            ("swift -concurrency", [500]),
            ("-swift", [600, 400, 300, 200]),
            ("(swift OR rust) -fast", [200, 100]),
            ("#SwiftLang", [100]),
            ("#swiftlang", [100]),
            ("#swift", []),
            ("$AAPL", [500]),
            ("@bob", [100]),
            ("@carol", [400]),
            ("from:alice", [400, 100]),
            ("from:ALICE", [400, 100]),
            ("from:bob", [500, 200]),
            ("from:1", [400, 100]),
            ("from:nobody", []),
            ("to:alice", [200]),
            ("lang:fr", [400, 300]),
            ("lang:EN", [500, 200, 100]),
            ("-lang:fr", [600, 500, 200, 100]),
            ("is:retweet", [400]),
            ("is:reply", [200]),
            ("is:quote", [500]),
            ("-is:retweet -is:reply -is:quote", [600, 300, 100]),
            ("has:links", [300]),
            ("has:media", [500]),
            ("has:mentions", [400, 100]),
            ("has:hashtags", [100]),
            ("url:example.com", [300]),
            ("url:rockets", [300]),
            ("conversation_id:100", [200, 100]),
            // The root is found by its id (it has no index token), a reply is no conversation's root, a tweet whose
            // conversation is unknown starts its own, and a tweet stored only as a reference is never a result.
            ("conversation_id:200", []),
            ("conversation_id:600", [600]),
            ("conversation_id:50", []),
            ("-conversation_id:100", [600, 500, 400, 300]),
            ("conversation_id:100 swift", [100]),
            ("conversation_id:100 rust", [200]),
            ("conversation_id:100 -is:reply", [100]),
            ("conversation_id:300 OR conversation_id:100", [300, 200, 100]),
            ("conversation_id:100 OR lang:und", [600, 200, 100]),
            ("min_likes:50", [300, 100]),
            ("min_reposts:10", [300]),
            ("min_replies:1", [100]),
            ("since:2024-02-10", [500, 400, 300, 200]),
            ("until:2024-01-01", [600]),
            ("since:2024-01-01 until:2024-03-11", [300, 200, 100]),
            ("cafe", [400, 300]),
            ("naïve", [400, 300]),
            ("AT&T", [300]),
            ("amp", []),
            ("🚀", [300]),
            ("from:alice OR #nothing", [400, 100]),
            ("swift from:bob", [500]),
            ("(from:alice lang:en) OR is:quote", [500, 100]),
            ("-from:alice -from:bob", [600, 300]),
            ("included", []),
        ]
        for (query, expected) in cases {
            #expect(try await ids(store, query) == expected, "\(query)")
        }
    }

    @Test func pagesCarryWhatTheirTweetsReferTo() async throws {
        let store = try await Fixtures.store()
        let page = try await store.search(SearchRequest(query: "is:retweet OR is:quote"), cursor: nil)
        #expect(page.tweets.map(\.id) == [500, 400])
        #expect(Set(page.includedTweets.map(\.id)) == [300, 100])
        #expect(Set(page.users.map(\.username)) == ["alice", "Bob", "carol"])
        #expect(page.media.map(\.altText) == ["a chart"])
        #expect(page.newestID == 500 && page.oldestID == 400)
        #expect(page.resultCount == 2)
        #expect(page.nextToken == nil)
    }

    @Test func storedTweetsReadBackExactly() async throws {
        let store = try await Fixtures.store()
        let page = try await store.lookup(ids: [100, 300, 50, 999, 500])
        for tweet in page.tweets {
            #expect(tweet == Fixtures.page.tweet(tweet.id), "\(tweet.id)")
        }
        #expect(page.tweets.map(\.id) == [100, 300, 50, 500])
        #expect(page.errors.map(\.value) == ["999"])
        #expect(page.errors.first?.title == "Not Found Error")
        #expect(page.user(1) == Fixtures.alice)
    }

    @Test func timelineAndConversation() async throws {
        let store = try await Fixtures.store()
        #expect(
            try await store.userTimeline(username: "@Alice", cursor: nil, limit: 10).tweets.map(\.id) == [400, 100])
        let thread = try await store.conversation(id: 100, cursor: nil, limit: 1)
        #expect(thread.tweets.map(\.id) == [200])
        let rest = try await store.conversation(id: 100, cursor: thread.nextToken, limit: 1)
        #expect(rest.tweets.map(\.id) == [100])
        await #expect(throws: StoreError.self) {
            try await store.userTimeline(username: "no spaces", cursor: nil, limit: 5)
        }
    }

    @Test func relevanceRanksDenserMatchesFirst() async throws {
        let store = try TweetStore(location: .inMemory)
        try await store.insert([
            Page(tweets: [
                Tweet(id: 1, text: "rust rust rust rust"),
                Tweet(id: 2, text: "rust and a long sentence about many other unrelated things entirely"),
                Tweet(id: 3, text: "rust rust"),
            ])
        ])
        #expect(try await ids(store, "rust", sort: .relevancy) == [1, 3, 2])
        #expect(try await ids(store, "rust") == [3, 2, 1])
        // Without words to rank, relevance falls back to recency.
        #expect(try await ids(store, "-nothing", sort: .relevancy) == [3, 2, 1])
    }

    @Test func badQueriesAndCursorsAreErrorsNotCrashes() async throws {
        let store = try await Fixtures.store()
        await #expect(throws: QueryParseError.self) {
            try await store.search(SearchRequest(query: "a OR"), cursor: nil)
        }
        await #expect(throws: StoreError.self) {
            try await store.search(SearchRequest(query: "swift"), cursor: "nonsense")
        }
        await #expect(throws: StoreError.self) {
            try await store.search(SearchRequest(query: "swift", sort: .relevancy), cursor: "r100")
        }
        // Words that FTS5 treats as operators are searched as words.
        for word in ["NOT", "AND", "NEAR", "col:umn", "a*", "\"a\"\"b\"", "^x", "x:y"] {
            _ = try await store.search(SearchRequest(query: word), cursor: nil)
        }
    }

    @Test func reimportReplacesIndexedText() async throws {
        let store = try await Fixtures.store()
        var changed = Fixtures.page
        changed.tweets[5].text = "Kotlin coroutines instead"
        changed.tweets[5].entities = TweetEntities()
        try await store.insert([changed])
        try await store.insert([changed])
        #expect(try await ids(store, "concurrency") == [])
        #expect(try await ids(store, "coroutines") == [100])
        #expect(try await ids(store, "#SwiftLang") == [])
        // An included copy arriving later never demotes a stored search result.
        try await store.insert([Page(includedTweets: [Tweet(id: 500, text: "other")])])
        #expect(try await ids(store, "swift") == [500])
        // And a tweet first seen as included becomes searchable once it arrives as a result.
        try await store.insert([Page(tweets: [Tweet(id: 50, text: "the included original about swift")])])
        #expect(try await ids(store, "swift") == [500, 50])
        try await store.checkIntegrity()
        let stats = try await store.statistics()
        #expect(stats.tweets == 7 && stats.includedTweets == 0 && stats.users == 4)
    }

    @Test func sameTweetTwiceInOneBatchIndexesTheLastCopy() async throws {
        let store = try await Fixtures.store()
        try await store.insert([
            Page(tweets: [Tweet(id: 100, text: "first edit banana")]),
            Page(tweets: [Tweet(id: 100, text: "second edit cherry"), Tweet(id: 700, text: "banana bread")]),
        ])
        #expect(try await ids(store, "banana") == [700])
        #expect(try await ids(store, "cherry") == [100])
        #expect(try await ids(store, "concurrency") == [])
        try await store.checkIntegrity()
    }

    /// While a word is being typed (`live`), the last word, tag or mention also matches words that start with it.
    @Test func unfinishedLastWordMatchesAsAPrefix() async throws {
        let store = try await Fixtures.store()
        func typing(_ query: String) async throws -> [UInt64] {
            var request = SearchRequest(query: query, pageSize: 50)
            request.prefixLastWord = true
            return try await store.search(request, cursor: nil).tweets.map(\.id.rawValue)
        }
        #expect(try await ids(store, "swi") == [])
        #expect(try await typing("swi") == [500, 100])
        #expect(try await typing("Swift conc") == [100])
        #expect(try await typing("concurrency swi") == [100])
        #expect(try await typing("conc swift") == [], "only the last word is unfinished")
        #expect(try await typing("conc swi") == [], "an earlier word must be whole")
        #expect(try await typing("#swiftl") == [100])
        #expect(try await typing("@bo") == [100])
        #expect(try await typing("caf") == [400, 300], "accents fold as in whole words")
        #expect(try await typing("is -swi") == [500, 100], "a negated last word keeps its exact meaning")
        #expect(try await typing("s") == [], "one letter is not widened")
        #expect(try await typing("swift OR rus") == [500, 100], "inside OR it keeps its exact meaning")
        // Paging and counting use the same widened expression.
        var request = SearchRequest(query: "swi", pageSize: 1)
        request.prefixLastWord = true
        let first = try await store.search(request, cursor: nil)
        #expect(first.tweets.map(\.id) == [500] && first.resultCount == 2)
        let second = try await store.search(request, cursor: first.nextToken)
        #expect(second.tweets.map(\.id) == [100] && second.nextToken == nil)
    }

    @Test func explainShowsTheCompiledForm() async throws {
        let store = try await Fixtures.store()
        let plan = try await store.explain(SearchQuery(parsing: "swift (#a OR @b) -rust from:alice lang:en"))
        // from: is looked up in the index by the author's id (alice is user 1), so it joins the words' expression.
        #expect(
            plan.contains(
                "match: ((body:\"swift\" AND (tags:\"a\" OR mentions:\"b\") AND refs:\"a1\") NOT (body:\"rust\"))"),
            "\(plan)")
        #expect(plan.contains("where: (coalesce(t.lang = ? COLLATE NOCASE, 0))"))
        #expect(plan.contains("values: 'en'"))
        let nobody = try await store.explain(SearchQuery(parsing: "from:nobody swift"))
        #expect(nobody.contains("match: body:\"swift\"") && nobody.contains("where: (0)"), "\(nobody)")
        let scan = try await store.explain(SearchQuery(parsing: "is:reply"))
        #expect(scan.hasPrefix("match: (none"))
    }

    @Test func requestBoundsApply() async throws {
        let store = try await Fixtures.store()
        let request = SearchRequest(query: "-zzz", sinceID: 200, untilID: 600)
        #expect(try await store.search(request, cursor: nil).tweets.map(\.id) == [500, 400, 300])
        let timed = SearchRequest(
            query: "-zzz", startTime: Fixtures.day("2024-03-10"), endTime: Fixtures.day("2024-04-10"))
        #expect(try await store.search(timed, cursor: nil).tweets.map(\.id) == [400, 300])
    }
}
