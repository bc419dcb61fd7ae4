import StreamCore
import StreamTesting
import TweetKit
import XCTest

@testable import TweetShell

/// The live view model under a virtual clock: debounce, removeDuplicates, the minimum query length and switchToLatest.
final class LiveViewModelTests: XCTestCase {
    var scheduler: TestScheduler!
    var service: ManualSearchService!
    var viewModel: LiveViewModel!
    var states: [LiveState] = []
    var cancellables = Set<AnyCancellable>()

    private func makeViewModel(source: SourceKind, initialQuery: String = "") {
        scheduler = TestScheduler()
        service = ManualSearchService()
        viewModel = LiveViewModel(
            service: service, settings: .defaults(for: source, pageSize: 3), scheduler: scheduler,
            initialQuery: initialQuery)
        viewModel.$state.sink { [unowned self] in states.append($0) }.store(in: &cancellables)
        // Runs whatever the pipeline scheduled at start; the current-value subject replays what was typed.
        scheduler.advance()
    }

    override func tearDown() {
        cancellables.removeAll()
        viewModel = nil
    }

    private func type(_ queries: [String], every step: Int) {
        for query in queries {
            viewModel.query.send(query)
            scheduler.advance(by: .milliseconds(step))
        }
    }

    /// On the local store the last word is searched as a prefix until a space ends it; the API gets the words as typed.
    func testTheLastWordIsAPrefixUntilASpaceEndsItLocallyOnly() {
        makeViewModel(source: .local)
        type(["s", "sw", "swi"], every: 100)
        scheduler.advance(by: .milliseconds(250))
        XCTAssertEqual(service.calls.map(\.search.query), ["swi"])
        XCTAssertEqual(service.calls.map(\.search.prefixLastWord), [true])
        XCTAssertEqual(service.calls.map(\.search.recordsHistory), [false], "typing is not a search to remember")
        type(["swi "], every: 0)
        scheduler.advance(by: .milliseconds(250))
        XCTAssertEqual(
            service.calls.map(\.search.query), ["swi", "swi"], "the space makes it a whole word: searched again")
        XCTAssertEqual(service.calls.map(\.search.prefixLastWord), [true, false])

        makeViewModel(source: .x)
        type(["swift"], every: 0)
        scheduler.advance(by: .milliseconds(500))
        type(["swift "], every: 0)
        scheduler.advance(by: .milliseconds(500))
        XCTAssertEqual(service.calls.map(\.search.query), ["swift"], "a trailing space asks the API nothing new")
        XCTAssertEqual(service.calls.map(\.search.prefixLastWord), [false])
    }

    func testTypingWithinTheDebounceRunsExactlyOneSearch() {
        makeViewModel(source: .x)
        type(["s", "sw", "swi", "swift"], every: 120)
        XCTAssertTrue(service.calls.isEmpty, "nothing is searched while the user is still typing")
        // "swift" was typed at 360 ms; the clock reads 480 ms.
        scheduler.advance(by: .milliseconds(379))
        XCTAssertTrue(service.calls.isEmpty, "the API debounce is 500 ms")
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(service.calls.map(\.search.query), ["swift"])
        XCTAssertEqual(service.calls.first?.search.source, .x)
        XCTAssertTrue(viewModel.state.isSearching)

        _ = service.calls[0].publisher.send(SearchViewModelTests.page([3, 2, 1], next: "next"))
        scheduler.advance()
        XCTAssertEqual(viewModel.state.list.items.map(\.number), [1, 2, 3])
        XCTAssertEqual(viewModel.state.query, "swift")
        XCTAssertFalse(viewModel.state.isSearching)

        // A pause, more typing that ends where it started: removeDuplicates asks for nothing.
        type(["swif", "swift"], every: 100)
        scheduler.advance(by: .seconds(2))
        XCTAssertEqual(service.calls.count, 1)
        XCTAssertEqual(viewModel.state.list.items.count, 3, "the results stay")
    }

