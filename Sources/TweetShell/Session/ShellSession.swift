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
    let store: any CollectionStore
    let sources: SourceState
    let viewModel: SearchViewModel
    let printer: OutcomePrinter
    /// `count`, `top` and `stats`: their view model and printer (Sources/TweetShell/Explore).
    let explore: ExploreSession
    let client: XAPIClient
    let authenticator: Authenticator
    let environment: [String: String]
    let history: History?
    let isInteractive: Bool
    let spinner: Spinner
    let pageSize: Int
    /// Where the token came from, and what was wrong with credentials found at start-up, for `auth status`.
    let credentials: CredentialReport

    let display: DisplaySettings
    /// The user's own credentials, to keep them out of queries, history and the store.
    let secrets: OwnSecrets
    private let lock = NSLock()
    private var seenHandles = Set<String>()
    private var seenTags = Set<String>()
    private var earlierQueries: [String] = []
    private var collectionNames: [String] = []
    private var subscriptions = Set<AnyCancellable>()

    /// Creates a session. `history` is the command history (nil when scripted).
    public init(
        output: ShellOutput, store: any CollectionStore, sources: SourceState, client: XAPIClient,
        authenticator: Authenticator, config: ShellConfig, environment: [String: String], history: History?,
        isInteractive: Bool, width: Int? = nil, credentials: CredentialReport = CredentialReport()
    ) {
        self.credentials = credentials
        self.output = output
        self.store = store
        self.sources = sources
        self.client = client
        self.authenticator = authenticator
        self.environment = environment
        self.history = history
        self.isInteractive = isInteractive
        self.pageSize = config.pageSize
        secrets = OwnSecrets(tokenIsHeld: client.tokenIsHeld(in:), environment: environment)
        display = DisplaySettings(format: config.format, width: width, environment: environment)
        spinner = Spinner(enabled: isInteractive && TerminalSize.isTerminal(STDERR_FILENO))
        let display = self.display
        let service = ShellSearchService(
            store: store, sources: sources, credentials: credentials,
            printsData: { [display] in display.format == .json || display.format == .csv })
        viewModel = SearchViewModel(service: service, pageSize: config.pageSize, scheduler: ImmediateScheduler.shared)
        printer = OutcomePrinter(output: output, settings: display.current)
        explore = ExploreSession(
            store: store, sources: sources, output: output, environment: environment, settings: display.current)
        bindOutputs()
        bindExplore()
    }

    private func bindOutputs() {
        // The printer subscribes first: subjects deliver in subscription order, so results are printed before
        // the REPL (subscribed later, in `perform`) hears the command is done.
        viewModel.outcomes.subscribe(printer)
        // Only a terminal gets the live countdown (the spinner's message). Anywhere else a wait is two lines, one when
        // it starts and one when it ends, so a log or a script's stderr is not flooded with one line a second.
        let waitLines = WaitLines()
        viewModel.waits
            .sink { [output, spinner] notice in
                if spinner.isEnabled {
                    spinner.update(notice.reason)
                } else if let line = waitLines.line(for: notice) {
                    output.note(line)
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
    func completionWords() -> CompletionWords {
        lock.withLock {
            CompletionWords(
                handles: seenHandles.sorted(), tags: seenTags.sorted(), queries: earlierQueries,
                collections: collectionNames)
        }
    }

    /// Reads the store's collection names for completion: at start and after the commands that change them. Names
    /// only, as `collections` counting every collection's tweets took 1.2 s at 1M tweets on the store's one queue.
    func refreshCollectionNames() async {
        guard let names = try? await store.collectionNames() else { return }
        lock.withLock { collectionNames = names }
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
        case .search(var options):
            guard screenForSecrets(&options) else { return .failed }
            if options.recordsHistory { rememberQuery(options.query) }
            return await runViewModelCommand(label: "searching \(options.source ?? sources.current)") { id in
                self.viewModel.searches.send(Tagged(id: id, value: options))
            }
        case .more(let count):
            // Only a process with no list at all resumes: after `thread` (a list with no search) `more` has nothing to
            // continue, and says so.
            if viewModel.results.search == nil, viewModel.results.items.isEmpty,
                let failed = await resumeLastSearch()
            {
                return failed
            }
            return await runViewModelCommand(label: "loading more") { id in
                self.viewModel.pageRequests.send(Tagged(id: id, value: count))
            }
        case .show(let reference): return await show(reference)
        case .thread(let reference): return await thread(reference)
        case .user(let handle):
            return await execute(.search(SearchOptions(query: "from:\(handle)")), reader: reader)
        case .userOfResult(let number):
            guard let item = viewModel.results.item(number) else {
                output.error(noSuchResult(number))
                return .failed
            }
            // An imported file's username may hold anything; one that is not a handle is searched by the user's id.
            let handle = item.author?.username
            let valid = handle.flatMap { name in
                !name.isEmpty && name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
                    ? name : nil
            }
            guard let author = valid ?? item.tweet.authorID.map({ String($0.rawValue) }) else {
                output.error("result \(number)'s author is not known (the source named none)")
                return .failed
            }
            return await execute(.search(SearchOptions(query: "from:\(author)")), reader: reader)
        case .open(let number): return open(number)
        case .auth(let action): return await auth(action, reader: reader)
        case .history(let searches): return await listHistory(searches: searches)
        case .again(let number, let new, let refresh):
            return await again(number, new: new, refresh: refresh, reader: reader)
        case .source(let kind): return setSource(kind)
        case .importFiles(let paths, let collection):
            let status = await importCollections(paths, collection: collection)
            await refreshCollectionNames()
            return status
        case .collections: return await listCollections()
        case .collection(let name): return await setCollection(name)
        case .drop(let name):
            let status = await dropCollection(name, reader: reader)
            await refreshCollectionNames()
            return status
        case .export(let path, let format, let columns, let all):
            return await export(to: path, format: format, columns: columns, all: all)
        case .backup(let path): return await backup(to: path)
        case .format(let kind, let columns):
            if let kind { display.set(kind, columns: columns) }
            let chosen = display.format == .csv && display.csvColumns != .twarcDefaults
            output.note(
                "format: \(display.format.rawValue)" + (chosen ? " (\(display.csvColumns.names.count) columns)" : ""))
            return .ok
        case .limits: return showLimits()
        case .clear:
            if TerminalSize.isTerminal(STDOUT_FILENO) { output.raw("\u{1B}[H\u{1B}[2J") }
            return .ok
        case .help(let topic): return help(topic)
        case .quit: return .quit
        case .live(let query): return await live(query)
        case .explore(let command): return await explore(command)
        case .stream(let options): return await stream(options)
        case .collect(let command): return await collect(command)
        }
    }

    /// Applies the secret rule to a search; false when it must not run (the message is printed).
    ///
    /// The user's own token never goes to the API, and a local search holding it runs but is not recorded, so neither
    /// the history nor the store ever holds it. A word merely shaped like a bearer token is refused only for the API,
    /// where it would be logged; quoting it or `--allow-secret` sends it anyway. Local searches are never refused.
    private func screenForSecrets(_ options: inout SearchOptions) -> Bool {
        let target = options.source ?? sources.current
        if secrets.appear(in: options.query) {
            guard target == .local else {
                output.error(
                    "the query holds your own X API credentials (the bearer token, or a prefix of it), so it is not "
                        + "sent to the API; the local store can still be searched with --source local")
                return false
            }
            options.recordsHistory = false
            output.note("the query holds your own credentials, so it is not kept in the search history")
            return true
        }
        guard target == .x, !options.allowSecretShapes,
            let word = SensitiveLines.bearerShapedWords(in: options.query).first
        else { return true }
        output.error(
            "'\(BearerToken.mask(word))' is shaped like a bearer token, so the query is not sent to the API, which "
                + "would log it; if it is not a secret, search anyway with the word in double quotes or with "
                + "--allow-secret")
        return false
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

/// What start-up learned about credentials: where the token came from, and every credential that was set but could
/// not be used (which variable, and what the API answered), so `auth status` can say it again.
public final class CredentialReport: @unchecked Sendable {
    private let lock = NSLock()
    private var storedOrigin: CredentialSource?
    private var storedProblems: [String] = []

    /// Creates an empty report.
    public init() {}

    /// Where the token in use came from; nil when there is none.
    public var origin: CredentialSource? {
        get { lock.withLock { storedOrigin } }
        set { lock.withLock { storedOrigin = newValue } }
    }

    /// The problems found, in the order found.
    public var problems: [String] { lock.withLock { storedProblems } }

    /// Records a problem.
    public func add(_ problem: String) { lock.withLock { storedProblems.append(problem) } }
}

/// Turns the about-once-a-second wait ticks into the two lines a non-terminal gets: the first tick of a wait (it says
/// what is waited for and how long) and its end (`secondsLeft == 0`, sent also when the wait is cancelled).
final class WaitLines: @unchecked Sendable {
    private let lock = NSLock()
    private var waiting = false

    /// The line to print for this tick, or nil to stay quiet.
    func line(for notice: WaitNotice) -> String? {
        lock.withLock {
            if notice.secondsLeft > 0 {
                guard !waiting else { return nil }
                waiting = true
                return notice.reason
            }
            guard waiting else { return nil }
            waiting = false
            return notice.reason
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
    private let fixedWidth: Int?
    private var currentColumns = TwarcCSVColumns.twarcDefaults
    private let environment: [String: String]

    init(format: OutputFormat, width: Int?, environment: [String: String]) {
        currentFormat = format
        fixedWidth = width
        self.environment = environment
    }

    var format: OutputFormat {
        get { lock.withLock { currentFormat } }
        set { lock.withLock { currentFormat = newValue } }
    }

    /// The columns `format csv` prints.
    var csvColumns: TwarcCSVColumns { lock.withLock { currentColumns } }

    /// Sets the format and, for csv, its columns, together so the printer never sees one without the other.
    func set(_ format: OutputFormat, columns: TwarcCSVColumns) {
        lock.withLock {
            currentFormat = format
            currentColumns = columns
        }
    }

    @Sendable func current() -> OutcomePrinter.Settings {
        let (format, columns) = lock.withLock { (currentFormat, currentColumns) }
        return OutcomePrinter.Settings(
            format: format, width: fixedWidth ?? TerminalSize.columns(environment: environment),
            rowWidth: TerminalSize.rowColumns(fixed: fixedWidth, environment: environment), now: Date(),
            csvColumns: columns)
    }
}
