import Foundation

/// A request as the stub received it, so tests can assert on exactly what the client sent.
public struct RecordedRequest: Sendable, Hashable {
    /// `GET`, `POST`.
    public var method: String
    /// The path without the query, e.g. `/2/tweets/search/recent`.
    public var path: String
    /// The raw request target, path and query as sent.
    public var target: String
    /// Query parameters, percent-decoded (the last value wins for a repeated name).
    public var query: [String: String]
    /// Header fields with lowercased names.
    public var headers: [String: String]
    /// The body bytes.
    public var body: Data

    /// Creates a record.
    public init(
        method: String, path: String, target: String, query: [String: String], headers: [String: String], body: Data
    ) {
        self.method = method
        self.path = path
        self.target = target
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// The body as UTF-8 text.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// Decodes an `application/x-www-form-urlencoded` body.
    public var form: [String: String] { Self.decodeForm(bodyText) }

    static func decodeForm(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in text.split(separator: "&") where !pair.isEmpty {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = decode(String(parts[0]))
            result[name] = parts.count > 1 ? decode(String(parts[1])) : ""
        }
        return result
    }

    static func decode(_ text: String) -> String {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? text
    }
}