    func testTheLocalStoreIsSearchedAfterAShorterPause() {
        makeViewModel(source: .local)
        type(["s", "sw"], every: 200)
        scheduler.advance(by: .milliseconds(49))
        XCTAssertTrue(service.calls.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(service.calls.map(\.search.query), ["sw"], "250 ms locally, and short queries are fine")
        XCTAssertEqual(service.calls.first?.search.source, .local)
    }

    func testASlowFirstSearchIsCancelledByALaterOne() {
        makeViewModel(source: .x)
        type(["swift"], every: 600)
        XCTAssertEqual(service.calls.count, 1)
        type(["swift lang:en"], every: 600)
        XCTAssertEqual(service.calls.map(\.search.query), ["swift", "swift lang:en"])
        XCTAssertEqual(
            service.calls[0].publisher.cancelCount, 1, "switchToLatest cancelled the slow search at its source")
        XCTAssertEqual(service.calls[1].publisher.cancelCount, 0)

        // The slow answer turns up after all: it is stale and changes nothing.
        _ = service.calls[0].publisher.send(SearchViewModelTests.page([99], next: nil))
        scheduler.advance()
        XCTAssertTrue(viewModel.state.list.items.isEmpty)
        XCTAssertTrue(viewModel.state.isSearching)

        _ = service.calls[1].publisher.send(SearchViewModelTests.page([5, 4], next: nil))
        scheduler.advance()
        XCTAssertEqual(viewModel.state.list.items.map(\.tweet.id), [5, 4])
        XCTAssertEqual(viewModel.state.list.search?.query, "swift lang:en")
        XCTAssertFalse(viewModel.state.isSearching)
    }

    func testBelowThreeCharactersTheAPIIsNotAskedAndTheListIsCleared() {
        makeViewModel(source: .x)
        type(["s", "sw"], every: 100)
        scheduler.advance(by: .seconds(1))
        XCTAssertTrue(service.calls.isEmpty, "no request below 3 characters")
        XCTAssertEqual(viewModel.state.hint, "type at least 3 characters to search the X API")

        type(["swi"], every: 600)
        XCTAssertEqual(service.calls.map(\.search.query), ["swi"])
        _ = service.calls[0].publisher.send(SearchViewModelTests.page([1], next: nil))
        scheduler.advance()
        XCTAssertEqual(viewModel.state.list.items.count, 1)

        // Backspacing below the minimum clears the list without asking, and a search in flight is dropped.
        type(["swif"], every: 600)
        XCTAssertEqual(service.calls.count, 2)
        type(["swi", "sw"], every: 100)
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(service.calls.count, 2)
        XCTAssertEqual(service.calls[1].publisher.cancelCount, 1)
        XCTAssertTrue(viewModel.state.list.items.isEmpty)
        XCTAssertNil(viewModel.state.list.search)
        XCTAssertFalse(viewModel.state.isSearching)
        XCTAssertNotNil(viewModel.state.hint)
    }

    func testAnInitialQueryIsSearchedOnceTheDebounceHasPassed() {
        makeViewModel(source: .local, initialQuery: "from:swiftlang")
        scheduler.advance(by: .milliseconds(250))
        XCTAssertEqual(service.calls.map(\.search.query), ["from:swiftlang"])
    }

    func testLoadMoreAppendsTheNextPageAndIsIgnoredWhileLoading() {
        makeViewModel(source: .local)
        type(["swift"], every: 300)
        _ = service.calls[0].publisher.send(SearchViewModelTests.page([30, 20, 10], next: "cursor-1"))
        scheduler.advance()

        viewModel.loadMore.send(())
        viewModel.loadMore.send(())
        XCTAssertEqual(service.calls.count, 2, "a second load-more while the page loads is ignored")
        XCTAssertEqual(service.calls[1].cursor, "cursor-1")
        scheduler.advance()
        XCTAssertTrue(viewModel.state.isLoadingMore)
        _ = service.calls[1].publisher.send(SearchViewModelTests.page([10, 9, 8], next: nil))
        scheduler.advance()
        XCTAssertEqual(viewModel.state.list.items.map(\.tweet.id), [30, 20, 10, 9, 8])
        XCTAssertEqual(viewModel.state.list.items.map(\.number), [1, 2, 3, 4, 5])
        XCTAssertNil(viewModel.state.list.nextCursor)
        XCTAssertFalse(viewModel.state.isLoadingMore)

        viewModel.loadMore.send(())
        XCTAssertEqual(service.calls.count, 2, "no request when there is no next page")
    }

    func testANewQueryCancelsAPageStillLoading() {
        makeViewModel(source: .local)
        type(["swift"], every: 300)
        _ = service.calls[0].publisher.send(SearchViewModelTests.page([3, 2, 1], next: "c"))
        scheduler.advance()
        viewModel.loadMore.send(())
        type(["rust"], every: 300)
        XCTAssertEqual(service.calls.map(\.cursor), [nil, "c", nil])
        XCTAssertEqual(service.calls[1].publisher.cancelCount, 1)
        _ = service.calls[1].publisher.send(SearchViewModelTests.page([0], next: nil))
        _ = service.calls[2].publisher.send(SearchViewModelTests.page([7], next: nil))
        scheduler.advance()
        XCTAssertEqual(viewModel.state.list.items.map(\.tweet.id), [7])
    }

    func testErrorsAndWaitsShowAndTypingGoesOn() {
        makeViewModel(source: .x)
        type(["swift"], every: 600)
        _ = service.calls[0].publisher.send(
            .waiting(WaitNotice(reason: "rate limit on /2/tweets/search/recent, 12 s", secondsLeft: 12)))
        scheduler.advance()
        XCTAssertEqual(viewModel.state.wait?.secondsLeft, 12)
        XCTAssertTrue(viewModel.state.isSearching, "the wait does not end the search")

        // Typing during the wait: the waiting search is dropped and the new one runs.
        type(["swiftui"], every: 600)
        XCTAssertEqual(service.calls[0].publisher.cancelCount, 1)
        XCTAssertNil(viewModel.state.wait)
        service.calls[1].publisher.send(completion: .failure(SourceDown()))
        scheduler.advance()
        XCTAssertEqual(viewModel.state.errorMessage, "the source is down")
        XCTAssertFalse(viewModel.state.isSearching)

        type(["swift 6"], every: 600)
        XCTAssertNil(viewModel.state.errorMessage, "a new search clears the error")
        _ = service.calls[2].publisher.send(SearchViewModelTests.page([1], next: nil))
        scheduler.advance()
        XCTAssertEqual(viewModel.state.list.items.count, 1)
    }

    func testASourceThatEndsWithoutAnswerStopsTheSpinnerAndLoadMoreStillWorks() {
        makeViewModel(source: .local)
        type(["swift"], every: 300)
        _ = service.calls[0].publisher.send(SearchViewModelTests.page([3, 2, 1], next: "c"))
        scheduler.advance()
        viewModel.loadMore.send(())
        scheduler.advance()
        XCTAssertTrue(viewModel.state.isLoadingMore)
        service.calls[1].publisher.send(completion: .finished)
        scheduler.advance()
        XCTAssertFalse(viewModel.state.isLoadingMore)
        XCTAssertEqual(viewModel.state.list.items.count, 3)
        viewModel.loadMore.send(())
        XCTAssertEqual(service.calls.count, 3, "not stuck as busy")
    }

    func testTheSpinnerFlagTogglesOncePerSearch() {
        makeViewModel(source: .local)
        type(["swift"], every: 300)
        _ = service.calls[0].publisher.send(SearchViewModelTests.page([1], next: nil))
        scheduler.advance()
        let flags = states.map(\.isSearching)
        var changes: [Bool] = []
        for flag in flags where flag != changes.last { changes.append(flag) }
        XCTAssertEqual(changes, [false, true, false])
    }
}
