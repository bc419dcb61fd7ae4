import Foundation
import Testing
import TweetKit

@testable import TweetStore

/// Generated tweets whose ids are snowflakes of their times, with words, entities, languages and authors drawn at
/// random, plus a few pre-snowflake tweets from 2008.
enum ExploreCorpus {
    static let words = ["coffee", "rain", "swift", "data", "open", "river", "music", "vote", "city", "night"]
    static let tags = ["News", "news", "Swift", "OpenData", "Vote2024"]
    static let handles = ["alice", "bob", "carol", "dave", "erin"]
    static let domains = ["example.com", "www.example.org", "news.site", "blog.example.com"]
    static let langs = ["en", "fr", "es", "de"]

    static func page(count: Int, seed: UInt64) -> Page {
        var random = SplitMix64(seed: seed)
        let start: Int64 = 1_700_000_000_000  // 2023-11-14
        var tweets: [Tweet] = []
        var used = Set<UInt64>()
        for index in 0..<count {
            let time = start + Int64(random.below(90 * 86_400)) * 1_000 + Int64(random.below(1_000))
            var raw = UInt64(time - TweetTime.snowflakeEpochMilliseconds) << 22 | UInt64(random.below(4_000_000))
            while !used.insert(raw).inserted { raw += 1 }
            let wordCount = random.below(5) + 1
            var text = (0..<wordCount).map { _ in random.pick(words) }.joined(separator: " ")
            var entities = TweetEntities()
            if random.chance(0.4) {
                let tag = random.pick(tags)
                entities.hashtags.append(Hashtag(start: text.count + 1, end: text.count + 2 + tag.count, tag: tag))
                text += " #\(tag)"
            }
            if random.chance(0.3) {
                let handle = random.pick(handles)
                entities.mentions.append(Mention(start: 0, end: handle.count + 1, username: handle))
                text += " @\(handle)"
            }
            if random.chance(0.3) {
                let domain = random.pick(domains)
                entities.urls.append(
                    URLEntity(
                        start: 0, end: 23, url: "https://t.co/\(index)", expandedURL: "https://\(domain)/\(index)"))
                text += " https://t.co/\(index)"
            }
            var tweet = Tweet(
                id: TweetID(raw), text: text, authorID: UserID(UInt64(random.below(handles.count) + 1)),
                createdAt: Date(timeIntervalSince1970: Double(time) / 1000), lang: random.pick(langs))
            tweet.entities = entities
            tweet.metrics = TweetMetrics(retweets: random.below(50), replies: 0, likes: random.below(500), quotes: 0)
            if random.chance(0.1) { tweet.referencedTweets = [ReferencedTweet(kind: .retweeted, id: 7)] }
            tweets.append(tweet)
        }
        for old in 0..<5 {
            let time = 1_220_000_000_000 + Int64(old) * 86_400_000  // September 2008
            tweets.append(
                Tweet(
                    id: TweetID(UInt64(900_000 + old)), text: "coffee in the old days", authorID: 1,
                    createdAt: Date(timeIntervalSince1970: Double(time) / 1000), lang: "en"))
        }
        let users = handles.enumerated().map {
            User(id: UserID(UInt64($0.offset + 1)), username: $0.element, name: $0.element)
        }
        return Page(tweets: tweets, users: users)
    }

    static func store(count: Int = 2_000) async throws -> (TweetStore, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("explore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try TweetStore(location: .file(folder.appendingPathComponent("t.sqlite").path))
        try await store.insert([page(count: count, seed: 13)])
        return (store, folder)
    }

    static func randomQuery(_ random: inout SplitMix64) -> String {
        let pieces =
            words + tags.map { "#" + $0 } + handles.map { "@" + $0 } + langs.map { "lang:" + $0 }
            + ["-rain", "-is:retweet", "has:links", "from:alice", "coffee OR music", "url:example.com"]
        return (0..<random.below(3) + 1).map { _ in random.pick(pieces) }.joined(separator: " ")
    }
}

@Suite("Counts, top lists and stats from the store")
struct StoreExploreTests {
    /// Every match of a query, through the ordinary search, paging to the end.
    static func allMatches(_ store: TweetStore, _ text: String) async throws -> [Int64] {
        let query = try SearchQuery(parsing: text)
        let request = SearchRequest(query: text, pageSize: 1_000)
        var ids: [Int64] = []
        var cursor: String?
        repeat {
            let page = try await store.search(query, request: request, cursor: cursor)
            ids += page.tweets.map { Int64(bitPattern: $0.id.rawValue) }
            cursor = page.nextToken
        } while cursor != nil
        return ids
    }

