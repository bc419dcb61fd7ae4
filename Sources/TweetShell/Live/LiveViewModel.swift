import Foundation
import StreamCore
import TweetKit

/// The view model behind `live`: the seeds' search bar, fed one keystroke at a time.
///
/// `query` → trim → debounce (250 ms local, 500 ms API) → removeDuplicates → a search, or a cleared list when the query
/// is too short → switchToLatest → `state`. On the local store the last word matches as a prefix until a space
/// follows it, so results appear while a word is still being typed. Load-more requests join the same switchToLatest, so a new query also
/// cancels a page still loading; the cancel reaches the HTTP request or the SQLite query through the service.
public final class LiveViewModel: @unchecked Sendable {
    // Inputs.
    /// The whole query after each keystroke. A current-value subject, so a query sent before the pipeline asks for
    /// values is still searched.
    public let query: CurrentValueSubject<String, Never>
    /// Asks for the next page of the current results; ignored while a page is loading or when there is none.
    public let loadMore = PassthroughSubject<Void, Never>()

    // Outputs.
    /// What the screen shows; published on the scheduler given at creation.
    @Published public private(set) var state = LiveState()

    /// The settings in force.
    public let settings: LiveSettings

    private enum Request {
        case search(Typed)
        case more
    }

    /// A query as typed: its text without surrounding spaces, and whether the last word may still be growing.
    private struct Typed: Equatable {
        var text: String
        /// True on the local store while the query does not end with a space: "swi" also finds "swift". The API has
        /// no prefix matching, and a trailing space there would only repeat the same request.
        var unfinished: Bool
    }

    private enum Target {
        case first(SearchOptions)
        case next
    }

    private enum Event {
        case started(generation: Int, query: String, target: Target)
        case progress(generation: Int, target: Target, SearchProgress)
        case failed(generation: Int, message: String)
        case cleared(generation: Int, query: String)
        /// The source finished; after a page or a failure this changes nothing, but a source that ends without
        /// either must not leave the spinner turning.
        case finished(generation: Int)
        /// The query's daily volume arrived (local source with a volume service).
        case volume(generation: Int, counts: [Int])
    }

    private let lock = NSLock()
    private var snapshot = LiveState()
    /// Bumped for every request let through; events of older generations are stale (switchToLatest has already
    /// cancelled their source, but some may have been queued for the scheduler before the cancel).
    private var generation = 0
    private var busy = false
    private var subscriptions = Set<AnyCancellable>()
    private let volume: (any ExploreService)?

    /// Binds the pipeline. Timing and state changes run on `scheduler` (a dispatch queue in the shell, TestScheduler
    /// in tests); `initialQuery` is searched after the debounce like anything typed.
    ///
    /// With `volume`, a local search also counts its query by day through the explore service (the `count` code),
    /// inside the same switchToLatest, so the count is cancelled with the search it belongs to.
    public init<S: Scheduler>(
        service: any SearchService, settings: LiveSettings, scheduler: S, initialQuery: String = "",
        volume: (any ExploreService)? = nil
    ) {
        self.settings = settings
        self.volume = settings.source == .local ? volume : nil
        query = CurrentValueSubject(initialQuery)
        let prefixes = settings.source == .local
        let searches =
            query
            .map { raw in
                Typed(
                    text: raw.trimmingCharacters(in: .whitespaces),
                    unfinished: prefixes && !(raw.last.map { $0 == " " || $0 == "\t" } ?? true))
            }
            .debounce(for: .milliseconds(settings.debounceMilliseconds), scheduler: scheduler)
            .removeDuplicates()
            .map { Request.search($0) }
        searches
            .merge(with: loadMore.map { Request.more })
            .compactMap { [weak self] request in self?.publisher(for: request, service: service) }
            .switchToLatest()
            .receive(on: scheduler)
            .sink { [weak self] event in self?.apply(event) }
            .store(in: &subscriptions)
    }

    /// Stops the pipeline and any search in flight.
    public func stop() {
        lock.lock()
        let running = subscriptions
        subscriptions.removeAll()
        lock.unlock()
        for subscription in running { subscription.cancel() }
    }

