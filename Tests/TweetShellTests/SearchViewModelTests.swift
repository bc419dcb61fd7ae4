import StreamCore
import StreamTesting
import TweetKit
import XCTest

@testable import TweetShell

/// A search service whose every call returns a hand-driven publisher, so tests control timing and see cancels.
final class ManualSearchService: SearchService, @unchecked Sendable {
    struct Call {
        var search: SearchOptions
        var cursor: String?
        var pageSize: Int
        var publisher: ManualPublisher<SearchProgress, any Error>
    }
    private let lock = NSLock()
    private var recorded: [Call] = []

    var calls: [Call] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    func firstPage(for search: SearchOptions, pageSize: Int) -> AnyPublisher<SearchProgress, any Error> {
        record(search, nil, pageSize)
    }

    func nextPage(for search: SearchOptions, cursor: String, pageSize: Int) -> AnyPublisher<SearchProgress, any Error> {
        record(search, cursor, pageSize)
    }

    private func record(_ search: SearchOptions, _ cursor: String?, _ pageSize: Int) -> AnyPublisher<
        SearchProgress, any Error
    > {
        let publisher = ManualPublisher<SearchProgress, any Error>()
        lock.lock()
        recorded.append(Call(search: search, cursor: cursor, pageSize: pageSize, publisher: publisher))
        lock.unlock()
        return publisher.eraseToAnyPublisher()
    }
}

struct SourceDown: Error, CustomStringConvertible {
    var description: String { "the source is down" }
}

final class SearchViewModelTests: XCTestCase {
    var scheduler: TestScheduler!
    var service: ManualSearchService!
    var viewModel: SearchViewModel!
    var outcomes: [CommandOutcome] = []
    var errors: [String] = []
    var searching: [Bool] = []
    var cancellables = Set<AnyCancellable>()

    override func setUp() {
        scheduler = TestScheduler()
        service = ManualSearchService()
        viewModel = SearchViewModel(service: service, pageSize: 3, scheduler: scheduler)
        viewModel.outcomes.sink { [unowned self] in outcomes.append($0) }.store(in: &cancellables)
        viewModel.errorMessages.sink { [unowned self] in errors.append($0) }.store(in: &cancellables)
        viewModel.$isSearching.sink { [unowned self] in searching.append($0) }.store(in: &cancellables)
        // Runs whatever the pipelines scheduled at start, so each test begins from a settled view model.
        scheduler.advance()
    }

    override func tearDown() {
        cancellables.removeAll()
        viewModel = nil
    }

    static func page(_ ids: [UInt64], next: String?) -> SearchProgress {
        let author = User(id: 7, username: "author", name: "Author")
        let tweets = ids.map { Tweet(id: TweetID($0), text: "tweet \($0)", authorID: 7) }
        return .page(SearchPage(page: Page(tweets: tweets, users: [author], nextToken: next), sourceName: "test"))
    }

    func testASecondSearchCancelsTheFirstAndTheSourceSeesTheCancel() {
        viewModel.searches.send(Tagged(id: 1, value: SearchOptions(query: "slow")))
        viewModel.searches.send(Tagged(id: 2, value: SearchOptions(query: "fast")))
        XCTAssertEqual(service.calls.map(\.search.query), ["slow", "fast"])
        XCTAssertEqual(service.calls[0].publisher.cancelCount, 1, "the first search's source was cancelled")
        XCTAssertEqual(service.calls[1].publisher.cancelCount, 0)

        _ = service.calls[1].publisher.send(Self.page([30, 20], next: nil))
        scheduler.advance()
        XCTAssertEqual(viewModel.results.items.map(\.tweet.id), [30, 20])
        XCTAssertEqual(viewModel.results.search?.query, "fast")
        XCTAssertEqual(outcomes.map(\.id), [1, 2])
        XCTAssertEqual(outcomes.first, .cancelled(id: 1))

        // A late answer from the cancelled source changes nothing.
        _ = service.calls[0].publisher.send(Self.page([99], next: nil))
        scheduler.advance()
        XCTAssertEqual(viewModel.results.items.map(\.tweet.id), [30, 20])
    }

