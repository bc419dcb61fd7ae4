import Testing

@testable import LineEditor

/// Ctrl-R's search, apart from the terminal: which entry each key finds, and what is drawn.
@Suite struct HistorySearchTests {
    let entries = ["search swift", "show 1", "search rust", "search swift", "search swiftlang", "more"]

    @Test func typingFindsTheNewestMatchAndNarrowsIt() {
        var search = HistorySearch(entries: entries)
        #expect(search.display == "(history search) '': ")
        search.type("sw")
        #expect(search.match == "search swiftlang")
        search.type("ift ")
        #expect(search.match == nil, "'sw' then 'ift ' is 'swift ', which no entry holds")
        #expect(search.display == "(failed history search) 'swift ': ")
        search.deleteBackward()
        #expect(search.match == "search swiftlang")
        #expect(search.display == "(history search) 'swift': search swiftlang")
    }

    @Test func ctrlRAgainFindsOlderMatchesSkippingRepeats() {
        var search = HistorySearch(entries: entries)
        search.type("search s")
        #expect(search.matchIndex == 4)
        search.older()
        #expect(search.matchIndex == 3)
        search.older()
        #expect(search.matchIndex == 0)
        search.older()
        #expect(search.matchIndex == 0, "no older match: the oldest stays shown")
    }

    @Test func aControlCharacterInHistoryIsNotDrawnRaw() {
        var search = HistorySearch(entries: ["search \u{1B}]0;x\u{07}"])
        search.type("search")
        #expect(search.display == "(history search) 'search': search ?]0;x?")
    }
}