    /// A plain SQL count by UTC date of the given ids, from the stored `created_at`.
    static func sqlCountByDay(_ store: TweetStore, ids: [Int64]) async throws -> [String: Int] {
        guard !ids.isEmpty else { return [:] }
        let list = ids.map(String.init).joined(separator: ",")
        let rows = try await store.database.run { connection in
            try connection.rows(
                "SELECT strftime('%Y-%m-%d', created_at / 1000, 'unixepoch'), count(*) FROM tweets "
                    + "WHERE id IN (\(list)) GROUP BY 1"
            ) { ($0.text(0), $0.int(1)) }
        }
        return Dictionary(uniqueKeysWithValues: rows)
    }

    @Test func localCountsEqualAPlainSQLCountByDateForRandomQueries() async throws {
        let (store, folder) = try await ExploreCorpus.store()
        defer { try? FileManager.default.removeItem(at: folder) }
        var random = SplitMix64(seed: 1_313)
        var checked = 0
        for _ in 0..<60 {
            let text = ExploreCorpus.randomQuery(&random)
            let series = try await store.countByTime(
                try SearchQuery(parsing: text), request: SearchRequest(query: text), granularity: .day)
            let expected = try await Self.sqlCountByDay(store, ids: try await Self.allMatches(store, text))
            var actual: [String: Int] = [:]
            for bucket in series.buckets where bucket.count > 0 {
                actual[CountGranularity.day.label(bucket.start)] = bucket.count
            }
            #expect(actual == expected, "\(text)")
            #expect(series.total == expected.values.reduce(0, +), "\(text)")
            // No gaps: each bucket ends where the next starts.
            #expect(zip(series.buckets, series.buckets.dropFirst()).allSatisfy { $0.end == $1.start }, "\(text)")
            if series.total > 0 { checked += 1 }
        }
        #expect(checked > 30)
    }

    @Test func preSnowflakeTweetsAreCountedAtTheirStoredTime() async throws {
        let (store, folder) = try await ExploreCorpus.store(count: 50)
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = "old days"
        let series = try await store.countByTime(
            try SearchQuery(parsing: text), request: SearchRequest(query: text), granularity: .day)
        #expect(series.total == 5)
        #expect(series.buckets.map(\.count) == [1, 1, 1, 1, 1])
        #expect(CountGranularity.day.label(series.buckets[0].start) == "2008-08-29")
        var bounded = SearchRequest(query: text)
        bounded.startTime = Date(timeIntervalSince1970: 1_220_100_000)  // after the first two
        let later = try await store.countByTime(
            try SearchQuery(parsing: text), request: bounded, granularity: .day)
        #expect(later.total == 3)
    }

    @Test func timeBoundsCutTheCountAndShowEmptyDays() async throws {
        let (store, folder) = try await ExploreCorpus.store()
        defer { try? FileManager.default.removeItem(at: folder) }
        var request = SearchRequest(query: "coffee")
        request.startTime = Date(timeIntervalSince1970: 1_701_000_000)
        request.endTime = Date(timeIntervalSince1970: 1_702_000_000)
        let series = try await store.countByTime(
            try SearchQuery(parsing: "coffee"), request: request, granularity: .hour)
        let ids = try await Self.allMatches(store, "coffee")
        let inside = ids.compactMap { TweetTime.milliseconds(fromSnowflake: TweetID(UInt64(bitPattern: $0))) }
            .filter { $0 >= 1_701_000_000_000 && $0 < 1_702_000_000_000 }
        #expect(series.total == inside.count)
        #expect(series.buckets.first?.start == CountGranularity.hour.bucketStart(1_701_000_000_000))
        #expect(
            series.buckets.last?.end
                == CountGranularity.hour.bucketEnd(after: CountGranularity.hour.bucketStart(1_701_999_999_999)))
    }