    func testMoreAppendsWithoutDuplicatesAndNumbersStayStable() {
        viewModel.searches.send(Tagged(id: 1, value: SearchOptions(query: "swift")))
        _ = service.calls[0].publisher.send(Self.page([50, 40, 30], next: "cursor-1"))
        scheduler.advance()

        viewModel.pageRequests.send(Tagged(id: 2, value: nil))
        XCTAssertEqual(service.calls[1].cursor, "cursor-1")
        XCTAssertEqual(service.calls[1].pageSize, 3)
        _ = service.calls[1].publisher.send(Self.page([30, 20, 10], next: nil))
        scheduler.advance()

        XCTAssertEqual(viewModel.results.items.map(\.tweet.id), [50, 40, 30, 20, 10])
        XCTAssertEqual(viewModel.results.items.map(\.number), [1, 2, 3, 4, 5])
        guard case .results(_, let added, _, _, _) = outcomes.last else { return XCTFail("no results outcome") }
        XCTAssertEqual(added.map(\.number), [4, 5])
        XCTAssertEqual(viewModel.results.item(5)?.tweet.id, 10)
        XCTAssertNil(viewModel.results.nextCursor)

        viewModel.pageRequests.send(Tagged(id: 3, value: nil))
        scheduler.advance()
        XCTAssertEqual(outcomes.last, .failed(id: 3, message: "no more results for 'swift'"))
        XCTAssertEqual(service.calls.count, 2, "no request when there is no next page")
    }

    func testAnErrorSurfacesAndTheNextSearchStillWorks() {
        viewModel.searches.send(Tagged(id: 1, value: SearchOptions(query: "broken")))
        service.calls[0].publisher.send(completion: .failure(SourceDown()))
        scheduler.advance()
        XCTAssertEqual(errors, ["the source is down"])
        XCTAssertEqual(outcomes.last, .failed(id: 1, message: "the source is down"))

        viewModel.searches.send(Tagged(id: 2, value: SearchOptions(query: "working")))
        _ = service.calls[1].publisher.send(Self.page([1], next: nil))
        scheduler.advance()
        XCTAssertEqual(viewModel.results.items.map(\.tweet.id), [1])
        XCTAssertEqual(outcomes.last?.id, 2)
    }

    func testIsSearchingTogglesExactlyOncePerSearch() {
        XCTAssertEqual(searching, [false])
        viewModel.searches.send(Tagged(id: 1, value: SearchOptions(query: "a")))
        scheduler.advance()
        XCTAssertEqual(searching, [false, true])
        _ = service.calls[0].publisher.send(Self.page([1], next: "n"))
        scheduler.advance()
        XCTAssertEqual(searching, [false, true, false])

        viewModel.searches.send(Tagged(id: 2, value: SearchOptions(query: "b")))
        service.calls[1].publisher.send(completion: .failure(SourceDown()))
        scheduler.advance()
        XCTAssertEqual(searching, [false, true, false, true, false])
    }

    func testCancellingACommandStopsItsSourceAndReportsCancelled() {
        viewModel.searches.send(Tagged(id: 1, value: SearchOptions(query: "slow")))
        scheduler.advance()
        viewModel.cancellations.send(1)
        scheduler.advance()
        XCTAssertEqual(service.calls[0].publisher.cancelCount, 1)
        XCTAssertEqual(outcomes, [.cancelled(id: 1)])
        XCTAssertEqual(searching, [false, true, false])
    }

    func testRateLimitWaitsAreForwarded() {
        var waits: [WaitNotice] = []
        viewModel.waits.sink { waits.append($0) }.store(in: &cancellables)
        viewModel.searches.send(Tagged(id: 1, value: SearchOptions(query: "busy")))
        _ = service.calls[0].publisher.send(.waiting(WaitNotice(reason: "rate limit", secondsLeft: 3)))
        scheduler.advance()
        XCTAssertEqual(waits, [WaitNotice(reason: "rate limit", secondsLeft: 3)])
        XCTAssertTrue(viewModel.isSearching)
    }
}
