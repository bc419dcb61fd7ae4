import Foundation
import StreamCore
import TweetKit

/// The search screen's view model, in the seeds' pattern: inputs are subjects, outputs are publishers.
///
/// - A new search cancels the one in flight (`map` + `switchToLatest`), and the cancel reaches the source.
/// - `more` appends the next page (`flatMap`) to the accumulated results, numbering on.
/// - Errors are caught and become an error message; the stream stays alive for the next command.
/// - Ctrl-C sends the command's id into `cancellations`, which ends that command's inner publisher.
public final class SearchViewModel: @unchecked Sendable {
    // Inputs.
    /// New searches.
    public let searches = PassthroughSubject<Tagged<SearchOptions>, Never>()
    /// `more [N]`: the next page of the current search, N results (nil: the page size).
    public let pageRequests = PassthroughSubject<Tagged<Int?>, Never>()
    /// Ids of commands to stop (Ctrl-C).
    public let cancellations = PassthroughSubject<Int, Never>()

    // Outputs.
    /// The accumulated results of the current search.
    @Published public private(set) var results = ResultList()
    /// True from a command's start to its outcome; toggles once per search.
    @Published public private(set) var isSearching = false
    /// False after a network failure, true after a successful answer.
    @Published public private(set) var isConnected = true
    /// Error messages, one per failed command.
    public let errorMessages = PassthroughSubject<String, Never>()
    /// Waits the source is sitting out (rate limits), for a countdown.
    public let waits = PassthroughSubject<WaitNotice, Never>()
    /// How each command ended; formatters and the REPL subscribe to it.
    public let outcomes = PassthroughSubject<CommandOutcome, Never>()

    private enum Event {
        case started(id: Int, isSearch: Bool)
        case progress(id: Int, target: Target, SearchProgress)
        case failed(id: Int, message: String, offline: Bool)
        case cancelled(id: Int)
    }

    private enum Target {
        case first(SearchOptions)
        case next(generation: Int)
    }

    private let lock = NSLock()
    private var snapshot = ResultList()
    private var generation = 0
    private var lastID = 0
    private var inFlight: [Int: Bool] = [:]  // id → is a search
    private var pending: [Int: AnyCancellable] = [:]
    private var subscriptions = Set<AnyCancellable>()

    /// Binds the pipeline. Events are applied on `scheduler` (ImmediateScheduler in the shell, TestScheduler in tests).
    public init<S: Scheduler>(service: any SearchService, pageSize: Int, scheduler: S) {
        let cancellations = self.cancellations
        let searches = self.searches

        let searchEvents =
            searches
            .map { request -> AnyPublisher<Event, Never> in
                service.firstPage(for: request.value, pageSize: request.value.limit ?? pageSize)
                    .map { Event.progress(id: request.id, target: .first(request.value), $0) }
                    .catch { error in
                        Just(
                            Event.failed(
                                id: request.id, message: ErrorText.describe(error), offline: ErrorText.isOffline(error))
                        )
                    }
                    .prefix(untilOutputFrom: cancellations.filter { $0 == request.id })
                    .prepend(Event.started(id: request.id, isSearch: true))
                    .eraseToAnyPublisher()
            }
            .switchToLatest()

        let moreEvents =
            pageRequests
            .map { [weak self] request in (request, self?.currentState() ?? (ResultList(), 0)) }
            .flatMap { request, state -> AnyPublisher<Event, Never> in
                let (list, generation) = state
                guard let search = list.search else {
                    return Just(
                        Event.failed(id: request.id, message: "no search yet: try 'search <query>'", offline: false)
                    )
                    .eraseToAnyPublisher()
                }
                guard let cursor = list.nextCursor else {
                    return Just(
                        Event.failed(id: request.id, message: "no more results for '\(search.query)'", offline: false)
                    )
                    .eraseToAnyPublisher()
                }
                return service.nextPage(
                    for: search, cursor: cursor, pageSize: request.value ?? search.limit ?? pageSize
                )
                .map { Event.progress(id: request.id, target: .next(generation: generation), $0) }
                .catch { error in
                    Just(
                        Event.failed(
                            id: request.id, message: ErrorText.describe(error), offline: ErrorText.isOffline(error)))
                }
                .prefix(untilOutputFrom: cancellations.filter { $0 == request.id })
                .prefix(untilOutputFrom: searches)
                .prepend(Event.started(id: request.id, isSearch: false))
                .eraseToAnyPublisher()
            }

        searchEvents
            .merge(with: moreEvents, cancellations.map { Event.cancelled(id: $0) })
            .receive(on: scheduler)
            .sink { [weak self] event in self?.apply(event) }
            .store(in: &subscriptions)
    }

