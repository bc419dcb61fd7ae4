import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A file an export writes. A regular file (or a new one) is written under a hidden name beside it and renamed over
/// it only when complete, so an export that fails midway (a full disk, a store error) leaves neither a cut-off file
/// that looks whole nor the loss of the file that was there. A device, a pipe or a symbolic link (`/dev/stdout`) is
/// written in place, as before.
final class ExportFile {
    /// The path the user gave, `~` expanded.
    let path: String
    /// Where the bytes go until `commit`.
    let handle: FileHandle
    /// Whether a file was at `path` before.
    let replaces: Bool
    private let partialPath: String?
    private var finished = false

    /// Opens the export's file; nil when it cannot be created (the caller says why).
    init?(path: String) {
        self.path = path
        var status = stat()
        let exists = lstat(path, &status) == 0
        let regular = !exists || (status.st_mode & S_IFMT) == S_IFREG
        replaces = exists && regular
        if regular {
            let url = URL(fileURLWithPath: path)
            let partial = url.deletingLastPathComponent()
                .appendingPathComponent(".\(url.lastPathComponent).tweetsh-partial-\(getpid())").path
            guard FileManager.default.createFile(atPath: partial, contents: nil),
                let handle = FileHandle(forWritingAtPath: partial)
            else { return nil }
            self.handle = handle
            partialPath = partial
        } else {
            guard let handle = FileHandle(forWritingAtPath: path) else { return nil }
            self.handle = handle
            partialPath = nil
        }
    }

    deinit {
        if !finished { _ = abandon() }
    }

    /// Closes the file and puts it at `path`, replacing what was there.
    func commit() throws {
        finished = true
        try handle.close()
        guard let partialPath else { return }
        guard rename(partialPath, path) == 0 else {
            let code = errno
            unlink(partialPath)
            throw NSError(domain: NSPOSIXErrorDomain, code: Int(code))
        }
    }

    /// Closes and deletes what was written; returns what that leaves at `path`, for the error message.
    func abandon() -> String {
        finished = true
        try? handle.close()
        guard let partialPath else { return "what came before the failure went to \(path)" }
        unlink(partialPath)
        return replaces ? "\(path) was left as it was" : "nothing was written"
    }
}
