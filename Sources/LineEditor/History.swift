import CLibEdit
import Glibc

/// The shell's command history: libedit's own in-memory history, kept in step with a file in libedit's format.
///
/// A `History` works without a terminal, so the shell and tests can use it directly; `LibEditLineReader` hands the same
/// history to libedit for up-arrow recall and ^R search.
///
/// - Each accepted line is written to the file as soon as it is added, so a crash loses nothing.
/// - Writing merges: under a lock, the file is re-read, the new line appended and the result trimmed to `limit`, so two
///   shells sharing the file keep each other's lines.
/// - Lines that are blank, equal to the previous entry, or `isSensitive` never enter memory or the file; sensitive lines
///   already in the file are dropped when it is loaded and when it is next rewritten.
///
/// A `History` is used from one thread at a time, like the reader that owns it.
public final class History {
    /// The number of entries kept when the caller does not choose.
    public static let defaultLimit = 1000

    /// The history file, or nil for a history that lives in memory only.
    public let path: String?
    /// The most entries kept, in memory and in the file.
    public let limit: Int

    let handle: OpaquePointer
    private let isSensitive: (String) -> Bool

    /// Opens a history, loading `path` when it exists.
    ///
    /// - Parameters:
    ///   - path: the file to load and append to; its directory is created (0700) and the file is created 0600.
    ///     Pass nil for a history kept only in memory.
    ///   - limit: the most entries kept; values below 1 are treated as 1.
    ///   - isSensitive: lines for which this returns true (for example `auth` with a secret) are never recorded.
    /// - Throws: `LineEditorError` when the file exists but cannot be read or is not a libedit history file.
    public init(
        path: String?, limit: Int = History.defaultLimit, isSensitive: @escaping (String) -> Bool = { _ in false }
    ) throws {
        ensureUTF8Locale()
        let limit = max(1, min(limit, Int(Int32.max)))
        guard let handle = CLibEdit_history_init(Int32(limit)) else {
            throw LineEditorError.editorUnavailable("history_winit failed")
        }
        self.handle = handle
        self.path = path
        self.limit = limit
        self.isSensitive = isSensitive
        if let path {
            try HistoryFile.load(path, into: handle)
            // Lines recorded before the predicate knew about them (or by another program) are not kept either.
            HistoryFile.removeSensitive(from: handle, isSensitive: isSensitive)
        }
    }

    deinit {
        history_wend(handle)
    }

    /// The default history file: `$XDG_STATE_HOME/tweetsh/history`, else `~/.local/state/tweetsh/history`.
    ///
    /// A relative `XDG_STATE_HOME` is ignored, as the XDG base directory specification requires, so history is never
    /// written into the current directory. Returns nil when neither variable gives an absolute directory.
    public static func defaultPath(environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return join(state, "tweetsh/history")
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return join(home, ".local/state/tweetsh/history")
        }
        return nil
    }

    /// `defaultPath(environment:)` for this process's environment.
    public static func defaultPath() -> String? {
        var environment: [String: String] = [:]
        for name in ["XDG_STATE_HOME", "HOME"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return defaultPath(environment: environment)
    }

    /// The entries in memory, oldest first.
    public var entries: [String] {
        HistoryFile.entries(of: handle)
    }

    /// The newest entry, if any.
    public var newest: String? {
        CLibEdit_history_step(handle, H_FIRST).map { WideText.string($0) }
    }

    /// Whether `add` would record `line`: it is not blank, not sensitive and not a repeat of the newest entry.
    public func accepts(_ line: String) -> Bool {
        !line.allSatisfy(\.isWhitespace) && !isSensitive(line) && line != newest
    }

    /// Records `line` in memory and appends it to the file.
    ///
    /// - Returns: false when the line was not recorded (blank, sensitive or a consecutive duplicate).
    /// - Throws: `LineEditorError` when the file could not be written; the line is still in memory then.
    @discardableResult
    public func add(_ line: String) throws -> Bool {
        guard accepts(line) else { return false }
        let history = handle
        _ = WideText.withCharacters(line) { CLibEdit_history_enter(history, $0) }
        if let path {
            try HistoryFile.append(line, to: path, limit: limit, isSensitive: isSensitive)
        }
        return true
    }

    private static func join(_ directory: String, _ relative: String) -> String {
        directory.hasSuffix("/") ? directory + relative : directory + "/" + relative
    }
}
