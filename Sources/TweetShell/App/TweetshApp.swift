import Foundation
import LineEditor
import TweetKit
import TweetStore
import XAPI

/// The program: parses arguments, opens the store (seeding the demo corpus on first run), finds credentials,
/// then runs commands from `-c`, a one-shot command, a pipe, or the interactive line editor.
public enum TweetshApp {
    /// tweetsh's version, shown by `--version` and sent in the API's User-Agent.
    public static let version = "0.1.0"

    /// Runs tweetsh and returns its exit status: 0 ok, 1 a command failed, 2 usage.
    public static func main(arguments: [String], environment: [String: String]) async -> Int32 {
        let options: LaunchOptions
        do {
            options = try LaunchOptions.parse(arguments)
        } catch {
            FileHandle.standardError.write(Data("tweetsh: \(error.description)\n\(LaunchOptions.usage)\n".utf8))
            return 2
        }
        if options.help {
            print(LaunchOptions.usage)
            return 0
        }
        if options.version {
            print("tweetsh \(version)")
            return 0
        }
        if let words = options.oneShot, words.first == "store" {
            return StoreAdministration.run(Array(words.dropFirst()), environment: environment)
        }

        let configPath = options.configPath ?? ShellConfig.defaultPath(environment: environment)
        var config = ShellConfig()
        var configProblems: [String] = []
        switch ConfigFile.read(configPath, explicit: options.configPath != nil) {
        case .text(let text, let undecodable):
            (config, configProblems) = ShellConfig.parse(text, file: configPath)
            configProblems =
                undecodable.map { "\(configPath):\($0): is not UTF-8 text; the line is ignored" } + configProblems
        case .absent: break
        case .unreadable(let why):
            // Only the default file may be missing: a `--config PATH` that cannot be read is a usage error.
            guard options.configPath == nil else { return usageError("--config \(configPath): \(why)") }
            configProblems.append("\(configPath): \(why); using the defaults")
        }
        // The API base is settled before anything is opened: a bad one is a usage error, never a silent fallback to
        // the real API (a typo must not send the token elsewhere).
        let settings: XAPISettings
        do {
            settings = try XAPISettings.resolve(
                config: config.apiBase.map { [XAPISettings.configKey: $0] } ?? [:],
                environment: environment, version: version)
        } catch {
            let fromConfig =
                environment[XAPISettings.environmentKey]?.trimmingCharacters(in: .whitespaces)
                .isEmpty ?? true
            let location = fromConfig ? config.apiBaseLocation.map { "\($0): " } ?? "" : ""
            return usageError(location + error.description)
        }
        if options.json { config.format = .json }
        let stdinIsTerminal = TerminalSize.isTerminal(STDIN_FILENO)
        let interactive = options.scripts.isEmpty && options.oneShot == nil && stdinIsTerminal
        let style = Style.resolve(
            choice: options.color ?? (config.color == "auto" ? nil : config.color),
            environment: environment, isTerminal: TerminalSize.isTerminal(STDOUT_FILENO))
        let output = ShellOutput.standard(style: style)
        for problem in configProblems { output.warning(problem) }

        // The store: an SQLite file, or a PostgreSQL server (StoreChoice says which).
        let store: any CollectionStore
        do {
            store = try StoreChoice.resolve(option: options.storePath, config: config.store, environment: environment)
                .open(output: output, environment: environment)
        } catch {
            output.error(ErrorText.describe(error))
            return 1
        }
        // However the shell ends, the store is closed, which folds its write-ahead log into the file.
        ExitSignals.shared.install { store.close() }
        defer { store.close() }
        StoreChoice.warnIfReadOnly(store, output: output)

        // Credentials and the API client.
        let waits = WaitBroadcaster()
        let client = XAPIClient(configuration: XAPIClient.Configuration(settings: settings, onWait: { waits.send($0) }))
        let authenticator = Authenticator(
            client: client, store: CredentialStore(environment: environment), environment: environment)
        var api: XAPISource?
        let credentials = CredentialReport()
        do {
            let origin = try await authenticator.resolve { problem in
                credentials.add(problem)
                output.warning(problem)
            }
            credentials.origin = origin
            api = XAPISource(client: client, cache: store.isReadOnly ? nil : store, onWarning: { output.warning($0) })
        } catch XAPIError.missingCredentials {
            // Nothing configured: the local store is the source, as the prompt says.
        } catch {
            // Credentials that are set but unusable are said at start-up, and again by `auth status`.
            let problem = ErrorText.describe(error)
            credentials.add(problem)
            output.warning(problem)
        }
        let source = options.source ?? config.source ?? (api != nil ? .x : .local)
        if source == .x, api == nil {
            output.warning("no X API credentials; searching the local store (run 'auth' to add them)")
        }
        let sources = SourceState(current: api == nil ? .local : source, api: api, waits: waits)
        sources.collection = config.collection

        // First run: an empty store gets the demo corpus, so tweetsh works offline on a fresh machine. Of several
        // shells starting at once on a new store, one seeds it.
        if !store.isReadOnly {
            let corpus = DemoCorpus.firstRun
            do {
                if try await store.seedIfEmpty(collection: TweetStore.demoCollection, { Array(corpus) }) {
                    // The store's place is named: a mistyped --store path makes a new store, and this says where.
                    output.note(
                        "First run: the new store \(store.displayLocation) holds a generated demo corpus of "
                            + "\(corpus.tweetCount) tweets "
                            + "(\"\(DemoCorpus.sourceLabel)\"), the collection 'demo'. 'import <file>' adds your own "
                            + "(the demo then stays out of searches); 'auth' connects to the X API.")
                }
            } catch {
                output.warning("could not create the demo corpus: \(ErrorText.describe(error))")
            }
        }

        let history: History?
        if interactive, let path = History.defaultPath(environment: environment) {
            let secrets = OwnSecrets(tokenIsHeld: client.tokenIsHeld(in:), environment: environment)
            history = try? History(path: path, isSensitive: secrets.isSensitive)
        } else {
            history = nil
        }
        let session = ShellSession(
            output: output, store: store, sources: sources, client: client,
            authenticator: authenticator, config: config, environment: environment,
            history: history, isInteractive: interactive, width: options.width, credentials: credentials)

        if !options.scripts.isEmpty {
            let reader = stdinIsTerminal ? nil : PipedLineReader()
            // Each `-c` is split on its own, so a quote left open in one never swallows the next.
            return await Repl(session: session, reader: reader).runScript(
                options.scripts.flatMap(CommandWords.statements))
        }
        if let arguments = options.oneShot {
            let reader = stdinIsTerminal ? nil : PipedLineReader()
            return await Repl(session: session, reader: reader).runOneShot(arguments)
        }
        let reader: any LineReader
        if interactive {
            await session.loadEarlierQueries()
            await session.refreshCollectionNames()
            let completer = Completer(session: session)
            do {
                reader = try LineReaders.standard(
                    LineReaderConfiguration(
                        programName: "tweetsh", history: history, recordsHistory: false,
                        completion: { completer.complete($0) },
                        historyWarning: { output.warning("history: \($0)") }))
            } catch {
                output.warning("line editing unavailable (\(error)); reading plain lines")
                reader = PipedLineReader()
            }
            output.note("tweetsh \(version): search <query>, more, show <n>, help. Ctrl-D or quit to leave.")
        } else {
            reader = PipedLineReader()
        }
        return await Repl(session: session, reader: reader).runInteractive()
    }
}

