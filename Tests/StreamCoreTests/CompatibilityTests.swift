// Two view models written the way the seeds (../shared/seeds) write Combine code; only the import differs, and the
// schedulers are injected so the tests drive time by hand. The assertions state what Apple's Combine does with them.
import Foundation
import StreamCore
import StreamFoundation
import StreamTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// MARK: - (a) UIKit-style view model: CurrentValueSubject → removeDuplicates → debounce → Future API → switchToLatest

struct Tweet: Codable, Equatable {
    let text: String
    let user: User
}

struct User: Codable, Equatable {
    let name, profileImageUrl: String
}

/// Stands in for STTwitter's callback API (the network is not under test): it records each call and lets the test
/// answer it later, in any order.
final class FakeSTTwitterAPI {
    private(set) var searchQueries: [String] = []
    private var searchCallbacks: [(success: ([AnyHashable: Any]?, [Any]?) -> Void, failure: (Error?) -> Void)] = []
    private var credentialCallbacks: [(success: (String?, String?) -> Void, failure: (Error?) -> Void)] = []

    func verifyCredentials(
        userSuccessBlock: @escaping (String?, String?) -> Void, errorBlock: @escaping (Error?) -> Void
    ) {
        credentialCallbacks.append((userSuccessBlock, errorBlock))
    }

    func getSearchTweets(
        withQuery query: String,
        successBlock: @escaping ([AnyHashable: Any]?, [Any]?) -> Void,
        errorBlock: @escaping (Error?) -> Void
    ) {
        searchQueries.append(query)
        searchCallbacks.append((successBlock, errorBlock))
    }

    func answerCredentials(username: String) {
        credentialCallbacks.removeFirst().success(username, "42")
    }

    func failCredentials(with error: Error) {
        credentialCallbacks.removeFirst().failure(error)
    }

    func answerSearch(_ index: Int, with statuses: [Any]) {
        searchCallbacks[index].success(nil, statuses)
    }

    func failSearch(_ index: Int, with error: Error) {
        searchCallbacks[index].failure(error)
    }
}

struct TwitterAPI {
    var api: FakeSTTwitterAPI

    func verifyCredentials() -> Future<(String?, String?), Error> {
        Future { promise in
            api.verifyCredentials(
                userSuccessBlock: { (username, userId) in
                    promise(.success((username, userId)))
                },
                errorBlock: { (err) in
                    promise(Result.failure(err!))
                })
        }
    }

    func getSearchTweets(with query: String) -> AnyPublisher<[Tweet], Error> {
        Future { promise in
            api.getSearchTweets(
                withQuery: query,
                successBlock: { (data, res) in
                    promise(.success(res))
                },
                errorBlock: { (err) in
                    promise(.failure(err!))
                })
        }
        .compactMap({ $0 })
        .tryMap { try JSONSerialization.data(withJSONObject: $0, options: .prettyPrinted) }
        .decode(type: [Tweet].self, decoder: jsonDecoder)
        .eraseToAnyPublisher()
    }

    var jsonDecoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }
}

final class TwitterViewModel<S: Scheduler> {
    let tweets = CurrentValueSubject<[Tweet], Never>([Tweet]())
    let searchText = CurrentValueSubject<String, Never>("Paul Hudson")
    let twitterAPI: TwitterAPI
    let scheduler: S
    var subscriptions = Set<AnyCancellable>()
    let isTwitterConnected = CurrentValueSubject<Bool, Never>(false)
    let errorMessage = CurrentValueSubject<String?, Never>(nil)

    init(twitterAPI: TwitterAPI, scheduler: S) {
        self.twitterAPI = twitterAPI
        self.scheduler = scheduler
        twitterAPI.verifyCredentials()
            .sink { [unowned self] (completion) in
                switch completion {
                case .failure(let error):
                    self.errorMessage.send(error.localizedDescription)
                case .finished: return
                }
            } receiveValue: { [unowned self] (username, id) in
                self.isTwitterConnected.send(true)
                self.setupSearch()
            }.store(in: &subscriptions)
    }

    func setupSearch() {
        searchText
            .removeDuplicates()
            .debounce(for: .milliseconds(500), scheduler: scheduler)
            .map { [unowned self] (searchText) -> AnyPublisher<[Tweet], Never> in
                self.twitterAPI.getSearchTweets(with: searchText)
                    .catch { (error) in
                        Just([Tweet]())
                    }
                    .eraseToAnyPublisher()
            }
            .switchToLatest()
            .sink { [unowned self] (tweets) in
                self.tweets.send(tweets)
            }.store(in: &subscriptions)
    }
}

