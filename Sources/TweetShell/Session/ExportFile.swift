import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A file an export writes. A regular file (or a new one) is written under a hidden name beside it and renamed over
/// it only when complete, so an export that fails midway (a full disk, a store error) leaves neither a cut-off file
/// that looks whole nor the loss of the file that was there. A symbolic link is followed, and the file it names is
/// replaced so. A device or a pipe (`/dev/stdout`) is written in place.
final class ExportFile {
    /// The path the user gave, `~` expanded.
    let path: String
    /// Where the bytes go until `commit`.
    let handle: FileHandle
    /// Whether a file was at `path` before.
    let replaces: Bool
    /// Whether the export goes to the shell's own standard output (`export -`, `/dev/stdout`).
    var isStandardOutput: Bool { Self.standardOutputPaths.contains(path) }

    private static let standardOutputPaths = ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"]
    private let partialPath: String?
    /// `path` with symbolic links resolved: where the file is renamed to.
    private let targetPath: String
    /// The permission bits of the file replaced.
    private let replacedMode: mode_t?
    private var finished = false

    /// Opens the export's file; nil when it cannot be created (the caller says why).
    init?(path: String) {
        self.path = path
        // The file a link names is the one replaced; the link stays. `/dev/stdout` and the like name a descriptor,
        // whatever file it is open on: those are written in place, as a shell's `>` would.
        let special = path.hasPrefix("/dev/") || path.hasPrefix("/proc/")
        let target = special ? path : URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        var status = stat()
        let exists = stat(target, &status) == 0
        let regular = !special && (!exists || (status.st_mode & S_IFMT) == S_IFREG)
        replaces = exists && regular
        // A file replaced keeps its permissions: an export kept private (0600) stays private.
        replacedMode = replaces ? status.st_mode & 0o7777 : nil
        targetPath = target
        if regular {
            let url = URL(fileURLWithPath: target)
            let partial = url.deletingLastPathComponent()
                .appendingPathComponent(".\(url.lastPathComponent).tweetsh-partial-\(getpid())").path
            if FileManager.default.createFile(atPath: partial, contents: nil),
                let handle = FileHandle(forWritingAtPath: partial)
            {
                self.handle = handle
                partialPath = partial
            } else {
                // A writable file in a folder that is not: nothing can be put beside it, so it is written in place.
                let descriptor = exists ? open(target, O_WRONLY | O_TRUNC) : -1
                guard descriptor >= 0 else { return nil }
                handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
                partialPath = nil
            }
        } else {
            // The shell's own stdout or stderr is shared, offset and all, so the export follows what was printed.
            let shared: Int32? =
                Self.standardOutputPaths.contains(path)
                ? 1 : ["/dev/stderr", "/dev/fd/2", "/proc/self/fd/2"].contains(path) ? 2 : nil
            let descriptor = shared.map { dup($0) } ?? open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard descriptor >= 0 else { return nil }
            handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
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
        if let replacedMode { chmod(partialPath, replacedMode) }
        guard rename(partialPath, targetPath) == 0 else {
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
