import Foundation
import LineEditor

/// The read-run loop. Reads happen on a dedicated thread (libedit blocks), each command runs in a task that Ctrl-C
/// cancels, and the next prompt waits for the command's outcome so output never interleaves with it.
struct Repl {
    let session: ShellSession
    let reader: (any LineReader)?
    private static let inputQueue = DispatchQueue(label: "tweetsh.input")

    /// Runs `-c` statements or a one-shot command; exit status 1 when any command failed.
    func runScript(_ statements: [String]) async -> Int32 {
        var failed = false
        for statement in statements {
            let status = await run(line: statement, record: false)
            if status == .failed { failed = true }
            if status == .quit { break }
        }
        return failed ? 1 : 0
    }

    /// Runs a one-shot command (`tweetsh search '"open data"'`) from the words the user's shell split; exit status 1
    /// when it failed. The words are never re-split at `;` nor re-quoted.
    func runOneShot(_ arguments: [String]) async -> Int32 {
        let text = arguments.joined(separator: " ")
        let status = await run(text: text) { () throws(CommandError) in try ShellCommand.parse(arguments: arguments) }
        return status == .failed ? 1 : 0
    }

    /// Runs lines until end of input or `quit`. Interactive sessions end with 0; piped ones with 1 when a
    /// command failed, so `tweetsh < script.txt` can be checked like a script.
    func runInteractive() async -> Int32 {
        guard let reader else { return 0 }
        let box = ReaderBox(reader)
        var failed = false
        while true {
            let prompt = session.prompt()
            let result: Result<ReadResult, any Error> = await withCheckedContinuation { continuation in
                Self.inputQueue.async {
                    continuation.resume(returning: Result { try box.reader.readLine(prompt: prompt) })
                }
            }
            switch result {
            case .failure(let error):
                session.output.error("reading input failed: \(error)")
                return 1
            case .success(.endOfInput):
                if session.isInteractive { session.output.line() }
                return session.isInteractive || !failed ? 0 : 1
            case .success(.interrupted):
                continue
            case .success(.line(let line)):
                let status = await run(line: line, record: session.isInteractive)
                if status == .failed { failed = true }
                if status == .quit { return session.isInteractive || !failed ? 0 : 1 }
            }
        }
    }

    /// Expands history references, records the line, parses it and runs it in a cancellable task.
    func run(line: String, record: Bool) async -> CommandStatus {
        var text = line.trimmingCharacters()
        guard !text.isEmpty, !text.hasPrefix("#") else { return .ok }
        do {
            if let expanded = try HistoryExpansion.expand(text, entries: session.history?.entries ?? []) {
                session.output.note(expanded)
                text = expanded
            }
        } catch {
            session.output.error(error.description)
            return .failed
        }
        if record, let history = session.history {
            do { _ = try history.add(text) } catch { session.output.warning("history: \(error)") }
        }
        return await run(text: text) { () throws(CommandError) in try ShellCommand.parse(text) }
    }

    /// Parses with `parse` and runs the command in a cancellable task; `text` is the line the command came from, for
    /// error messages.
    private func run(text: String, parse: () throws(CommandError) -> ShellCommand) async -> CommandStatus {
        let command: ShellCommand
        do {
            command = try parse()
        } catch {
            // A line that looks like it holds a secret (a pasted token) is neither quoted back nor recorded.
            if session.secrets.isSensitive(text) {
                session.output.error(
                    "this line was not understood and looks like it holds a token or secret, so it is "
                        + "not shown; to sign in, type `auth` alone and enter the token at its hidden prompt")
                return .failed
            }
            if let column = error.column, session.isInteractive || reader == nil {
                session.output.error(error.message)
                session.output.note("  " + text)
                session.output.note("  " + DisplayWidth.caret(under: text, column: column))
            } else if let column = error.column {
                // No echo of the line with a caret in a piped script, but the message still says where, once: a
                // query's error already names its column ("in the rule at column 9: …").
                let placed = error.message.contains("at column \(column)")
                session.output.error(placed ? error.message : "\(error.message) (at column \(column))")
            } else {
                session.output.error(error.message)
            }
            return .failed
        }
        let session = self.session
        let box = reader.map(ReaderBox.init)
        let task = Task { await session.execute(command, reader: box?.reader) }
        InterruptMonitor.shared.arm { task.cancel() }
        let status = await task.value
        InterruptMonitor.shared.disarm()
        return status
    }
}

/// Carries the reader into the command's task. The REPL awaits that task before reading again, so the reader is
/// never used from two threads at once.
private final class ReaderBox: @unchecked Sendable {
    let reader: any LineReader
    init(_ reader: any LineReader) { self.reader = reader }
}
