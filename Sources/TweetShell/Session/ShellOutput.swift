import Foundation

/// Where the shell writes: results to stdout, messages to stderr. Thread-safe, because formatters are subscribers
/// that may be called from whichever thread a source answers on.
///
/// Notes, warnings and errors quote tweets, API answers and typed lines, so their text goes through `TerminalText`
/// here. Result lines come from the renderers, which make each field safe themselves (their own colour codes must
/// pass). JSON lines and CSV (`json`, `csv`) are written exactly when stdout is piped, and made safe to look at when
/// it is a terminal; `raw` is written exactly always (the shell's own escapes).
public final class ShellOutput: @unchecked Sendable {
    private let lock = NSLock()
    private let writeOut: @Sendable (String) -> Void
    private let writeErr: @Sendable (String) -> Void
    /// Colour on or off.
    public let style: Style
    /// Whether stdout is a terminal, where data lines are shown rather than handed to another program.
    public let dataIsShown: Bool

    /// Writes to the process's stdout and stderr.
    public static func standard(style: Style) -> ShellOutput {
        ShellOutput(
            style: style, dataIsShown: isatty(STDOUT_FILENO) == 1,
            out: { FileHandle.standardOutput.write(Data($0.utf8)) },
            err: { FileHandle.standardError.write(Data($0.utf8)) })
    }

    /// Writes through the given functions (tests collect into strings); `dataIsShown` says stdout is a terminal.
    public init(
        style: Style, dataIsShown: Bool = false, out: @escaping @Sendable (String) -> Void,
        err: @escaping @Sendable (String) -> Void
    ) {
        self.style = style
        self.dataIsShown = dataIsShown
        writeOut = out
        writeErr = err
    }

    /// One line of plain text on stdout (a URL, a summary), made safe here since it may quote a path or a handle.
    public func line(_ text: String = "") {
        lock.withLock { writeOut(TerminalText.safe(text) + "\n") }
    }

    /// Several lines on stdout, written together: styled lines from a renderer, whose fields are safe already.
    public func lines(_ texts: [String]) {
        guard !texts.isEmpty else { return }
        lock.withLock { writeOut(texts.joined(separator: "\n") + "\n") }
    }

    /// Raw text on stdout, exactly as given: the shell's own escapes (clearing the screen).
    public func raw(_ text: String) {
        lock.withLock { writeOut(text) }
    }

    /// JSON lines on stdout: exact when piped; on a terminal, what could drive it is escaped as JSON allows.
    public func json(_ text: String) {
        let shown = dataIsShown ? TerminalText.jsonForTerminal(text) : text
        lock.withLock { writeOut(shown) }
    }

    /// CSV on stdout: exact when piped; on a terminal, each line made safe as other text is.
    public func csv(_ text: String) {
        let shown = dataIsShown ? TerminalText.csvForTerminal(text) : text
        lock.withLock { writeOut(shown) }
    }

    /// A note on stderr (banners, "(cached, 4 min ago)"), so piped stdout stays data only.
    public func note(_ text: String) {
        lock.withLock { writeErr(style.dim(TerminalText.safe(text)) + "\n") }
    }

    /// An error on stderr.
    public func error(_ text: String) {
        lock.withLock { writeErr(style.error("error: ") + TerminalText.safe(Self.dropping("error: ", text)) + "\n") }
    }

    /// A warning on stderr.
    public func warning(_ text: String) {
        lock.withLock {
            writeErr(style.warning("warning: ") + TerminalText.safe(Self.dropping("warning: ", text)) + "\n")
        }
    }

    /// `text` without a leading `prefix`: some messages arrive already labelled (the API client's warnings), and the
    /// label is printed here once.
    private static func dropping(_ prefix: String, _ text: String) -> String {
        text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
    }
}
