import XCTest

@testable import TweetShell

/// How the search history records where a search ran: rows from before collections read as they did, and a
/// collection's name comes back whole, colons and spaces included.
final class HistoryScopeTests: XCTestCase {
    func testScopesRoundTripAndOldRowsReadAsBefore() {
        for scope in [
            HistoryScope(source: .local, collection: nil), HistoryScope(source: .x, collection: nil),
            HistoryScope(source: .local, collection: "election 2024"), HistoryScope(source: .local, collection: "a:b"),
        ] {
            XCTAssertEqual(HistoryScope(recorded: scope.recorded), scope, scope.recorded)
        }
        XCTAssertEqual(HistoryScope(recorded: "local"), HistoryScope(source: .local, collection: nil))
        XCTAssertEqual(HistoryScope(recorded: "x"), HistoryScope(source: .x, collection: nil))
        XCTAssertEqual(HistoryScope(source: .x, collection: "votes").recorded, "x", "X searches have no collection")
        XCTAssertEqual(HistoryScope(source: .local, collection: "votes").label, "local, in votes")
        XCTAssertNil(HistoryScope(recorded: "elsewhere"))
        XCTAssertNil(HistoryScope(recorded: "local:").flatMap(\.collection), "an empty name is no collection")
    }
}
