import Foundation
import Testing
import TweetKit

/// Inputs the query fuzzer (Fuzz/Query) found, kept so they stay fixed. Each one parsed, printed back, and parsed to a
/// different query: a bare `OR` became the word OR, which prints as the phrase "OR".
@Suite("Query parser fuzz regressions")
struct QueryFuzzRegressionTests {
    func columnAndMessage(_ text: String) -> (Int, String)? {
        do {
            _ = try SearchQuery(parsing: text)
            return nil
        } catch {
            return (error.column, error.message)
        }
    }

    @Test("OR before a closing parenthesis is the operator, missing its right side")
    func orBeforeClosingParenthesis() {
        #expect(columnAndMessage("(a OR)")?.0 == 6)
        #expect(columnAndMessage("(a OR)")?.1 == "expected a search term after OR")
        #expect(columnAndMessage("x (a O (a OR))")?.0 == 13)
    }

    @Test("-OR is refused with a hint, and -\"OR\" still excludes the word")
    func negatedOperator() throws {
        let problem = columnAndMessage("a -OR b")
        #expect(problem?.0 == 4)
        #expect(problem?.1.contains("found the operator OR") == true)
        let quoted = try SearchQuery(parsing: #"a -"OR""#)
        #expect(try SearchQuery(parsing: quoted.description) == quoted)
        #expect(try SearchQuery(parsing: "a -ORx").description == "a -ORx")
    }
}

/// Inputs the API page and JSONL fuzzers (Fuzz/APIPage, Fuzz/JSONL) found: a `created_at` before 1678 or after 2262 with
/// nine fraction digits overflowed the nanosecond count and trapped.
@Suite("Date parsing fuzz regressions")
struct DateFuzzRegressionTests {
    @Test("nanosecond timestamps outside Int64's range of nanoseconds parse instead of trapping")
    func farDatesWithLongFractions() throws {
        let early = try #require(TwitterDate.parseISO8601("1010-11-15T18:00:00.0007035677698"))
        #expect(early.timeIntervalSince1970 < -30_000_000_000)
        let late = try #require(TwitterDate.parseISO8601("2300-01-01T00:00:00.123456789Z"))
        #expect(abs(late.timeIntervalSince1970 - 10_413_792_000.123456789) < 0.001)
        // The exact path still holds for ordinary API dates.
        #expect(TwitterDate.parseISO8601("2021-11-15T18:00:00.001Z")?.timeIntervalSince1970 == 1_636_999_200.001)
    }

    @Test("the found API page and JSONL line decode or throw")
    func foundInputs() {
        let page =
            #"{"data":[{"id":"1","text":"x","author_id":"2","created_at":"1010-11-14T10:00:00.00055555555555Z"}]}"#
        #expect((try? APIResponseDecoder.decodePage(from: Data(page.utf8))) != nil)
        #expect((try? CollectionLineDecoder.decode(line: Data(page.utf8))) != nil)
    }
}