extension TweetshApp {
    /// Prints a usage error (exit status 2) without the usage text: the message says what to fix.
    static func usageError(_ message: String) -> Int32 {
        FileHandle.standardError.write(Data("tweetsh: \(message)\n".utf8))
        return 2
    }
}

/// Reading the config file: absent is normal for the default path, anything else that stops it being read is said.
enum ConfigFile {
    /// What was found.
    enum Contents: Equatable {
        /// The file's text; lines that are not UTF-8 are left empty and listed by number (from 1).
        case text(String, undecodableLines: [Int])
        case absent
        case unreadable(String)
    }

    /// Reads `path`. An absent default file is `.absent`; an absent `--config` file is `.unreadable("no such file")`.
    static func read(_ path: String, explicit: Bool) -> Contents {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return explicit ? .unreadable("no such file") : .absent
        }
        if isDirectory.boolValue { return .unreadable("is a folder, not a config file") }
        guard let data = FileManager.default.contents(atPath: path) else {
            return .unreadable("cannot be read (permission denied)")
        }
        if let text = String(data: data, encoding: .utf8) { return .text(text, undecodableLines: []) }
        // One stray byte (a Latin-1 comment) must not drop every setting, `store =` among them: only its line goes.
        var lines: [String] = []
        var undecodable: [Int] = []
        for (index, bytes) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            if let line = String(data: Data(bytes), encoding: .utf8) {
                lines.append(line)
            } else {
                lines.append("")
                undecodable.append(index + 1)
            }
        }
        return .text(lines.joined(separator: "\n"), undecodableLines: undecodable)
    }
}
