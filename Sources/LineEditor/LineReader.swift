/// What one read from a `LineReader` produced.
public enum ReadResult: Equatable, Sendable {
    /// A complete line, without its line terminator.
    case line(String)
    /// The user pressed Ctrl-C: the line being typed was discarded. Read again for a fresh prompt.
    case interrupted
    /// Ctrl-D on an empty line, or the end of piped input. Nothing more will come.
    case endOfInput
}

/// A source of input lines for the shell: a line editor on a terminal, or plain reads from a pipe or file.
///
/// Readers are used from one thread at a time (the shell's input loop); they are not `Sendable`.
public protocol LineReader: AnyObject {
    /// Reads one line after showing `prompt`.
    ///
    /// The prompt may contain ANSI escape sequences (colours); a terminal reader keeps them out of its cursor
    /// arithmetic, a piped reader shows no prompt at all.
    func readLine(prompt: String) throws -> ReadResult

    /// Reads one line without echoing it, for secrets such as bearer tokens. The line never enters history.
    func readSecret(prompt: String) throws -> ReadResult

    /// The history the reader records into and recalls from, if any.
    var history: History? { get }

    /// Whether a person is typing: true for the terminal reader, false for piped input. A shell can use this to decide
    /// on banners and confirmation prompts.
    var isInteractive: Bool { get }
}
