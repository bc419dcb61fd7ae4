import Testing

@testable import TweetKit

/// A small deterministic generator (SplitMix64), so a failing case can be reproduced from its seed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("Query printing and robustness")
struct QueryRoundTripTests {
    @Test func printsCanonicalText() throws {
        let cases: [(String, String)] = [
            ("a  b OR c", "a b OR c"),
            ("a (b OR c) -d", "a (b OR c) -d"),
            ("FROM:jack Is:Retweet LANG:en", "from:jack is:retweet lang:en"),
            ("((x))", "x"),
            ("url:\"a b\" min_retweets:3", "url:\"a b\" min_reposts:3"),
            ("(a OR b) (c OR d)", "(a OR b) (c OR d)"),
        ]
        for (input, printed) in cases {
            #expect(try SearchQuery(parsing: input).description == printed)
        }
    }

    /// A prepended concatenation mark joins the space after it into one grapheme cluster, and a combining mark joins
    /// the quote or colon before it; the printed query must still read back as the same query (both found by the
    /// query fuzzer).
    @Test func marksThatJoinTheSyntaxAroundThemStillRoundTrip() throws {
        for text in [
            "\u{0604}\r ORS  R\u{FFFD}", "\u{0600} b", "a\u{0605}(b OR c)", "x \u{06DD}\"y z\"", "\u{0890} -d",
            "url:\"\u{034B}ol\" hs", "a \u{0301}b", "(\u{0301}x OR y)", "-url:\"\u{0301}x\"", "url:\"a(\u{034B}b\"",
        ] {
            let query = try SearchQuery(parsing: text)
            #expect(try SearchQuery(parsing: query.description).root == query.root, "\(text.debugDescription)")
        }
        let words = try SearchQuery(parsing: "\u{0604} ORS").root
        #expect(words == .and([.term(.keyword("\u{0604}")), .term(.keyword("ORS"))]))
    }

    @Test func handBuiltKeywordsThatWouldMisparseAreQuoted() {
        #expect(SearchQuery(.term(.keyword("from:x"))).description == "\"from:x\"")
        #expect(SearchQuery(.term(.keyword("OR"))).description == "\"OR\"")
        #expect(SearchQuery(.term(.keyword("-x"))).description == "\"-x\"")
    }

    static let words = ["swift", "café", "12:30", "covid-19", "naïve", "東京", "🚀", "$5", "or", "x_y", "a.b"]

    func randomTerm(_ rng: inout SeededGenerator) -> QueryTerm {
        let word = Self.words.randomElement(using: &rng)!
        switch Int.random(in: 0..<18, using: &rng) {
        case 0: return .keyword(word)
        case 1: return .phrase(word + " " + Self.words.randomElement(using: &rng)!)
        case 2: return .hashtag("tag\(Int.random(in: 0..<9, using: &rng))")
        case 3: return .cashtag("AAPL")
        case 4: return .mention("user_\(Int.random(in: 0..<9, using: &rng))")
        case 5: return .from("jack")
        case 6: return .to("1234")
        case 7: return .lang(["en", "pt-br", "und"].randomElement(using: &rng)!)
        case 8: return .is(QueryTerm.TweetKind.allCases.randomElement(using: &rng)!)
        case 9: return .has(QueryTerm.TweetFeature.allCases.randomElement(using: &rng)!)
        case 10: return .url(["example.com", "https://a.b/c d"].randomElement(using: &rng)!)
        case 11: return .conversationID(TweetID(UInt64.random(in: 0...UInt64.max, using: &rng)))
        case 12: return .minLikes(Int.random(in: 0..<100_000, using: &rng))
        case 13: return .minReposts(Int.random(in: 0..<100, using: &rng))
        case 14: return .minReplies(Int.random(in: 0..<100, using: &rng))
        case 15: return .since(QueryDate(year: Int.random(in: 2006...2030, using: &rng), month: 2, day: 28)!)
        case 16:
            // What X alone evaluates, in the normalized form the parser gives it (reparsed for rules, which take all).
            let pairs = [
                ("place", word), ("place", "new york city"), ("entity", "Michael Jordan"), ("place_country", "US"),
                ("is", "verified"), ("has", "geo"), ("has", "video_link"), ("context", "10.*"), ("sample", "15"),
                ("point_radius", "[2.355128 48.861118 16km]"), ("bounding_box", "[-105.3 39.9 -105.1 40.1]"),
                ("followers_count", "10..100"), ("retweets_of", "jack"), ("in_reply_to_tweet_id", "42"),
            ]
            let (name, value) = pairs.randomElement(using: &rng)!
            return .xOnly(name: name, value: value)
        default: return .until(QueryDate(year: 2024, month: 12, day: 31)!)
        }
    }

    func randomExpression(_ rng: inout SeededGenerator, depth: Int) -> QueryExpression {
        let roll = Int.random(in: 0..<10, using: &rng)
        if depth == 0 || roll < 4 {
            let term = randomTerm(&rng)
            return Bool.random(using: &rng) ? .term(term) : .not(term)
        }
        let parts = (0..<Int.random(in: 1...4, using: &rng)).map { _ in randomExpression(&rng, depth: depth - 1) }
        return roll < 7 ? .all(parts) : .any(parts)
    }

    @Test func randomTreesRoundTrip() throws {
        var rng = SeededGenerator(state: 42)
        for _ in 0..<2_000 {
            let query = SearchQuery(randomExpression(&rng, depth: 4))
            let reparsed = try SearchQuery(parsing: query.description, for: .xRules)
            #expect(reparsed == query, "\(query)")
        }
    }

    @Test func arbitraryInputNeverCrashesAndErrorsPointInside() {
        let alphabet: [Character] = Array("ab OR()-\"#@$:_ 1é🚀\t\nfrom:lang:is:has:since:2024-01-01 url:min_likes:")
        var rng = SeededGenerator(state: 7)
        var parsed = 0
        for _ in 0..<20_000 {
            let text = String(
                (0..<Int.random(in: 0..<40, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
            do {
                let query = try SearchQuery(parsing: text)
                parsed += 1
                // Whatever parses must print to something that parses to the same tree.
                #expect(try SearchQuery(parsing: query.description) == query, "\(text)")
            } catch {
                #expect((1...text.count + 1).contains(error.column), "\(text): \(error)")
                #expect(error.message.hasPrefix("expected"), "\(text): \(error)")
            }
        }
        #expect(parsed > 1_000)
    }

    @Test func randomBytesNeverCrash() {
        var rng = SeededGenerator(state: 99)
        for _ in 0..<5_000 {
            let bytes = (0..<Int.random(in: 0..<64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let text = String(decoding: bytes, as: UTF8.self)
            _ = try? SearchQuery(parsing: text)
        }
    }
}
