import Foundation
import LineEditor
import StreamCore
import TweetKit
import TweetStore
import XAPI

/// How a command ended, for the exit status of scripts.
public enum CommandStatus: Equatable, Sendable {
    /// It did what was asked.
    case ok
    /// It failed; the message has been printed.
    case failed
    /// `quit`.
    case quit
}

/// One running shell: the store, the sources, the search view model and its subscribers, and the commands.
///
/// Commands run one at a time (the REPL awaits each), but subscribers and Ctrl-C arrive on other threads, so the
/// little mutable state here is behind a lock.
public final class ShellSession: @unchecked Sendable {
    let output: ShellOutput
    let store: TweetStore
    let sources: SourceState
    let viewModel: SearchViewModel
    let printer: OutcomePrinter
    let client: XAPIClient
    let authenticator: Authenticator
    let environment: [String: String]
    let history: History?
    let isInteractive: Bool
    let spinner: Spinner
    let pageSize: Int

    let display: DisplaySettings
    private let lock = NSLock()
    private var seenHandles = Set<String>()
    private var seenTags = Set<String>()
    private var earlierQueries: [String] = []
    private var subscriptions = Set<AnyCancellable>()

    /// Creates a session. `history` is the command history (nil when scripted).
    public init(
        output: ShellOutput, store: TweetStore, sources: SourceState, client: XAPIClient,
        authenticator: Authenticator, config: ShellConfig, environment: [String: String], history: History?,
        isInteractive: Bool
    ) {
        self.output = output
        self.store = store
        self.sources = sources
        self.client = client
        self.authenticator = authenticator
        self.environment = environment
        self.history = history
        self.isInteractive = isInteractive
        self.pageSize = config.pageSize
        display = DisplaySettings(format: config.format, environment: environment)
        spinner = Spinner(enabled: isInteractive && TerminalSize.isTerminal(STDERR_FILENO))
        let service = ShellSearchService(store: store, sources: sources)
        viewModel = SearchViewModel(service: service, pageSize: config.pageSize, scheduler: ImmediateScheduler.shared)
        printer = OutcomePrinter(output: output, settings: display.current)
        bindOutputs()
    }

    private func bindOutputs() {
        // The printer subscribes first: subjects deliver in subscription order, so results are printed before
        // the REPL (subscribed later, in `perform`) hears the command is done.
        viewModel.outcomes.subscribe(printer)
        viewModel.waits
            .sink { [output, spinner, isInteractive] notice in
                if spinner.isEnabled {
                    spinner.update(notice.reason)
                } else if !isInteractive || notice.secondsLeft % 10 == 0 {
                    output.note(notice.reason)
                }
            }
            .store(in: &subscriptions)
        viewModel.$results
            .sink { [weak self] list in self?.remember(list.items) }
            .store(in: &subscriptions)
    }

    private func remember(_ items: [ResultItem]) {
        lock.withLock {
            for item in items {
                if let handle = item.author?.username { seenHandles.insert(handle) }
                for tag in item.tweet.entities.hashtags { seenTags.insert(tag.tag) }
            }
        }
    }

    /// Handles and tags seen in results, and earlier queries, for completion.
    func completionWords() -> (handles: [String], tags: [String], queries: [String]) {
        lock.withLock { (seenHandles.sorted(), seenTags.sorted(), earlierQueries) }
    }

    /// Loads earlier queries for completion; called once at start.
    func loadEarlierQueries() async {
        let entries = (try? await store.searchHistory(limit: 100)) ?? []
        lock.withLock { earlierQueries = entries.map(\.query) }
    }

    func rememberQuery(_ query: String) {
        lock.withLock {
            earlierQueries.removeAll { $0 == query }
            earlierQueries.insert(query, at: 0)
        }
    }

    /// The prompt: the source, and whether credentials are present.
    public func prompt() -> String {
        let source = sources.current.rawValue
        let key = sources.api == nil ? "no key" : "key"
        return output.style.bold("tweetsh") + " (\(output.style.handle(source)), \(key))> "
    }

