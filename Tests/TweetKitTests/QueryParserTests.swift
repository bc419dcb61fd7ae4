import Testing

@testable import TweetKit

@Suite("Query parser")
struct QueryParserTests {
    func parse(_ text: String) throws -> QueryExpression {
        try SearchQuery(parsing: text).root
    }

    func error(_ text: String) -> QueryParseError? {
        do {
            _ = try SearchQuery(parsing: text)
            return nil
        } catch {
            return error
        }
    }

    @Test func keywordsAreConjoined() throws {
        #expect(try parse("swift  concurrency") == .and([.term(.keyword("swift")), .term(.keyword("concurrency"))]))
        #expect(try parse("swift") == .term(.keyword("swift")))
    }

    @Test func andBindsTighterThanOr() throws {
        let expected: QueryExpression = .or([
            .and([.term(.keyword("a")), .term(.keyword("b"))]),
            .and([.term(.keyword("c")), .term(.keyword("d"))]),
        ])
        #expect(try parse("a b OR c d") == expected)
    }

    @Test func parenthesesGroup() throws {
        let expected: QueryExpression = .and([
            .term(.keyword("a")),
            .or([.term(.keyword("b")), .term(.keyword("c"))]),
        ])
        #expect(try parse("a (b OR c)") == expected)
        // Redundant grouping flattens, so printing and parsing again gives the same tree.
        #expect(
            try parse("((a OR b) OR c)") == .or([.term(.keyword("a")), .term(.keyword("b")), .term(.keyword("c"))]))
    }

    @Test func lowercaseOrIsAWord() throws {
        #expect(
            try parse("this or that")
                == .and([.term(.keyword("this")), .term(.keyword("or")), .term(.keyword("that"))]))
    }

    @Test func everyOperator() throws {
        let cases: [(String, QueryTerm)] = [
            ("\"exact phrase\"", .phrase("exact phrase")),
            ("#SwiftLang", .hashtag("SwiftLang")),
            ("$AAPL", .cashtag("AAPL")),
            ("@jack", .mention("jack")),
            ("from:jack", .from("jack")),
            ("FROM:@jack", .from("jack")),
            ("from:12", .from("12")),
            ("to:Some_User", .to("Some_User")),
            ("lang:en", .lang("en")),
            ("Lang:pt-br", .lang("pt-br")),
            ("is:retweet", .is(.retweet)),
            ("IS:Reply", .is(.reply)),
            ("is:quote", .is(.quote)),
            ("has:links", .has(.links)),
            ("has:media", .has(.media)),
            ("has:mentions", .has(.mentions)),
            ("has:hashtags", .has(.hashtags)),
            ("url:example.com", .url("example.com")),
            ("url:\"https://example.com/a b\"", .url("https://example.com/a b")),
            ("conversation_id:1460323737035677698", .conversationID(1_460_323_737_035_677_698)),
            ("min_likes:100", .minLikes(100)),
            ("min_reposts:5", .minReposts(5)),
            ("min_retweets:5", .minReposts(5)),
            ("min_replies:0", .minReplies(0)),
            ("since:2024-02-29", .since(QueryDate(year: 2024, month: 2, day: 29)!)),
            ("until:2025-01-01", .until(QueryDate(year: 2025, month: 1, day: 1)!)),
            ("12:30", .keyword("12:30")),
            ("https://x.com", .keyword("https://x.com")),
            ("$5", .keyword("$5")),
            ("covid-19", .keyword("covid-19")),
        ]
        for (text, term) in cases {
            #expect(try parse(text) == .term(term), "\(text)")
        }
    }

    @Test func negation() throws {
        #expect(try parse("cats -dogs") == .and([.term(.keyword("cats")), .not(.keyword("dogs"))]))
        #expect(
            try parse("-is:retweet -\"a b\" -#x")
                == .and([.not(.is(.retweet)), .not(.phrase("a b")), .not(.hashtag("x"))]))
    }

    @Test func errorsNameTheColumnAndWhatWasExpected() {
        let cases: [(String, Int, String)] = [
            ("", 1, "expected a search term"),
            ("   ", 4, "expected a search term"),
            ("a OR", 5, "expected a search term after OR"),
            ("OR a", 1, "expected a search term before OR"),
            ("a OR OR b", 6, "expected a search term after OR"),
            ("(a b", 5, "expected ')' to close the '(' at column 1"),
            ("a b)", 4, "found ')' with no matching '('"),
            ("()", 2, "expected a search term before ')'"),
            ("a \"open phrase", 15, "expected a closing '\"' for the quote at column 3"),
            ("\"  \"", 1, "expected words between the quotes"),
            ("a - b", 4, "expected a term right after '-'"),
            ("a -(b OR c)", 3, "cannot be negated"),
            ("#", 2, "expected a hashtag after '#'"),
            ("x @", 4, "expected a username after '@'"),
            ("from:", 6, "expected a username"),
            ("from:this_name_is_too_long", 6, "found 'this_name_is_too_long'"),
            ("is:vérifié", 4, "expected one of retweet, reply, quote after 'is:'"),
            ("has:gps", 5, "expected one of links, media, mentions, hashtags after"),
            ("a is:verified", 3, "'is:verified' is matched by X only, not by the local store"),
            ("a has:geo", 3, "'has:geo' is matched by X only"),
            ("lang:english", 6, "expected a language code"),
            ("since:2024-02-30", 7, "expected a date as YYYY-MM-DD after 'since:'"),
            ("until:24-1-1", 7, "expected a date as YYYY-MM-DD"),
            ("min_likes:-3", 11, "expected a whole number after 'min_likes:'"),
            ("conversation_id:abc", 17, "expected a tweet id"),
            ("news place:paris", 6, "'place:' is matched by X only, not by the local store; search X with --source x"),
            ("news min_faves:3", 6, "'min_faves:' is not supported"),
            ("héllo wörld (", 14, "expected a search term"),
        ]
        for (text, column, message) in cases {
            let failure = error(text)
            #expect(failure?.column == column, "\(text): \(String(describing: failure))")
            #expect(failure?.message.contains(message) == true, "\(text): \(String(describing: failure))")
        }
    }

    @Test func errorDescriptionLeadsWithTheColumn() {
        #expect(error("a OR")?.description == "column 5: expected a search term after OR")
    }

    @Test func deepNestingIsRefusedNotOverflowed() {
        let deep = String(repeating: "(", count: 10_000) + "a" + String(repeating: ")", count: 10_000)
        #expect(error(deep)?.message.contains("levels of parentheses") == true)
        let fine = String(repeating: "(", count: 20) + "a" + String(repeating: ")", count: 20)
        #expect(error(fine) == nil)
    }

    @Test func apiFormMovesDatesToTimeBounds() throws {
        let query = try SearchQuery(parsing: "swift since:2024-01-01 -is:retweet until:2024-02-01")
        let api = try query.forAPI()
        #expect(api.query == "swift -is:retweet")
        #expect(api.startTime == QueryDate(year: 2024, month: 1, day: 1)!.startOfDay)
        #expect(api.startTime?.timeIntervalSince1970 == 1_704_067_200)
        #expect(api.endTime?.timeIntervalSince1970 == 1_706_745_600)
        #expect(throws: QueryTranslationError.self) { try SearchQuery(parsing: "a OR since:2024-01-01").forAPI() }
        #expect(throws: QueryTranslationError.self) { try SearchQuery(parsing: "lang:en is:reply").forAPI() }
        #expect(try SearchQuery(parsing: "lang:en @jack").forAPI().query == "lang:en @jack")
    }
}

@Suite("Query terms")
struct QueryTermTests {
    @Test func textualTermsAreTheOnesTheIndexAnswers() throws {
        let query = try SearchQuery(parsing: "a \"b c\" #d $E @f url:g from:h lang:en is:reply has:media min_likes:1")
        #expect(
            query.root.terms.filter(\.isTextual) == [
                .keyword("a"), .phrase("b c"), .hashtag("d"), .cashtag("E"),
                .mention("f"), .url("g"),
            ])
        #expect(query.root.terms.count == 11)
    }

    @Test func datesAreValidatedAndConverted() {
        #expect(QueryDate("2024-02-29") != nil)
        #expect(QueryDate("2023-02-29") == nil)
        #expect(QueryDate("2024-13-01") == nil)
        #expect(QueryDate("2024-1-01") == nil)
        #expect(QueryDate("1970-01-02")?.startOfDay.timeIntervalSince1970 == 86_400)
        #expect(QueryDate("2000-03-01")?.startOfDay.timeIntervalSince1970 == 951_868_800)
        #expect(QueryDate(year: 5, month: 6, day: 7)?.description == "0005-06-07")
        #expect(QueryDate("2024-01-01")! < QueryDate("2024-01-02")!)
    }
}
