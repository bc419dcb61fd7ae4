import Foundation
import TweetStore
import XAPI

extension ShellSession {
    /// Why an export must not write at `path`, or nil when it may.
    ///
    /// An export empties the file it writes. Written over the store's own file it destroyed the whole store (the
    /// SQLite file then held 20 lines of JSON); over the file a collection was imported from, it replaced a
    /// researcher's original data with a subset of it. Both, and tweetsh's other files, are refused: compared by
    /// path (symlinks resolved) and, for files that exist, by device and inode, so another spelling or a hard link of
    /// the same file is caught too. Any other existing file is replaced, as twarc2 does.
    func protectedExportTarget(_ path: String) async -> String? {
        let target = URL(fileURLWithPath: path).standardizedFileURL
        var own: [(path: String, what: String)] = []
        if let file = (store as? TweetStore)?.path {
            for suffix in ["", "-wal", "-shm", "-journal"] { own.append((file + suffix, "this shell's store")) }
        }
        if let history = history?.path { own.append((history, "the command history")) }
        own.append((CredentialStore(environment: environment).fileURL.path, "your X API credentials"))
        own.append((ShellConfig.defaultPath(environment: environment), "tweetsh's config file"))
        for (file, what) in own where Self.sameFile(target.path, file) {
            return "it is \(what); export to another file"
        }
        var imported = (try? await store.hasImported(path: target.path)) == true
        if !imported { imported = (try? await store.hasImported(path: target.resolvingSymlinksInPath().path)) == true }
        if imported {
            return "the store imported tweets from that file; export to a new file, so the original stays as it is"
        }
        return nil
    }

    /// Whether two paths name one file: the same path once standardized with symlinks resolved, or, when both exist,
    /// the same device and inode.
    static func sameFile(_ a: String, _ b: String) -> Bool {
        func resolved(_ path: String) -> String {
            URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        }
        if resolved(a) == resolved(b) { return true }
        var first = stat()
        var second = stat()
        guard stat(a, &first) == 0, stat(b, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }
}
