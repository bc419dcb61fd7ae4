import Foundation

/// Where the shell writes: results to stdout, messages to stderr. Thread-safe, because formatters are subscribers
/// that may be called from whichever thread a source answers on.
///
/// Notes, warnings and errors quote tweets, API answers and typed lines, so their text goes through `TerminalText`
/// here. Result lines come from the renderers, which make each field safe themselves (their own colour codes must
/// pass); `raw` is data (JSON lines, CSV) and is written exactly.
public final class ShellOutput: @unchecked Sendable {
    private let lock = NSLock()
    private let writeOut: @Sendable (String) -> Void
    private let writeErr: @Sendable (String) -> Void
    /// Colour on or off.
    public let style: Style

    /// Writes to the process's stdout and stderr.
    public static func standard(style: Style) -> ShellOutput {
        ShellOutput(
            style: style, out: { FileHandle.standardOutput.write(Data($0.utf8)) },
            err: { FileHandle.standardError.write(Data($0.utf8)) })
    }

    /// Writes through the given functions (tests collect into strings).
    public init(style: Style, out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void) {
        self.style = style
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

    /// Raw text on stdout (JSON lines, CSV).
    public func raw(_ text: String) {
        lock.withLock { writeOut(text) }
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