private struct NetworkDown: Error {}

private func statuses(_ texts: String...) -> [Any] {
    texts.map { ["text": $0, "user": ["name": "paul", "profile_image_url": "http://img/\($0)"]] as [String: Any] }
}

private func tweets(_ texts: String...) -> [Tweet] {
    texts.map { Tweet(text: $0, user: User(name: "paul", profileImageUrl: "http://img/\($0)")) }
}

final class CompatibilityTwitterViewModelTests: XCTestCase {
    private var api: FakeSTTwitterAPI!
    private var scheduler: TestScheduler!
    private var viewModel: TwitterViewModel<TestScheduler>!
    private var published: [[Tweet]] = []
    private var viewSubscriptions = Set<AnyCancellable>()

    override func setUp() {
        api = FakeSTTwitterAPI()
        scheduler = TestScheduler()
        viewModel = TwitterViewModel(twitterAPI: TwitterAPI(api: api), scheduler: scheduler)
        // The view controller's side: reload whenever the tweets subject changes.
        viewModel.tweets.sink { [unowned self] in self.published.append($0) }.store(in: &viewSubscriptions)
    }

    override func tearDown() {
        viewSubscriptions = []
        viewModel = nil
    }

    /// Connects, waits out the first debounce and answers the initial "Paul Hudson" search.
    private func connectAndLoadInitialSearch() {
        api.answerCredentials(username: "paul")
        scheduler.advance(by: .milliseconds(500))
        api.answerSearch(0, with: statuses("hello"))
    }

    func testNothingIsSearchedUntilCredentialsAreVerifiedAndTheDebounceElapses() {
        XCTAssertEqual(published, [[]], "a CurrentValueSubject replays its value to a new subscriber")
        XCTAssertEqual(viewModel.isTwitterConnected.value, false)
        api.answerCredentials(username: "paul")
        XCTAssertEqual(viewModel.isTwitterConnected.value, true)
        scheduler.advance(by: .milliseconds(499))
        XCTAssertEqual(api.searchQueries, [], "debounce holds the initial value for 500 ms")
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(api.searchQueries, ["Paul Hudson"])
        api.answerSearch(0, with: statuses("hello", "world"))
        XCTAssertEqual(viewModel.tweets.value, tweets("hello", "world"), "snake_case keys decode into camelCase")
        XCTAssertEqual(published, [[], tweets("hello", "world")])
    }

    func testTypingIsDebouncedAndDuplicatesDoNotRestartTheTimer() {
        connectAndLoadInitialSearch()
        viewModel.searchText.send("s")
        scheduler.advance(by: .milliseconds(200))
        viewModel.searchText.send("sw")
        scheduler.advance(by: .milliseconds(200))
        viewModel.searchText.send("swift")
        scheduler.advance(by: .milliseconds(200))
        viewModel.searchText.send("swift")
        XCTAssertEqual(api.searchQueries, ["Paul Hudson"])
        scheduler.advance(by: .milliseconds(300))
        XCTAssertEqual(
            api.searchQueries, ["Paul Hudson", "swift"],
            "the repeated value was removed, so the debounce fired 500 ms after the first \"swift\"")
        viewModel.searchText.send("swift")
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(api.searchQueries, ["Paul Hudson", "swift"])
    }

    func testOnlyTheLatestSearchReachesTheTweetsEvenWhenAnswersArriveOutOfOrder() {
        connectAndLoadInitialSearch()
        viewModel.searchText.send("combine")
        scheduler.advance(by: .milliseconds(500))
        viewModel.searchText.send("rx")
        scheduler.advance(by: .milliseconds(500))
        XCTAssertEqual(api.searchQueries, ["Paul Hudson", "combine", "rx"])
        api.answerSearch(2, with: statuses("rx answer"))
        api.answerSearch(1, with: statuses("stale combine answer"))
        XCTAssertEqual(viewModel.tweets.value, tweets("rx answer"))
        XCTAssertEqual(published, [[], tweets("hello"), tweets("rx answer")])
    }

