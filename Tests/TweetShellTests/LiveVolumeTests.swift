import StreamCore
import StreamTesting
import TweetKit
import XCTest

@testable import TweetShell

/// The live status line's volume sparkline: counted through the explore service beside each local search, cancelled
/// with it, never asked of the API.
final class LiveVolumeTests: XCTestCase {
    var scheduler: TestScheduler!
    var service: ManualSearchService!
    var volume: ManualExploreService!
    var viewModel: LiveViewModel!
    var cancellables = Set<AnyCancellable>()

    private func makeViewModel(source: SourceKind) {
        scheduler = TestScheduler()
        service = ManualSearchService()
        volume = ManualExploreService()
        viewModel = LiveViewModel(
            service: service, settings: .defaults(for: source, pageSize: 3), scheduler: scheduler, volume: volume)
        viewModel.$state.sink { _ in }.store(in: &cancellables)
        scheduler.advance()
    }

    override func tearDown() {
        cancellables.removeAll()
        viewModel?.stop()
        viewModel = nil
    }

    static func series(_ counts: [Int]) -> ExploreProgress {
        let day: Int64 = 86_400_000
        let buckets = counts.enumerated().map {
            CountBucket(start: Int64($0.offset) * day, end: Int64($0.offset + 1) * day, count: $0.element)
        }
        return .answer(.count(CountSeries(query: "q", granularity: .day, buckets: buckets), json: false))
    }

    func testEachLocalSearchCountsItsQueryByDayAndANewQueryCancelsTheCount() {
        makeViewModel(source: .local)
        viewModel.query.send("rain")
        scheduler.advance(by: .milliseconds(250))
        XCTAssertEqual(volume.calls.count, 1)
        XCTAssertEqual(volume.calls.first?.request, .count(CountOptions(query: "rain", granularity: .day)))

        viewModel.query.send("coffee")
        scheduler.advance(by: .milliseconds(250))
        XCTAssertEqual(volume.calls[0].publisher.cancelCount, 1, "the old query's count is cancelled with its search")
        XCTAssertEqual(service.calls[0].publisher.cancelCount, 1)

        _ = volume.calls[1].publisher.send(Self.series([0, 2, 5, 1]))
        scheduler.advance()
        XCTAssertEqual(viewModel.state.volume, [0, 2, 5, 1])
        let status = LiveLayout(width: 100, height: 5, style: Style(enabled: false))
            .statusLine(state: viewModel.state, sourceName: "local", spinnerFrame: 0)
        XCTAssertTrue(status.contains("▁▃█▂ by day"), status)

        // A late count for the old query changes nothing.
        _ = volume.calls[0].publisher.send(Self.series([9, 9]))
        scheduler.advance()
        XCTAssertEqual(viewModel.state.volume, [0, 2, 5, 1])
    }

    func testTheAPISourceHasNoSparkline() {
        makeViewModel(source: .x)
        viewModel.query.send("coffee")
        scheduler.advance(by: .milliseconds(500))
        XCTAssertEqual(service.calls.count, 1)
        XCTAssertTrue(volume.calls.isEmpty, "no count is spent on the API while typing")
        XCTAssertNil(viewModel.state.volume)
    }
}
