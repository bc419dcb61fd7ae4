import CSQLite
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What `backup` wrote.
public struct BackupReport: Hashable, Sendable {
    /// The new file.
    public var path: String
    /// Its size in bytes.
    public var bytes: Int

    /// Creates a report.
    public init(path: String, bytes: Int) {
        self.path = path
        self.bytes = bytes
    }
}

extension TweetStore {
    /// Writes a consistent copy of the store to a new file at `path`, while other shells go on reading and writing.
    ///
    /// `VACUUM INTO` copies one snapshot, read in a single transaction: every import batch is in the copy whole or
    /// not at all. The copy is written beside `path` under a temporary name and linked into place at the end, so a
    /// failed or cancelled backup leaves nothing, and an existing file is never replaced. The copy is compact (no
    /// free pages) and needs no `-wal` file.
    public func backup(to path: String) async throws -> BackupReport {
        let target = (path as NSString).expandingTildeInPath
        let folder = StoreOpener.folder(of: target)
        let files = FileManager.default
        var targetIsFolder: ObjCBool = false
        if files.fileExists(atPath: target, isDirectory: &targetIsFolder) {
            let detail =
                targetIsFolder.boolValue
                ? "it is a folder; give the name of a new file in it, such as \(target)/tweets-backup.sqlite"
                : "a file of that name exists; give a new name"
            throw StoreError(.backupFailed, path: target, detail: detail)
        }
        var isFolder: ObjCBool = false
        guard files.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw StoreError(.backupFailed, path: target, detail: "the folder \(folder) does not exist")
        }
        guard access(folder, W_OK) == 0 else {
            throw StoreError(.backupFailed, path: target, detail: "the folder \(folder) is not writable")
        }
        let partial = target + ".partial-\(getpid())"
        try? files.removeItem(atPath: partial)
        do {
            try await database.run { connection in
                try connection.withStatement("VACUUM INTO ?", [.text(partial)]) { try $0.run() }
            }
        } catch {
            try? files.removeItem(atPath: partial)
            guard var error = error as? StoreError, error.kind != .closed else { throw error }
            // The failure concerns the new file, not the store: say so, with the cause's words.
            error.detail = error.kind == .diskFull ? "the disk is full" : error.detail ?? Self.backupCause(error.kind)
            error.kind = .backupFailed
            error.path = target
            throw error
        }
        defer { try? files.removeItem(atPath: partial) }
        // link(2) fails rather than replace a file that appeared meanwhile.
        guard link(partial, target) == 0 else {
            throw StoreError(.backupFailed, path: target, detail: String(cString: strerror(errno)).lowercased())
        }
        let bytes = (try? files.attributesOfItem(atPath: target)[.size] as? NSNumber)?.intValue ?? 0
        return BackupReport(path: target, bytes: bytes)
    }

    private static func backupCause(_ kind: StoreError.Kind) -> String {
        switch kind {
        case .cannotOpen: return "the file cannot be created"
        case .ioFailure: return "an I/O error"
        case .outOfMemory: return "out of memory"
        case .locked: return "the store stayed locked"
        default: return "the copy failed"
        }
    }
}
