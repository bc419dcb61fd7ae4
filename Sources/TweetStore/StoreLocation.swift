import Foundation

/// Where a store keeps its data.
public enum StoreLocation: Hashable, Sendable {
    /// A database file; its folder is created (mode 0700) when missing.
    case file(String)
    /// A private in-memory database, gone when the store is released. For tests.
    case inMemory

    /// `$XDG_DATA_HOME/tweetsh/tweets.sqlite`, falling back to `~/.local/share/tweetsh/tweets.sqlite`.
    public static func defaultLocation(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> StoreLocation
    {
        .file(defaultPath(environment: environment))
    }

    /// The default file path; XDG says a relative `XDG_DATA_HOME` is invalid and must be ignored.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return data + "/tweetsh/tweets.sqlite"
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/tweetsh/tweets.sqlite"
    }

    var sqlitePath: String {
        switch self {
        case .file(let path): return (path as NSString).expandingTildeInPath
        case .inMemory: return ":memory:"
        }
    }
}
