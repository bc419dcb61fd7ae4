import Testing

@testable import TweetKit

/// The operators X evaluates and the local stores do not: kept for X, refused locally at their column.
@Suite("Operators only X evaluates")
struct XOperatorTests {
    func terms(_ text: String, for target: QueryTarget = .xSearch) throws -> [QueryTerm] {
        try SearchQuery(parsing: text, for: target).root.terms
    }

    func failure(_ text: String, for target: QueryTarget) -> QueryParseError? {
        do {
            _ = try SearchQuery(parsing: text, for: target)
            return nil
        } catch {
            return error
        }
    }

    @Test func searchOperatorsAreReadWithCanonicalNamesAndValues() throws {
        let cases: [(String, String, String)] = [
            ("retweets_of:@XDevelopers", "retweets_of", "XDevelopers"),
            ("in_reply_to_status_id:1539382664746020864", "in_reply_to_tweet_id", "1539382664746020864"),
            ("retweets_of_tweet_id:15", "retweets_of_tweet_id", "15"),
            ("QUOTES_OF_TWEET_ID:16", "quotes_of_tweet_id", "16"),
            ("context:10.799022225751871488", "context", "10.799022225751871488"),
            ("context:47.*", "context", "47.*"),
            ("entity:\"Michael Jordan\"", "entity", "Michael Jordan"),
            ("list:123", "list", "123"),
            ("place:\"new york city\"", "place", "new york city"),
            ("place:fd70c22040963ac7", "place", "fd70c22040963ac7"),
            ("place_country:mx", "place_country", "MX"),
            ("point_radius:[2.355128   48.861118 16KM]", "point_radius", "[2.355128 48.861118 16km]"),
            ("point_radius:[174.76 -41.28 20mi]", "point_radius", "[174.76 -41.28 20mi]"),
            (
                "geo_bounding_box:[-105.301758 39.964069 -105.178505 40.09455]", "bounding_box",
                "[-105.301758 39.964069 -105.178505 40.09455]"
            ),
            ("is:Verified", "is", "verified"),
            ("has:cashtags", "has", "cashtags"),
            ("has:images", "has", "images"),
            ("has:videos", "has", "video_link"),
            ("has:video_link", "has", "video_link"),
            ("has:geo", "has", "geo"),
        ]
        for (text, name, value) in cases {
            #expect(try terms("news " + text) == [.keyword("news"), .xOnly(name: name, value: value)], "\(text)")
        }
        // `has:media_link` is X's other name for `has:media`, which the stores evaluate.
        #expect(try terms("news has:media_link", for: .local) == [.keyword("news"), .has(.media)])
    }

    @Test func aLocalQueryRefusesThemAtTheirColumn() {
        for text in [
            "cat place_country:US", "cat is:verified", "cat -has:geo", "cat (a OR retweets_of:jack)",
            "cat point_radius:[2.3 48.8 16km]", "cat entity:\"Michael Jordan\"",
        ] {
            let error = failure(text, for: .local)
            let column = text.firstIndex(where: { $0 == "p" || $0 == "i" || $0 == "h" || $0 == "r" || $0 == "e" })
                .map { text.distance(from: text.startIndex, to: $0) + 1 }
            #expect(error?.column == column, "\(text): \(String(describing: error))")
            #expect(error?.message.contains("matched by X only, not by the local store") == true, "\(text)")
            #expect(error?.message.contains("--source x") == true, "\(text)")
        }
        #expect(failure("cat has:geo", for: .local)?.message.hasPrefix("'has:geo'") == true)
        #expect(failure("cat place:paris", for: .local)?.message.hasPrefix("'place:'") == true)
    }

    @Test func ruleOnlyOperatorsAreRefusedInSearchesAndKeptInRules() throws {
        for text in [
            "bio:developer", "bio_name:phd", "bio_location:\"big apple\"", "source:\"X for iPhone\"", "url_title:snow",
            "url_description:weather", "url_contains:photos", "from_affiliate_of:XDevelopers", "sample:15",
            "min_followers:1000", "followers_count:1000..10000", "tweets_count:5", "following_count:1..2",
            "listed_count:10..100",
        ] {
            let error = failure("news " + text, for: .xSearch)
            #expect(error?.column == 6, "\(text): \(String(describing: error))")
            #expect(error?.message.contains("works only in filtered-stream rules") == true, "\(text)")
            #expect(try terms("news " + text, for: .xRules).count == 2, "\(text)")
        }
    }