    func testAFailedSearchShowsNoTweetsAndLaterSearchesStillWork() {
        connectAndLoadInitialSearch()
        viewModel.searchText.send("offline")
        scheduler.advance(by: .milliseconds(500))
        api.failSearch(1, with: NetworkDown())
        XCTAssertEqual(viewModel.tweets.value, [], "catch replaced the failure with Just([])")
        viewModel.searchText.send("online")
        scheduler.advance(by: .milliseconds(500))
        api.answerSearch(2, with: [["text": "no user"]])
        XCTAssertEqual(viewModel.tweets.value, [], "a decoding failure is caught the same way")
        viewModel.searchText.send("again")
        scheduler.advance(by: .milliseconds(500))
        api.answerSearch(3, with: statuses("back"))
        XCTAssertEqual(viewModel.tweets.value, tweets("back"), "the outer stream survived both failures")
        XCTAssertEqual(published, [[], tweets("hello"), [], [], tweets("back")])
    }

    func testFailedCredentialsReportTheErrorAndNeverSearch() {
        let failing = FakeSTTwitterAPI()
        let model = TwitterViewModel(twitterAPI: TwitterAPI(api: failing), scheduler: scheduler)
        XCTAssertNil(model.errorMessage.value)
        failing.failCredentials(with: NetworkDown())
        XCTAssertEqual(model.errorMessage.value, NetworkDown().localizedDescription)
        XCTAssertEqual(model.isTwitterConnected.value, false)
        scheduler.advance(by: .seconds(5))
        XCTAssertEqual(failing.searchQueries, [])
    }
}

// MARK: - (b) bind(searchQuery:) view model: share, decode, replaceError, assign(to: &$photos), merge → searching

struct Photo: Codable, Equatable {
    let id: String
}

struct SearchPhotos: Codable, Equatable {
    let total: Int
    let results: [Photo]

    static let emptyResults = SearchPhotos(total: 0, results: [])
}

extension URLRequest {
    static func searchPhotos(query: String) -> URLRequest {
        var components = URLComponents(string: "https://api.unsplash.com/search/photos")!
        components.queryItems = [URLQueryItem(name: "query", value: query)]
        return URLRequest(url: components.url!)
    }
}

/// Stands in for the network behind `API.publisher(for:)`: each request gets a hand-driven publisher.
final class FakePhotoAPI {
    private(set) var requests: [URLRequest] = []
    private(set) var responses: [ManualPublisher<Data, Error>] = []

    var queries: [String] {
        requests.compactMap { URLComponents(url: $0.url!, resolvingAgainstBaseURL: false)?.queryItems?.first?.value }
    }

    func publisher(for request: URLRequest) -> AnyPublisher<Data, Error> {
        let response = ManualPublisher<Data, Error>()
        requests.append(request)
        responses.append(response)
        return response.eraseToAnyPublisher()
    }
}

enum API {
    static let jsonDecoder = JSONDecoder()
}

final class SearchViewModel<S: Scheduler> {
    @Published var photos: [Photo] = []
    @Published var searching: Bool = false
    private let api: FakePhotoAPI
    private let scheduler: S

    init(api: FakePhotoAPI, scheduler: S) {
        self.api = api
        self.scheduler = scheduler
    }

    func bind(searchQuery: AnyPublisher<String, Never>) {
        let api = self.api
        let search =
            searchQuery
            .debounce(for: .seconds(0.5), scheduler: scheduler)
            .map { URLRequest.searchPhotos(query: $0) }
            .share()

        let photos =
            search
            .map { api.publisher(for: $0) }
            .switchToLatest()
            .decode(type: SearchPhotos.self, decoder: API.jsonDecoder)
            .replaceError(with: .emptyResults)
            .share()

        photos
            .map(\.results)
            .receive(on: scheduler)
            .assign(to: &$photos)

        search
            .map { _ in true }
            .merge(with: photos.map { _ in false })
            .replaceError(with: false)
            .receive(on: scheduler)
            .assign(to: &$searching)
    }
}

private func body(_ ids: String...) -> Data {
    let results = ids.map { "{\"id\":\"\($0)\"}" }.joined(separator: ",")
    return Data("{\"total\":\(ids.count),\"results\":[\(results)]}".utf8)
}

final class CompatibilitySearchViewModelTests: XCTestCase {
    private var api: FakePhotoAPI!
    private var scheduler: TestScheduler!
    private var query: PassthroughSubject<String, Never>!
    private var viewModel: SearchViewModel<TestScheduler>!
    private var searchingSeen: [Bool] = []
    private var photosSeen: [[Photo]] = []
    private var photosWhenNotified: [[Photo]] = []
    private var viewSubscriptions = Set<AnyCancellable>()

