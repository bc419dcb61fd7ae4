import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The credentials file, `$XDG_CONFIG_HOME/tweetsh/credentials` (or `~/.config/tweetsh/credentials`).
///
/// A `key=value` text file holding `bearer_token`. It is written 0600 in a 0700 directory through a temporary file and a
/// rename, so it is never readable by others even for a moment; a file found readable by group or others is fixed to
/// 0600, with a warning, before it is read.
public struct CredentialStore: Sendable {
    /// Where the file lives.
    public let fileURL: URL

    /// Uses an explicit file (tests use a temporary directory).
    public init(fileURL: URL) { self.fileURL = fileURL }

    /// The standard location for this environment.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let configHome: URL
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            configHome = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"] ?? NSHomeDirectory()
            configHome = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(
                ".config", isDirectory: true)
        }
        self.fileURL = configHome.appendingPathComponent("tweetsh", isDirectory: true).appendingPathComponent(
            "credentials")
    }

    /// The stored bearer token, nil when there is no file or it holds none.
    ///
    /// `warn` receives a message when the file's permissions had to be fixed. A line that is not `key=value` is an
    /// error naming the line, rather than a token silently ignored.
    public func loadToken(warn: (String) -> Void = { _ in }) throws(XAPIError) -> BearerToken? {
        let path = fileURL.path
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let mode = info.st_mode & 0o777
        if mode & 0o077 != 0 {
            if chmod(path, 0o600) == 0 {
                warn(
                    "warning: \(path) was readable by \(mode & 0o044 == 0o004 ? "others" : "group or others") "
                        + "(mode \(String(mode, radix: 8))); its permissions are now 0600.")
            } else {
                warn(
                    "warning: \(path) is readable by group or others (mode \(String(mode, radix: 8))) and could not be "
                        + "fixed: run chmod 600 on it.")
            }
        }
        let text: String
        do {
            text = try String(contentsOf: fileURL, encoding: .utf8)
        } catch {
            throw .invalidSetting("Cannot read \(path): it is not UTF-8 text. Run `logout`, then `auth` to rewrite it.")
        }
        for (number, rawLine) in text.components(separatedBy: "\n").enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw .invalidSetting("\(path) line \(number + 1): expected key=value. Run `auth` to rewrite the file.")
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            guard key == "bearer_token" else { continue }
            let value = String(line[line.index(after: equals)...])
            guard let token = BearerToken(value) else {
                throw .invalidSetting(
                    "\(path) line \(number + 1): the bearer token is empty or holds spaces or control characters. "
                        + "Run `auth` to store it again.")
            }
            return token
        }
        return nil
    }

    /// Writes the token, replacing the file atomically; the file is 0600 and its directory 0700.
    public func save(_ token: BearerToken) throws(XAPIError) {
        let directory = fileURL.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .invalidSetting("Cannot create \(directory.path): \(error.localizedDescription)")
        }
        let contents =
            "# tweetsh credentials: keep private (mode 0600)\nbearer_token=\(token.revealForAuthorizationHeader())\n"
        let temporary = directory.appendingPathComponent(".credentials.\(getpid()).tmp").path
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .invalidSetting("Cannot write \(temporary): \(String(cString: strerror(errno)))") }
        // umask cannot widen 0600, but an existing temp file could have other bits: set them explicitly.
        fchmod(fd, 0o600)
        let bytes = Array(contents.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, synced, rename(temporary, fileURL.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .invalidSetting("Cannot write \(fileURL.path): \(reason)")
        }
    }

    /// Deletes the file; true when there was one.
    @discardableResult
    public func remove() throws(XAPIError) -> Bool {
        guard unlink(fileURL.path) == 0 else {
            if errno == ENOENT { return false }
            throw .invalidSetting("Cannot remove \(fileURL.path): \(String(cString: strerror(errno)))")
        }
        return true
    }
}
