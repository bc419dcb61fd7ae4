import Foundation

/// Settings from `$XDG_CONFIG_HOME/tweetsh/config`: `key = value` lines, `#` comments.
///
/// Problems never stop the shell: each one is reported with its line number and the default is kept.
public struct ShellConfig: Equatable, Sendable {
    /// Where searches go when `--source` is not given.
    public var source: SourceKind?
    /// Results per page.
    public var pageSize = 20
    /// How results are printed.
    public var format = OutputFormat.compact
    /// `auto`, `always` or `never`.
    public var color = "auto"
    /// The X API base URL, as written: `XAPISettings` judges it, and a bad one stops tweetsh (exit 2) rather than
    /// quietly sending the token to the default host.
    public var apiBase: String?
    /// `collection`: the collection local searches stay inside (`search --in` for every search).
    public var collection: String?
    /// Where `api_base` was set (`file:line`), for the message about a bad one.
    public var apiBaseLocation: String?
    /// `store`: the store to open when `--store` is not given (an SQLite path, a `postgresql://` address, or
    /// `postgres` for the `PG*` variables; see `StoreChoice`).
    public var store: String?

    /// The keys a config file may set.
    public static let keys = ["source", "page_size", "format", "color", "api_base", "collection", "store"]

    /// Creates the defaults.
    public init() {}

    /// Parses a config file's text; returns the settings and one message per problem, naming its line.
    public static func parse(_ text: String, file: String = "config") -> (config: ShellConfig, problems: [String]) {
        var config = ShellConfig()
        var problems: [String] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let lineNumber = index + 1
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                problems.append("\(file):\(lineNumber): expected 'key = value', found '\(line)'")
                continue
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            switch key {
            case "source":
                if let kind = SourceKind(rawValue: value.lowercased()) {
                    config.source = kind
                } else {
                    problems.append("\(file):\(lineNumber): source must be x or local, found '\(value)'")
                }
            case "page_size":
                if let n = Int(value), (1...100).contains(n) {
                    config.pageSize = n
                } else {
                    problems.append("\(file):\(lineNumber): page_size must be a number from 1 to 100, found '\(value)'")
                }
            case "format":
                if let format = OutputFormat(rawValue: value.lowercased()) {
                    config.format = format
                } else {
                    problems.append(
                        "\(file):\(lineNumber): format must be compact, detail, json or csv, found '\(value)'")
                }
            case "color", "colour":
                if ["auto", "always", "never"].contains(value.lowercased()) {
                    config.color = value.lowercased()
                } else {
                    problems.append("\(file):\(lineNumber): color must be auto, always or never, found '\(value)'")
                }
            case "collection":
                if value.isEmpty {
                    problems.append("\(file):\(lineNumber): collection needs a collection's name")
                } else {
                    config.collection = value
                }
            case "store":
                if value.isEmpty {
                    problems.append("\(file):\(lineNumber): store needs a file's path or a postgresql:// address")
                } else {
                    config.store = value
                }
            case "api_base":
                // Not judged here: a bad base is fatal (XAPISettings.resolve), not a warning and a fallback.
                config.apiBase = value
                config.apiBaseLocation = "\(file):\(lineNumber)"
            default:
                problems.append(
                    "\(file):\(lineNumber): unknown key '\(key)'; known keys: \(keys.joined(separator: ", "))")
            }
        }
        return (config, problems)
    }

    /// The config file's location: `$XDG_CONFIG_HOME/tweetsh/config`, by default `~/.config/tweetsh/config`.
    public static func defaultPath(environment: [String: String]) -> String {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return xdg + "/tweetsh/config" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.config/tweetsh/config"
    }
}