    /// Runs one command.
    public func execute(_ command: ShellCommand, reader: (any LineReader)?) async -> CommandStatus {
        switch command {
        case .search(let options):
            // Judged as the `search` line it came from, so only the token-shaped-word rule applies, not the `auth` one.
            if SensitiveLines.isSensitive("search " + options.query) {
                output.error(
                    "the query looks like it holds a token or secret, so it is not searched: it would be sent "
                        + "to the API and kept in the store's search history")
                return .failed
            }
            rememberQuery(options.query)
            return await runViewModelCommand(label: "searching \(options.source ?? sources.current)") { id in
                self.viewModel.searches.send(Tagged(id: id, value: options))
            }
        case .more(let count):
            return await runViewModelCommand(label: "loading more") { id in
                self.viewModel.pageRequests.send(Tagged(id: id, value: count))
            }
        case .show(let reference): return await show(reference)
        case .thread(let reference): return await thread(reference)
        case .user(let handle):
            return await execute(.search(SearchOptions(query: "from:\(handle)")), reader: reader)
        case .open(let number): return open(number)
        case .auth(let action): return await auth(action, reader: reader)
        case .history(let searches): return await listHistory(searches: searches)
        case .again(let number, let new, let refresh):
            return await again(number, new: new, refresh: refresh, reader: reader)
        case .source(let kind): return setSource(kind)
        case .importFile(let path): return await importCollection(path)
        case .export(let path, let format, let all): return await export(to: path, format: format, all: all)
        case .format(let kind):
            if let kind { display.format = kind }
            output.note("format: \(display.format.rawValue)")
            return .ok
        case .limits: return showLimits()
        case .clear:
            if TerminalSize.isTerminal(STDOUT_FILENO) { output.raw("\u{1B}[H\u{1B}[2J") }
            return .ok
        case .help(let topic): return help(topic)
        case .quit: return .quit
        case .live(let query): return await live(query)
        }
    }

    /// Sends a command into the view model, shows the spinner, and waits for its outcome; Ctrl-C (task cancellation)
    /// sends the command's id into `cancellations`.
    private func runViewModelCommand(label: String, _ start: @escaping (Int) -> Void) async -> CommandStatus {
        spinner.start(label + "…")
        defer { spinner.stop() }
        let viewModel = self.viewModel
        let idBox = CommandIDBox()
        let outcome = await withTaskCancellationHandler {
            await viewModel.perform { id in
                idBox.set(id)
                start(id)
            }
        } onCancel: {
            if let id = idBox.get() { viewModel.cancellations.send(id) }
        }
        switch outcome {
        case .results: return .ok
        case .failed(_, let message):
            output.error(message)
            return .failed
        case .cancelled:
            output.note("cancelled")
            return .failed
        }
    }
}

/// The id of the command in flight, handed from the command to the Ctrl-C handler.
private final class CommandIDBox: @unchecked Sendable {
    private let lock = NSLock()
    private var id: Int?
    func set(_ id: Int) { lock.withLock { self.id = id } }
    func get() -> Int? { lock.withLock { id } }
}

/// The output format now in force and the terminal width, shared by the session (which changes the format) and the
/// printer (which reads both for every outcome, so `format` and window resizes apply at once).
final class DisplaySettings: @unchecked Sendable {
    private let lock = NSLock()
    private var currentFormat: OutputFormat
    private let environment: [String: String]

    init(format: OutputFormat, environment: [String: String]) {
        currentFormat = format
        self.environment = environment
    }

    var format: OutputFormat {
        get { lock.withLock { currentFormat } }
        set { lock.withLock { currentFormat = newValue } }
    }

    @Sendable func current() -> OutcomePrinter.Settings {
        OutcomePrinter.Settings(format: format, width: TerminalSize.columns(environment: environment), now: Date())
    }
}
