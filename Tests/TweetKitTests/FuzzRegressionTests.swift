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
