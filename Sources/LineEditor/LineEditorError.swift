import Glibc

/// Why a line reader or the history could not do what was asked.
public enum LineEditorError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A system call on a file failed; `operation` names what was being done.
    case file(path: String, operation: String, errno: Int32)
    /// A history file exists but is not in libedit's format, so it is left untouched rather than overwritten.
    case unreadableHistory(path: String)
    /// libedit could not be initialised (for example, no usable terminal).
    case editorUnavailable(String)
    /// Another `LibEditLineReader` is open in this process; libedit's signal handling allows only one.
    case readerAlreadyOpen
    /// Reading the input failed.
    case input(operation: String, errno: Int32)

    /// A one-line explanation naming the file or operation that failed.
    public var description: String {
        switch self {
        case .file(let path, let operation, let code):
            return "history: cannot \(operation) \(path): \(Self.message(code))"
        case .unreadableHistory(let path):
            return "history: \(path) is not a libedit history file (first line is not _HiStOrY_V2_); left unchanged"
        case .editorUnavailable(let reason):
            return "line editor unavailable: \(reason)"
        case .readerAlreadyOpen:
            return "line editor: another terminal reader is already open in this process"
        case .input(let operation, let code):
            return "input: \(operation) failed: \(Self.message(code))"
        }
    }

    private static func message(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