    @Test func valuesAreCheckedWhereTheyStand() {
        let cases: [(String, Int, String)] = [
            ("a place_country:USA", 17, "expected a two-letter country code such as US after 'place_country:'"),
            ("a context:10", 11, "expected domain.entity ids"),
            ("a context:x.1", 11, "found 'x.1'"),
            ("a in_reply_to_tweet_id:abc", 24, "expected a tweet id"),
            ("a retweets_of:this_name_is_too_long", 15, "expected a username"),
            ("a point_radius:[2.3 48.8 90km]", 16, "at most 25 mi"),
            ("a point_radius:[2.3 98.8 9km]", 16, "found '[2.3 98.8 9km]'"),
            ("a point_radius:[2.3 48.8 9 km]", 16, "expected [longitude latitude radius]"),
            ("a point_radius:[2.3 48.8", 25, "expected ']' to close the '[' at column 16"),
            ("a point_radius:[2.3 48.8 9km]x", 30, "expected a space after ']'"),
            ("a bounding_box:[3 1 2 4]", 16, "expected [west south east north]"),
            ("a place:", 9, "expected a value"),
            ("a is:nullcast", 3, "expected '-' before is:nullcast"),
        ]
        for (text, column, message) in cases {
            let error = failure(text, for: .xSearch)
            #expect(error?.column == column, "\(text): \(String(describing: error))")
            #expect(error?.message.contains(message) == true, "\(text): \(String(describing: error))")
        }
        #expect(failure("a sample:0", for: .xRules)?.message.contains("from 1 to 100") == true)
        #expect(failure("a followers_count:10..5", for: .xRules)?.message.contains("found '10..5'") == true)
        #expect(failure("a -is:nullcast", for: .xSearch) == nil)
        // For X, an unknown `is:`/`has:` value lists X's values too.
        #expect(failure("a has:gps", for: .xSearch)?.message.contains("cashtags, geo, images, video_link") == true)
    }

    @Test func theyPrintBackAsXReadsThem() throws {
        let cases: [(String, String)] = [
            ("news place:\"new york city\"", "news place:\"new york city\""),
            ("news place:\"paris\"", "news place:paris"),
            ("news point_radius:[ 2.35  48.86 16km ]", "news point_radius:[2.35 48.86 16km]"),
            (
                "news -is:nullcast (has:videos OR place_country:fr)",
                "news -is:nullcast (has:video_link OR place_country:FR)"
            ),
            ("news in_reply_to_status_id:7", "news in_reply_to_tweet_id:7"),
        ]
        for (text, printed) in cases {
            let query = try SearchQuery(parsing: text, for: .xSearch)
            #expect(query.description == printed, "\(text)")
            #expect(try SearchQuery(parsing: printed, for: .xSearch) == query, "\(text)")
        }
    }

    @Test func theAPIFormKeepsThemAndXsConjunctionRule() throws {
        let query = try SearchQuery(parsing: "#paris has:geo -is:nullcast since:2024-01-01", for: .xSearch)
        #expect(try query.forAPI().query == "#paris has:geo -is:nullcast")
        #expect(try SearchQuery(parsing: "place_country:US", for: .xSearch).forAPI().query == "place_country:US")
        for text in ["has:geo is:verified", "has:images OR lang:en"] {
            #expect(throws: QueryTranslationError.self, "\(text)") {
                try SearchQuery(parsing: text, for: .xSearch).forAPI()
            }
        }
        #expect(throws: QueryTranslationError.self) { try SearchQuery(parsing: "sample:10", for: .xRules).forAPI() }
        #expect(try SearchQuery(parsing: "news is:reply", for: .xSearch).xOnlyOperators == [])
        #expect(
            try SearchQuery(parsing: "news is:verified -place:x", for: .xSearch).xOnlyOperators == [
                "is:verified", "place:x",
            ])
    }

    @Test func aQueryThatParsesLocallyParsesTheSameForX() throws {
        for text in ["a b OR c", "from:jack -is:retweet has:media lang:en", "url:example.com 12:30 min_likes:3"] {
            let local = try SearchQuery(parsing: text)
            #expect(try SearchQuery(parsing: text, for: .xSearch) == local)
            #expect(try SearchQuery(parsing: text, for: .xRules) == local)
        }
    }
}