    override func setUp() {
        api = FakePhotoAPI()
        scheduler = TestScheduler()
        query = PassthroughSubject()
        viewModel = SearchViewModel(api: api, scheduler: scheduler)
        viewModel.bind(searchQuery: query.eraseToAnyPublisher())
        // The view controller's side, as in the seed.
        viewModel.$searching.sink { [unowned self] in self.searchingSeen.append($0) }.store(in: &viewSubscriptions)
        viewModel.$photos.sink { [unowned self] new in
            self.photosSeen.append(new)
            self.photosWhenNotified.append(self.viewModel.photos)
        }.store(in: &viewSubscriptions)
    }

    override func tearDown() {
        viewSubscriptions = []
        viewModel = nil
    }

    func testASearchTurnsSearchingOnThenDeliversPhotosOnTheScheduler() {
        XCTAssertEqual(searchingSeen, [false], "@Published replays its current value")
        query.send("cats")
        scheduler.advance(by: .milliseconds(499))
        XCTAssertEqual(api.queries, [])
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(api.queries, ["cats"])
        XCTAssertEqual(api.responses[0].requests, [.unlimited], "share() asks for everything")
        XCTAssertEqual(viewModel.searching, true)
        api.responses[0].send(body("c1", "c2"))
        XCTAssertEqual(viewModel.photos, [], "receive(on:) has not run yet")
        XCTAssertEqual(viewModel.searching, true)
        scheduler.advance()
        XCTAssertEqual(viewModel.photos, [Photo(id: "c1"), Photo(id: "c2")])
        XCTAssertEqual(viewModel.searching, false)
        XCTAssertEqual(searchingSeen, [false, true, false])
        XCTAssertEqual(photosSeen, [[], [Photo(id: "c1"), Photo(id: "c2")]])
        XCTAssertEqual(
            photosWhenNotified, [[], []], "@Published publishes in willSet: the property still has the old value")
    }

    func testTheSearchIsDebouncedAndAStaleRequestIsCancelled() {
        query.send("d")
        scheduler.advance(by: .milliseconds(300))
        query.send("do")
        scheduler.advance(by: .milliseconds(300))
        XCTAssertEqual(api.queries, [])
        scheduler.advance(by: .milliseconds(200))
        XCTAssertEqual(api.queries, ["do"])
        query.send("dog")
        scheduler.advance(by: .milliseconds(500))
        XCTAssertEqual(api.queries, ["do", "dog"])
        XCTAssertEqual(api.responses[0].cancelCount, 1, "switchToLatest cancels the superseded request")
        api.responses[0].subscription?.send(body("stale"))
        api.responses[1].send(body("dog"))
        scheduler.advance()
        XCTAssertEqual(viewModel.photos, [Photo(id: "dog")])
        XCTAssertEqual(searchingSeen, [false, true, true, false])
    }

    func testAnUndecodableResponseEndsThePhotoStreamAsCombineDoes() {
        query.send("cats")
        scheduler.advance(by: .milliseconds(500))
        api.responses[0].send(body("c1"))
        scheduler.advance()
        XCTAssertEqual(viewModel.photos, [Photo(id: "c1")])

        query.send("broken")
        scheduler.advance(by: .milliseconds(500))
        api.responses[1].send(Data("not json".utf8))
        scheduler.advance()
        XCTAssertEqual(viewModel.photos, [], "replaceError published the empty results")
        XCTAssertEqual(viewModel.searching, false)

        // replaceError finished the shared photo stream, so its branch unsubscribed from `search`: the next query
        // still turns `searching` on, but no request is made and nothing ever turns it off again.
        query.send("fish")
        scheduler.advance(by: .milliseconds(500))
        XCTAssertEqual(api.queries, ["cats", "broken"])
        XCTAssertEqual(viewModel.searching, true)
        scheduler.advance(by: .seconds(5))
        XCTAssertEqual(viewModel.searching, true)
        XCTAssertEqual(searchingSeen, [false, true, false, true, false, true])
    }

    func testANetworkFailureAlsoBecomesEmptyResults() {
        query.send("cats")
        scheduler.advance(by: .milliseconds(500))
        api.responses[0].send(completion: .failure(URLError(.notConnectedToInternet)))
        scheduler.advance()
        XCTAssertEqual(viewModel.photos, [])
        XCTAssertEqual(photosSeen, [[], []], "the empty results are still published")
        XCTAssertEqual(viewModel.searching, false)
    }
}
