import StreamCore
import StreamTesting
import TweetKit
import XCTest

@testable import TweetShell

/// An explore service whose every call returns a hand-driven publisher, so tests control timing and see cancels.
final class ManualExploreService: ExploreService, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [(ExploreRequest, ManualPublisher<ExploreProgress, any Error>)] = []

    var calls: [(request: ExploreRequest, publisher: ManualPublisher<ExploreProgress, any Error>)] {
        lock.withLock { recorded.map { (request: $0.0, publisher: $0.1) } }
    }

    func run(_ request: ExploreRequest) -> AnyPublisher<ExploreProgress, any Error> {
        let publisher = ManualPublisher<ExploreProgress, any Error>()
        lock.withLock { recorded.append((request, publisher)) }
        return publisher.eraseToAnyPublisher()
    }
}

final class ExploreViewModelTests: XCTestCase {
    var scheduler: TestScheduler!
    var service: ManualExploreService!
    var viewModel: ExploreViewModel!
    var outcomes: [ExploreOutcome] = []
    var cancellables = Set<AnyCancellable>()

    override func setUp() {
        scheduler = TestScheduler()
        service = ManualExploreService()
        viewModel = ExploreViewModel(service: service, scheduler: scheduler)
        viewModel.outcomes.sink { [unowned self] in outcomes.append($0) }.store(in: &cancellables)
        scheduler.advance()
    }

    override func tearDown() {
        cancellables.removeAll()
        viewModel = nil
    }

    static let series = CountSeries(
        query: "fast", granularity: .day, buckets: [CountBucket(start: 0, end: 86_400_000, count: 3)])

    func testANewRequestCancelsTheOneInFlightWhateverItsKind() {
        viewModel.counts.send(Tagged(id: 1, value: CountOptions(query: "slow")))
        viewModel.tops.send(Tagged(id: 2, value: TopOptions(kind: .hashtags, query: "x")))
        viewModel.counts.send(Tagged(id: 3, value: CountOptions(query: "fast")))
        XCTAssertEqual(service.calls.count, 3)
        XCTAssertEqual(service.calls[0].publisher.cancelCount, 1, "the first count's source was cancelled")
        XCTAssertEqual(service.calls[1].publisher.cancelCount, 1, "so was the top list's")
        XCTAssertEqual(service.calls[2].publisher.cancelCount, 0)

        _ = service.calls[2].publisher.send(.answer(.count(Self.series, json: false)))
        scheduler.advance()
        XCTAssertEqual(
            outcomes,
            [.cancelled(id: 1), .cancelled(id: 2), .answered(id: 3, .count(Self.series, json: false))])
        XCTAssertEqual(viewModel.currentCount, Self.series, "the last count is the current result")

        // A late answer from a cancelled source changes nothing.
        _ = service.calls[0].publisher.send(
            .answer(.count(CountSeries(query: "slow", granularity: .day, buckets: []), json: false)))
        scheduler.advance()
        XCTAssertEqual(viewModel.currentCount, Self.series)
        XCTAssertEqual(outcomes.count, 3)
    }

    func testCtrlCStopsAPagingCountAndTheSourceSeesIt() {
        var pages: [Int] = []
        viewModel.pages.sink { pages.append($0) }.store(in: &cancellables)
        viewModel.counts.send(Tagged(id: 7, value: CountOptions(query: "long")))
        _ = service.calls[0].publisher.send(.paging(pages: 1))
        _ = service.calls[0].publisher.send(.paging(pages: 2))
        scheduler.advance()
        viewModel.cancellations.send(7)
        scheduler.advance()
        XCTAssertEqual(pages, [1, 2])
        XCTAssertEqual(service.calls[0].publisher.cancelCount, 1)
        XCTAssertEqual(outcomes, [.cancelled(id: 7)])
        XCTAssertNil(viewModel.currentCount)

        // The pipeline lives on for the next request.
        viewModel.overviews.send(Tagged(id: 8, value: nil))
        let overview = CollectionOverview(volume: Self.series)
        _ = service.calls[1].publisher.send(.answer(.stats(overview, tweets: ResultList(), name: "all collections")))
        scheduler.advance()
        XCTAssertEqual(outcomes.last, .answered(id: 8, .stats(overview, tweets: ResultList(), name: "all collections")))
    }

    func testAFailureIsAnOutcomeAndWaitsAreForwarded() {
        var waits: [WaitNotice] = []
        viewModel.waits.sink { waits.append($0) }.store(in: &cancellables)
        viewModel.tops.send(Tagged(id: 4, value: TopOptions(kind: .words, query: "x")))
        _ = service.calls[0].publisher.send(.waiting(WaitNotice(reason: "rate limit", secondsLeft: 3)))
        service.calls[0].publisher.send(completion: .failure(SourceDown()))
        scheduler.advance()
        XCTAssertEqual(waits, [WaitNotice(reason: "rate limit", secondsLeft: 3)])
        XCTAssertEqual(outcomes, [.failed(id: 4, message: "the source is down")])
        XCTAssertNil(viewModel.currentTop)

        let list = TopList(kind: .words, query: "x", rows: [TopRow(key: "rain", count: 2)], tweets: 2)
        viewModel.tops.send(Tagged(id: 5, value: TopOptions(kind: .words, query: "x")))
        _ = service.calls[1].publisher.send(.answer(.top(list)))
        scheduler.advance()
        XCTAssertEqual(viewModel.currentTop, list)
        XCTAssertEqual(list.drillQuery(1), "(x) rain")
        XCTAssertNil(list.drillQuery(2))
    }
}
