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

        let configPath = options.configPath ?? ShellConfig.defaultPath(environment: environment)
        var config = ShellConfig()
        var configProblems: [String] = []
        if let text = try? String(contentsOfFile: configPath, encoding: .utf8) {
            (config, configProblems) = ShellConfig.parse(text, file: configPath)
        }
        if options.json { config.format = .json }
        let stdinIsTerminal = TerminalSize.isTerminal(STDIN_FILENO)
        let interactive = options.script == nil && options.oneShot == nil && stdinIsTerminal
        let style = Style.resolve(
            choice: options.color ?? (config.color == "auto" ? nil : config.color),
            environment: environment, isTerminal: TerminalSize.isTerminal(STDOUT_FILENO))
        let output = ShellOutput.standard(style: style)
        for problem in configProblems { output.warning(problem) }

        // The store.
        let store: TweetStore
        do {
            let location: StoreLocation =
                options.storePath.map { .file($0) } ?? .defaultLocation(environment: environment)
            store = try TweetStore(location: location) { tweets in
                output.note(
                    "upgrading the store's search index for \(tweets) tweets; this happens once and takes about "
                        + "\(max(1, tweets / 90_000)) s")
            }
        } catch {
            output.error("cannot open the tweet store: \(ErrorText.describe(error))")
            return 1
        }

        // Credentials and the API client.
        let settings: XAPISettings
        do {
            settings = try XAPISettings.resolve(
                config: config.apiBase.map { [XAPISettings.configKey: $0] } ?? [:],
                environment: environment, version: version)
        } catch {
            output.warning("\(error); using \(XAPISettings.defaultBaseURL.absoluteString)")
            settings = XAPISettings(version: version)
        }
        let waits = WaitBroadcaster()
        let client = XAPIClient(configuration: XAPIClient.Configuration(settings: settings, onWait: { waits.send($0) }))
        let authenticator = Authenticator(
            client: client, store: CredentialStore(environment: environment), environment: environment)
        var api: XAPISource?
        if (try? await authenticator.resolve(warn: { output.warning($0) })) != nil {
            api = XAPISource(client: client, cache: store, onWarning: { output.warning($0) })
        }
        let source = options.source ?? config.source ?? (api != nil ? .x : .local)
        if source == .x, api == nil {
            output.warning("no X API credentials; searching the local store (run 'auth' to add them)")
        }
        let sources = SourceState(current: api == nil ? .local : source, api: api, waits: waits)
        sources.collection = config.collection

        // First run: an empty store gets the demo corpus, so tweetsh works offline on a fresh machine.
        if (try? await store.wantsDemoCorpus()) == true {
            do {
                let corpus = DemoCorpus.firstRun
                try await store.insert(Array(corpus), collection: TweetStore.demoCollection)
                output.note(
                    "First run: the local store holds a generated demo corpus of \(corpus.tweetCount) tweets "
                        + "(\"\(DemoCorpus.sourceLabel)\"), the collection 'demo'. 'import <file>' adds your own (the demo "
                        + "then stays out of searches); 'auth' connects to the X API."
                )
            } catch {
                output.warning("could not create the demo corpus: \(ErrorText.describe(error))")
            }
        }

        let history: History?
        if interactive, let path = History.defaultPath(environment: environment) {
            history = try? History(path: path, isSensitive: SensitiveLines.isSensitive)
        } else {
            history = nil
        }
        let session = ShellSession(
            output: output, store: store, sources: sources, client: client,
            authenticator: authenticator, config: config, environment: environment,
            history: history, isInteractive: interactive)

        if let script = options.script ?? options.oneShot {
            let reader = stdinIsTerminal ? nil : PipedLineReader()
            return await Repl(session: session, reader: reader).runScript(CommandWords.statements(script))
        }
        let reader: any LineReader
        if interactive {
            await session.loadEarlierQueries()
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

/// Which lines must never be written to history: `auth` with anything after it but `status`/`logout`, and any
/// word that looks like a bearer token or API secret.
public enum SensitiveLines {
    /// True when `line` may hold a secret.
    public static func isSensitive(_ line: String) -> Bool {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        if let first = words.first, first.lowercased() == "auth", words.count > 1,
            !(words.count == 2 && ["status", "logout"].contains(words[1].lowercased()))
        {
            return true
        }
        return words.contains { word in
            word.count >= 40 && word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "%+/=-_".contains($0)) }
                && !word.contains(":")
        }
    }
}
