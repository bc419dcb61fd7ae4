import Testing
import TweetKit

@testable import TweetShell

@Suite("hydrate's input: ids, status URLs, CSV, comments, and malformed lines by number")
struct HydrateInputTests {
    @Test func idsAndURLsOneALineWithCommentsAndBlanks() {
        let input = HydrateInput(
            text: """
                # exported from a dataset
                1460323737035677698

                https://x.com/someone/status/1460323737035677699?s=20
                https://twitter.com/i/web/status/1460323737035677700
                  twitter.com/a/statuses/1460323737035677701/photo/1\r
                1460323737035677698
                """)
        #expect(input.layout == .lines)
        #expect(
            input.ids == [
                1_460_323_737_035_677_698, 1_460_323_737_035_677_699, 1_460_323_737_035_677_700,
                1_460_323_737_035_677_701,
            ])
        #expect(input.duplicates == 1)
        #expect(input.problems.isEmpty)
    }

    @Test func malformedLinesAreReportedByLineNumberAndTheRestIsRead() {
        let input = HydrateInput(
            text: "1460323737035677698\nnot an id\n\n# fine\nhttps://x.com/user/status/\n99999999999999999999\n7\n")
        #expect(input.ids == [1_460_323_737_035_677_698, 7])
        #expect(input.problems.map(\.line) == [2, 5, 6])
        #expect(input.problems[0].message == "the line 'not an id' is not a tweet id or status URL")
    }

    @Test func csvWithAnIDColumnAndQuotedFieldsSpanningLines() {
        let input = HydrateInput(
            text: """
                created_at,id,text
                2021-11-15,1460323737035677698,"plain"
                2021-11-15,1460323737035677699,"a ""quoted"", comma
                and a second line"
                2021-11-16,,"no id"
                2021-11-16,https://x.com/u/status/1460323737035677700,"a link in the column"
                """)
        #expect(input.layout == .csv(column: 1))
        #expect(input.ids == [1_460_323_737_035_677_698, 1_460_323_737_035_677_699, 1_460_323_737_035_677_700])
        #expect(input.problems.map(\.line) == [5])
        #expect(input.problems[0].message.contains("id column"))
    }

    @Test func aCSVHeaderWithoutAnIDColumnIsOneProblem() {
        let input = HydrateInput(text: "tweet_id,text\n1460323737035677698,x\n")
        #expect(input.ids.isEmpty)
        #expect(input.problems == [.init(line: 1, message: "a CSV header needs an 'id' column; this one has none")])
    }

    @Test func aLoneIDHeaderIsCSVAndAByteOrderMarkIsIgnored() {
        let input = HydrateInput(text: "\u{FEFF}id\n1460323737035677698\n1460323737035677699\n")
        #expect(input.layout == .csv(column: 0))
        #expect(input.ids.count == 2)
    }
}

@Suite("hydrate, dehydrate, export --ids and rules parse with columns before anything runs")
struct CollectCommandParsingTests {
    @Test func hydrateAndDehydrate() throws {
        #expect(
            try ShellCommand.parse("hydrate ids.txt --into election")
                == .collect(.hydrate(path: "ids.txt", into: "election")))
        #expect(
            try ShellCommand.parse("hydrate '/tmp/my ids.csv'")
                == .collect(.hydrate(path: "/tmp/my ids.csv", into: nil)))
        #expect(try ShellCommand.parse("dehydrate") == .collect(.dehydrate(query: nil, collection: nil, path: nil)))
        #expect(
            try ShellCommand.parse("dehydrate --in election \"open data\" lang:en")
                == .collect(.dehydrate(query: "\"open data\" lang:en", collection: "election", path: nil)))
        #expect(
            try ShellCommand.parse("export --ids ids.txt")
                == .collect(.dehydrate(query: nil, collection: nil, path: "ids.txt")))
        #expect(
            throws: CommandError(
                "hydrate needs a file of tweet ids or status URLs, one a line (or a CSV with an id column)", column: 8)
        ) {
            try ShellCommand.parse("hydrate")
        }
        // `> FILE` typed in the shell writes the ids to the file, as the shell's own redirection would.
        #expect(
            try ShellCommand.parse("dehydrate rain lang:en --in votes > 'my ids.txt'")
                == .collect(.dehydrate(query: "rain lang:en", collection: "votes", path: "my ids.txt")))
        #expect(
            try ShellCommand.parse("dehydrate --in votes >ids.txt")
                == .collect(.dehydrate(query: nil, collection: "votes", path: "ids.txt")))
        #expect(
            try ShellCommand.parse("dehydrate \">\" rain")
                == .collect(.dehydrate(query: "\">\" rain", collection: nil, path: nil)), "a quoted > is a word")
        #expect(throws: CommandError("dehydrate needs a file after >", column: 17)) {
            try ShellCommand.parse("dehydrate rain >")
        }
        #expect(throws: CommandError("the file after > comes last; unexpected 'b'", column: 20)) {
            try ShellCommand.parse("dehydrate rain > a b")
        }
        let error = #expect(throws: CommandError.self) { try ShellCommand.parse("dehydrate (cats") }
        #expect(error?.column == 16)
        #expect(error?.message.hasPrefix("in the query at column 16:") == true)
    }

    @Test func rulesKeepTheRuleAsTypedAndPointAtSyntaxErrors() throws {
        #expect(
            try ShellCommand.parse("rules add \"open data\" -is:retweet --tag od")
                == .collect(.rules(.add(rule: "\"open data\" -is:retweet", tag: "od"))))
        #expect(try ShellCommand.parse("rules add --tag t #swift") == .collect(.rules(.add(rule: "#swift", tag: "t"))))
        #expect(try ShellCommand.parse("rules check from:alice") == .collect(.rules(.check(rule: "from:alice"))))
        #expect(try ShellCommand.parse("rules list") == .collect(.rules(.list)))
        #expect(try ShellCommand.parse("rules") == .collect(.rules(.list)), "rules alone lists them")
        #expect(try ShellCommand.parse("rules delete all") == .collect(.rules(.delete("all"))))
        // "rules add " is 10 characters: the unclosed group's column counts from the line's start.
        let error = #expect(throws: CommandError.self) { try ShellCommand.parse("rules add (cats OR dogs") }
        let column = try #require(error?.column)
        #expect(column > 10)
        #expect(error?.message.hasPrefix("in the rule at column \(column):") == true)
        #expect(throws: CommandError.self) { try ShellCommand.parse("rules check cats --tag x") }
        #expect(throws: CommandError.self) { try ShellCommand.parse("rules rename x") }
        #expect(throws: CommandError.self) { try ShellCommand.parse("rules add") }
    }
}
