import CLibEdit
import Glibc
import Synchronization

/// libedit's history load and save share conversion buffers between all histories, so only one thread may run them at
/// a time; separate processes are serialised by the file lock instead.
private let libeditFileAccess = Mutex<Void>(())

/// The history file on disk: libedit's format, written whole through a temporary file and a rename under a lock.
///
/// libedit's format is one entry per line after a `_HiStOrY_V2_` header, each line encoded with strvis(3) so that
/// spaces, tabs, newlines and backslashes survive; using libedit's own H_LOAD/H_SAVE_FP keeps the file readable by any
/// libedit program.
enum HistoryFile {
    /// Loads `path` into `history`. A missing or empty file is an empty history.
    static func load(_ path: String, into history: OpaquePointer) throws {
        var info = stat()
        if stat(path, &info) != 0 {
            if errno == ENOENT { return }
            throw LineEditorError.file(path: path, operation: "read", errno: errno)
        }
        if info.st_size == 0 { return }
        if access(path, R_OK) != 0 {
            throw LineEditorError.file(path: path, operation: "read", errno: errno)
        }
        let loaded = libeditFileAccess.withLock { _ in CLibEdit_history_load(history, path) }
        if loaded < 0 {
            throw LineEditorError.unreadableHistory(path: path)
        }
    }

    /// Appends `line` to the file, merging with whatever other processes wrote since this one last looked.
    static func append(_ line: String, to path: String, limit: Int, isSensitive: (String) -> Bool) throws {
        try createParentDirectory(of: path)
        try withLock(on: path) {
            guard let merged = CLibEdit_history_init(Int32(limit)) else {
                throw LineEditorError.editorUnavailable("history_winit failed")
            }
            defer { history_wend(merged) }
            try load(path, into: merged)
            removeSensitive(from: merged, isSensitive: isSensitive)
            _ = WideText.withCharacters(line) { CLibEdit_history_enter(merged, $0) }
            try replace(path, with: merged)
        }
    }

    /// The entries of `history`, oldest first.
    static func entries(of history: OpaquePointer) -> [String] {
        var result: [String] = []
        // H_LAST is the oldest entry; H_PREV walks towards newer ones.
        var entry = CLibEdit_history_step(history, H_LAST)
        while let current = entry {
            result.append(WideText.string(current))
            entry = CLibEdit_history_step(history, H_PREV)
        }
        return result
    }

    /// Rebuilds `history` without the entries `isSensitive` flags, if there are any.
    static func removeSensitive(from history: OpaquePointer, isSensitive: (String) -> Bool) {
        let all = entries(of: history)
        guard all.contains(where: isSensitive) else { return }
        _ = CLibEdit_history_clear(history)
        for entry in all where !isSensitive(entry) {
            _ = WideText.withCharacters(entry) { CLibEdit_history_enter(history, $0) }
        }
    }

    /// Writes `history` to a fresh 0600 file beside `path` and renames it over `path`, so readers never see a partly
    /// written file and a crash leaves the previous version.
    private static func replace(_ path: String, with history: OpaquePointer) throws {
        let temporary = "\(path).tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if fd < 0 {
            throw LineEditorError.file(path: temporary, operation: "create", errno: errno)
        }
        // Created files get 0600 from open; this also fixes a leftover temporary with looser permissions.
        _ = fchmod(fd, 0o600)
        let (written, code) = libeditFileAccess.withLock { _ in
            let written = CLibEdit_history_save_fd(history, fd)
            return (written, errno)
        }
        if written < 0 {
            unlink(temporary)
            throw LineEditorError.file(path: temporary, operation: "write", errno: code)
        }
        if rename(temporary, path) != 0 {
            let code = errno
            unlink(temporary)
            throw LineEditorError.file(path: path, operation: "replace", errno: code)
        }
    }

    /// Runs `body` holding an exclusive flock on `<path>.lock`, which serialises writers across processes (and across
    /// `History` objects in one process, since flock locks belong to the open file).
    private static func withLock<Result>(on path: String, _ body: () throws -> Result) throws -> Result {
        let lockPath = path + ".lock"
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if fd < 0 {
            throw LineEditorError.file(path: lockPath, operation: "open", errno: errno)
        }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            if errno != EINTR {
                throw LineEditorError.file(path: lockPath, operation: "lock", errno: errno)
            }
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    /// Creates the missing directories above `path` with mode 0700, as the XDG specification asks for state data.
    static func createParentDirectory(of path: String) throws {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return }
        let directory = String(path[..<slash])
        var info = stat()
        if stat(directory, &info) == 0 { return }
        try createParentDirectory(of: directory)
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw LineEditorError.file(path: directory, operation: "create directory", errno: errno)
        }
    }
}
