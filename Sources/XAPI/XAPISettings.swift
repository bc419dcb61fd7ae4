import Foundation

/// Where the client connects and how patient it is.
///
/// The base URL is a setting because the API answers on two hosts (`api.x.com`, `api.twitter.com`) and because tests
/// and the end-to-end suite point it at the loopback stub.
public struct XAPISettings: Sendable, Hashable {
    /// The documented default host.
    public static let defaultBaseURL = URL(string: "https://api.x.com")!
    /// The config-file key that overrides the base URL.
    public static let configKey = "api_base"
    /// The environment variable that overrides both the default and the config file.
    public static let environmentKey = "TWEETSH_API_BASE"

    /// Scheme and host (and optional path prefix) that `/2/...` paths are appended to.
    public var baseURL: URL
    /// Seconds a request may wait for the next bytes before it counts as a network failure.
    public var requestTimeout: TimeInterval
    /// Seconds a whole request may take, including the body.
    public var resourceTimeout: TimeInterval
    /// Sent on every request so X can tell tweetsh's traffic apart.
    public var userAgent: String

    /// Creates settings from explicit values.
    public init(
        baseURL: URL = XAPISettings.defaultBaseURL, requestTimeout: TimeInterval = 30,
        resourceTimeout: TimeInterval = 120,
        version: String = "0.1.0"
    ) {
        self.baseURL = baseURL
        self.requestTimeout = requestTimeout
        self.resourceTimeout = resourceTimeout
        self.userAgent = "tweetsh/\(version)"
    }

    /// Resolves the base URL: the environment variable wins over the config key, which wins over the default.
    ///
    /// An override that is not an absolute http(s) URL is an error rather than a silent fallback, so a typo in the config
    /// does not quietly send requests (and the token) somewhere else.
    public static func resolve(
        config: [String: String] = [:], environment: [String: String] = ProcessInfo.processInfo.environment,
        version: String = "0.1.0"
    ) throws(XAPIError) -> XAPISettings {
        var settings = XAPISettings(version: version)
        let candidates: [(String, String?)] = [
            ("environment variable \(environmentKey)", environment[environmentKey]),
            ("config key \(configKey)", config[configKey]),
        ]
        for (origin, value) in candidates {
            guard let value, !value.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            settings.baseURL = try parseBaseURL(value.trimmingCharacters(in: .whitespaces), origin: origin)
            break
        }
        return settings
    }

    static func parseBaseURL(_ text: String, origin: String) throws(XAPIError) -> URL {
        var trimmed = text
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else {
            throw XAPIError.invalidSetting(
                "\(origin) is \"\(text)\", which is not an http(s) URL; use e.g. https://api.x.com")
        }
        return url
    }

    /// FoundationNetworking hands timeouts to libcurl in whole seconds, and a fraction below one becomes "time out at
    /// once": round up, never below a second.
    var effectiveRequestTimeout: TimeInterval { max(1, requestTimeout.rounded(.up)) }

    /// The full URL for an API path such as `/2/tweets/search/recent` with its query items.
    func url(path: String, query: [URLQueryItem]) -> URL? {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else { return nil }
        components.path = components.path + path
        if !query.isEmpty {
            // URLComponents leaves `+`, `,` and `:` alone; the API wants a strict form so `+` is not read as a space.
            components.percentEncodedQuery = query.map { item in
                "\(Self.formEncode(item.name))=\(Self.formEncode(item.value ?? ""))"
            }.joined(separator: "&")
        }
        return components.url
    }

    /// Percent-encodes everything outside RFC 3986's unreserved set.
    static func formEncode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        // `alphanumerics` includes non-ASCII letters; restrict to ASCII so those get encoded as UTF-8 bytes.
        return text.unicodeScalars.map { scalar -> String in
            if scalar.isASCII, allowed.contains(scalar) { return String(scalar) }
            return String(scalar).utf8.map { String(format: "%%%02X", $0) }.joined()
        }.joined()
    }
}
