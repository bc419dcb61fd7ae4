import Foundation

/// Where the shell writes: results to stdout, messages to stderr. Thread-safe, because formatters are subscribers
/// that may be called from whichever thread a source answers on.
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

    /// One line of results on stdout.
    public func line(_ text: String = "") {
        lock.withLock { writeOut(text + "\n") }
    }

    /// Several lines on stdout, written together.
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
        lock.withLock { writeErr(style.dim(text) + "\n") }
    }

    /// An error on stderr.
    public func error(_ text: String) {
        lock.withLock { writeErr(style.error("error: ") + text + "\n") }
    }

    /// A warning on stderr.
    public func warning(_ text: String) {
        lock.withLock { writeErr(style.warning("warning: ") + text + "\n") }
    }
}