    /// The work for one request, or nil when a load-more request has nothing to do.
    private func publisher(for request: Request, service: any SearchService) -> AnyPublisher<Event, Never>? {
        let settings = self.settings
        lock.lock()
        switch request {
        case .search(let typed):
            let text = typed.text
            generation += 1
            let current = generation
            guard text.count >= settings.minimumQueryLength else {
                busy = false
                lock.unlock()
                return Just(Event.cleared(generation: current, query: text)).eraseToAnyPublisher()
            }
            busy = true
            lock.unlock()
            // Only the query the user keeps goes into the search history (`ShellSession.live` records it).
            var options = SearchOptions(query: text, source: settings.source)
            options.recordsHistory = false
            options.prefixLastWord = typed.unfinished
            let events = Self.events(
                of: service.firstPage(for: options, pageSize: settings.pageSize), generation: current,
                query: text, target: .first(options))
            guard let volume else { return events }
            let counts = volume.run(.count(CountOptions(query: text, granularity: .day)))
                .compactMap { progress -> Event? in
                    guard case .answer(.count(let series, _)) = progress else { return nil }
                    return Event.volume(generation: current, counts: series.buckets.map(\.count))
                }
                // A query the count cannot take (an unfinished quote) just has no sparkline; the search says why.
                .catch { _ in Empty<Event, Never>() }
            return events.merge(with: counts).eraseToAnyPublisher()
        case .more:
            guard !busy, let search = snapshot.list.search, let cursor = snapshot.list.nextCursor else {
                lock.unlock()
                return nil
            }
            generation += 1
            let current = generation
            busy = true
            lock.unlock()
            return Self.events(
                of: service.nextPage(for: search, cursor: cursor, pageSize: settings.pageSize),
                generation: current, query: search.query, target: .next)
        }
    }

    private static func events(
        of work: AnyPublisher<SearchProgress, any Error>, generation: Int, query: String,
        target: Target
    ) -> AnyPublisher<Event, Never> {
        work
            .map { Event.progress(generation: generation, target: target, $0) }
            .catch { error in Just(Event.failed(generation: generation, message: ErrorText.describe(error))) }
            .append(Event.finished(generation: generation))
            .prepend(Event.started(generation: generation, query: query, target: target))
            .eraseToAnyPublisher()
    }

    private func apply(_ event: Event) {
        lock.lock()
        var next = snapshot
        switch event {
        case .started(let g, let query, let target):
            guard g == generation else { return lock.unlock() }
            if case .first = target {
                next.query = query
                next.isSearching = true
                next.note = nil
                next.volume = nil
            } else {
                next.isLoadingMore = true
            }
            next.errorMessage = nil
            next.hint = nil
            next.wait = nil
        case .progress(let g, _, .waiting(let notice)):
            guard g == generation else { return lock.unlock() }
            next.wait = notice
        case .progress(let g, let target, .page(let answer)):
            guard g == generation else { return lock.unlock() }
            switch target {
            case .first(let options):
                next.list = ResultList(
                    search: options, sourceName: answer.sourceName, nextCursor: answer.page.nextToken,
                    totalCount: answer.page.resultCount)
                next.list.append(answer.page)
                next.note = answer.note
            case .next:
                next.list.append(answer.page)
                next.list.nextCursor = answer.page.nextToken
            }
            next.isSearching = false
            next.isLoadingMore = false
            next.wait = nil
            busy = false
        case .failed(let g, let message):
            guard g == generation else { return lock.unlock() }
            next.errorMessage = message
            next.isSearching = false
            next.isLoadingMore = false
            next.wait = nil
            busy = false
        case .finished(let g):
            guard g == generation, busy else { return lock.unlock() }
            next.isSearching = false
            next.isLoadingMore = false
            next.wait = nil
            busy = false
        case .volume(let g, let counts):
            guard g == generation else { return lock.unlock() }
            next.volume = counts
        case .cleared(let g, let query):
            guard g == generation else { return lock.unlock() }
            next = LiveState(query: query)
            if !query.isEmpty {
                let needed = settings.minimumQueryLength
                next.hint =
                    "type at least \(needed) characters to search \(settings.source == .x ? "the X API" : "the local store")"
            }
        }
        snapshot = next
        lock.unlock()
        state = next
    }
}