    /// A fresh command id.
    public func nextID() -> Int {
        lock.lock()
        defer { lock.unlock() }
        lastID += 1
        return lastID
    }

    /// Starts a command through `start` (which sends into an input subject with the given id) and waits for its outcome.
    /// The outcome subscription is made before `start` runs, so no outcome can be missed.
    public func perform(_ start: (Int) -> Void) async -> CommandOutcome {
        let id = nextID()
        return await withCheckedContinuation { continuation in
            let cancellable =
                outcomes
                .first { $0.id == id }
                .sink { [weak self] outcome in
                    self?.forget(id)
                    continuation.resume(returning: outcome)
                }
            remember(id, cancellable)
            start(id)
        }
    }

    /// Replaces the current results (for `live`, whose results become the list `more` and `show` continue from).
    public func adopt(_ list: ResultList) {
        lock.lock()
        generation += 1
        snapshot = list
        lock.unlock()
        results = list
    }

    /// Keeps the outcome subscription alive until its outcome arrives; it is made before the command starts,
    /// so `forget` always finds it.
    private func remember(_ id: Int, _ cancellable: AnyCancellable) {
        lock.lock()
        pending[id] = cancellable
        lock.unlock()
    }

    private func forget(_ id: Int) {
        lock.lock()
        let cancellable = pending.removeValue(forKey: id)
        lock.unlock()
        _ = cancellable  // released outside the lock
    }

    private func currentState() -> (ResultList, Int) {
        lock.lock()
        defer { lock.unlock() }
        return (snapshot, generation)
    }

    private func apply(_ event: Event) {
        switch event {
        case .started(let id, let isSearch):
            lock.lock()
            // A new search supersedes whatever was in flight: switchToLatest already cancelled it.
            let superseded = isSearch ? Array(inFlight.keys) : []
            for old in superseded { inFlight[old] = nil }
            inFlight[id] = isSearch
            lock.unlock()
            for old in superseded { outcomes.send(.cancelled(id: old)) }
            if !isSearching { isSearching = true }
        case .progress(_, _, .waiting(let notice)):
            waits.send(notice)
        case .progress(let id, .first(let options), .page(let answer)):
            var list = ResultList(
                search: options, sourceName: answer.sourceName, nextCursor: answer.page.nextToken,
                totalCount: answer.page.resultCount)
            let added = list.append(answer.page)
            lock.lock()
            generation += 1
            snapshot = list
            lock.unlock()
            results = list
            if !isConnected { isConnected = true }
            finish(id, .results(id: id, added: added, list: list, note: answer.note, warnings: answer.warnings))
        case .progress(let id, .next(let generationAsked), .page(let answer)):
            lock.lock()
            guard generationAsked == generation else {
                lock.unlock()
                finish(id, .cancelled(id: id))
                return
            }
            var list = snapshot
            let added = list.append(answer.page)
            list.nextCursor = answer.page.nextToken
            snapshot = list
            lock.unlock()
            results = list
            if !isConnected { isConnected = true }
            finish(id, .results(id: id, added: added, list: list, note: answer.note, warnings: answer.warnings))
        case .failed(let id, let message, let offline):
            if offline, isConnected { isConnected = false }
            errorMessages.send(message)
            finish(id, .failed(id: id, message: message))
        case .cancelled(let id):
            lock.lock()
            let wasRunning = inFlight[id] != nil
            lock.unlock()
            if wasRunning { finish(id, .cancelled(id: id)) }
        }
    }

    private func finish(_ id: Int, _ outcome: CommandOutcome) {
        lock.lock()
        inFlight[id] = nil
        let idle = inFlight.isEmpty
        lock.unlock()
        if idle, isSearching { isSearching = false }
        outcomes.send(outcome)
    }
}
