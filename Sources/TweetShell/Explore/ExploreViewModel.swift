import Foundation
import StreamCore
import TweetKit

/// The view model of `count`, `top` and `stats`, in the search view model's pattern: inputs are subjects, outputs
/// are publishers, and the chart and list renderers subscribe to `outcomes`.
///
/// - Counts, top lists and overviews share one pipeline: a new request of any of them cancels the one in flight
///   (`map` + `switchToLatest`), and the cancel reaches the SQLite query or the API's paging.
/// - Ctrl-C sends the command's id into `cancellations`, which ends that request's inner publisher.
/// - Errors become a failed outcome; the pipeline stays alive for the next command.
public final class ExploreViewModel: @unchecked Sendable {
    // Inputs.
    /// `count` requests.
    public let counts = PassthroughSubject<Tagged<CountOptions>, Never>()
    /// `top` requests.
    public let tops = PassthroughSubject<Tagged<TopOptions>, Never>()
    /// `stats` requests (the collection, nil for all).
    public let overviews = PassthroughSubject<Tagged<String?>, Never>()
    /// Ids of commands to stop (Ctrl-C).
    public let cancellations = PassthroughSubject<Int, Never>()

    // Outputs.
    /// How each command ended; renderers and the REPL subscribe to it.
    public let outcomes = PassthroughSubject<ExploreOutcome, Never>()
    /// Waits the source is sitting out (rate limits), for a countdown.
    public let waits = PassthroughSubject<WaitNotice, Never>()
    /// Pages an API count has fetched so far, for the spinner.
    public let pages = PassthroughSubject<Int, Never>()
    /// The last count answered: the "current" result that `export` writes.
    @Published public private(set) var currentCount: CountSeries?
    /// The last top list answered, for `drill N`.
    @Published public private(set) var currentTop: TopList?

    private enum Event {
        case started(id: Int)
        case progress(id: Int, ExploreProgress)
        case failed(id: Int, message: String)
        case cancelled(id: Int)
    }

    private let lock = NSLock()
    private var inFlight: Set<Int> = []
    private var pending: [Int: AnyCancellable] = [:]
    private var lastID = 0
    private var subscriptions = Set<AnyCancellable>()

    /// Binds the pipeline; events are applied on `scheduler` (ImmediateScheduler in the shell, TestScheduler in tests).
    public init<S: Scheduler>(service: any ExploreService, scheduler: S) {
        let cancellations = self.cancellations
        let requests = counts.map { Tagged(id: $0.id, value: ExploreRequest.count($0.value)) }
            .merge(
                with: tops.map { Tagged(id: $0.id, value: ExploreRequest.top($0.value)) },
                overviews.map { Tagged(id: $0.id, value: ExploreRequest.stats(collection: $0.value)) })
        requests
            .map { request -> AnyPublisher<Event, Never> in
                service.run(request.value)
                    .map { Event.progress(id: request.id, $0) }
                    .catch { error in Just(Event.failed(id: request.id, message: ErrorText.describe(error))) }
                    .prefix(untilOutputFrom: cancellations.filter { $0 == request.id })
                    .prepend(Event.started(id: request.id))
                    .eraseToAnyPublisher()
            }
            .switchToLatest()
            .merge(with: cancellations.map { Event.cancelled(id: $0) })
            .receive(on: scheduler)
            .sink { [weak self] event in self?.apply(event) }
            .store(in: &subscriptions)
    }

    /// A fresh command id; pass ids from the search view model's `nextID()` instead when both are used, so ids never
    /// repeat across them.
    public func nextID() -> Int {
        lock.withLock {
            lastID += 1
            return lastID
        }
    }

    /// Starts a command through `start` (which sends into an input subject with the given id) and waits for its
    /// outcome; the outcome subscription is made before `start` runs.
    public func perform(id: Int? = nil, _ start: (Int) -> Void) async -> ExploreOutcome {
        let id = id ?? nextID()
        return await withCheckedContinuation { continuation in
            let cancellable = outcomes.first { $0.id == id }
                .sink { [weak self] outcome in
                    self?.forget(id)
                    continuation.resume(returning: outcome)
                }
            lock.withLock { pending[id] = cancellable }
            start(id)
        }
    }

    /// Forgets the current count (a search replaced it as the current result).
    public func clearCount() {
        if currentCount != nil { currentCount = nil }
    }

    private func forget(_ id: Int) {
        let cancellable = lock.withLock { pending.removeValue(forKey: id) }
        _ = cancellable
    }

    private func apply(_ event: Event) {
        switch event {
        case .started(let id):
            let superseded = lock.withLock { () -> Set<Int> in
                defer { inFlight = [id] }
                return inFlight
            }
            // switchToLatest already cancelled them; their commands hear it here.
            for old in superseded { outcomes.send(.cancelled(id: old)) }
        case .progress(_, .waiting(let notice)): waits.send(notice)
        case .progress(_, .paging(let count)): pages.send(count)
        case .progress(let id, .answer(let answer)):
            switch answer {
            case .count(let series, _): currentCount = series
            case .top(let list): currentTop = list
            case .stats: break
            }
            finish(id, .answered(id: id, answer))
        case .failed(let id, let message): finish(id, .failed(id: id, message: message))
        case .cancelled(let id):
            if lock.withLock({ inFlight.contains(id) }) { finish(id, .cancelled(id: id)) }
        }
    }

    private func finish(_ id: Int, _ outcome: ExploreOutcome) {
        lock.withLock { _ = inFlight.remove(id) }
        outcomes.send(outcome)
    }
}