    @Test(arguments: TopKind.allCases)
    func topListsEqualCountsComputedIndependently(kind: TopKind) async throws {
        let (store, folder) = try await ExploreCorpus.store()
        defer { try? FileManager.default.removeItem(at: folder) }
        let corpus = ExploreCorpus.page(count: 2_000, seed: 13)
        let names = Dictionary(uniqueKeysWithValues: corpus.users.map { ($0.id, $0.username) })
        for text in ["coffee", "rain -music", "lang:fr"] {
            let query = try SearchQuery(parsing: text)
            let matches = Set(try await Self.allMatches(store, text))
            // Independently: loop over the generated tweets that matched, and count by hand.
            var expected: [String: Int] = [:]
            for tweet in corpus.tweets where matches.contains(Int64(bitPattern: tweet.id.rawValue)) {
                var keys = Set<String>()
                switch kind {
                case .hashtags: keys = Set(tweet.entities.hashtags.map { $0.tag.lowercased() })
                case .mentions: keys = Set(tweet.entities.mentions.map(\.username))
                case .authors: keys = [names[tweet.authorID!]!]
                case .langs: keys = [tweet.lang!]
                case .domains:
                    keys = Set(
                        tweet.entities.urls.map {
                            var host = $0.expandedURL!.dropFirst("https://".count).split(separator: "/")[0]
                            if host.hasPrefix("www.") { host = host.dropFirst(4) }
                            return String(host)
                        })
                case .words:
                    keys = Set(
                        tweet.text.split(separator: " ").map(String.init).filter {
                            !["in", "the"].contains($0) && !"#@h".contains($0.first!)
                        })
                }
                for key in keys { expected[key, default: 0] += 1 }
            }
            let list = try await store.topList(kind, query: query, request: SearchRequest(query: text), limit: 100)
            let actual = Dictionary(uniqueKeysWithValues: list.rows.map { ($0.key, $0.count) })
            #expect(actual == expected, "\(kind) \(text)")
            #expect(list.tweets == matches.count, "\(kind) \(text)")
            #expect(list.rows == list.rows.sorted { $0.count != $1.count ? $0.count > $1.count : $0.key < $1.key })
        }
    }

    @Test func statsCountKindsLanguagesAndTheMostLiked() async throws {
        let (store, folder) = try await ExploreCorpus.store()
        defer { try? FileManager.default.removeItem(at: folder) }
        let corpus = ExploreCorpus.page(count: 2_000, seed: 13)
        let overview = try await store.overview(collection: nil)
        #expect(overview.tweets == corpus.tweets.count)
        let retweets = corpus.tweets.filter(\.isRetweet).count
        #expect(overview.retweets == retweets && overview.originals == corpus.tweets.count - retweets)
        #expect(overview.volume.total == corpus.tweets.count)
        #expect(overview.firstTime == 1_220_000_000_000)
        var langs: [String: Int] = [:]
        for tweet in corpus.tweets { langs[tweet.lang!, default: 0] += 1 }
        #expect(Dictionary(uniqueKeysWithValues: overview.languages.map { ($0.key, $0.count) }) == langs)
        let liked = corpus.tweets.filter { !$0.isRetweet }
            .sorted { ($0.metrics?.likes ?? 0, $0.id) > ($1.metrics?.likes ?? 0, $1.id) }.prefix(5).map(\.id)
        #expect(overview.mostLiked == Array(liked))
        #expect(overview.topAuthors.count == 5 && overview.topAuthors.map(\.count).reduce(0, +) == corpus.tweets.count)
    }
}
