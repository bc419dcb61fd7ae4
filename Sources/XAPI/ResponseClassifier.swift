import Foundation

/// Turns a non-2xx response into what the client does next: wait for a window, retry, or throw a typed error.
///
/// Pure, so every branch of the contract's error table can be checked without a network. Problem `type` URIs are
/// matched by their last path component, since they name api.twitter.com even when served from api.x.com.
enum ResponseClassifier {
    enum Verdict: Equatable {
        /// A window 429: wait until `resetAt` (nil when the headers did not say) and try again.
        case waitForWindow(resetAt: Date?)
        /// A 429 that is neither the window (requests are left in it) nor the usage cap: a per-second limit the
        /// headers do not show (full-archive search allows 1 request a second). Wait a second and try again.
        case waitBriefly
        /// 5xx: back off and retry.
        case retry(status: Int, title: String?)
        /// Give up with this error.
        case fail(XAPIError)
    }

    static func classify(status: Int, headers: [String: String], body: Data, endpoint: String) -> Verdict {
        let problem = Problem(body: body)
        switch status {
        case 400:
            return .fail(badRequest(problem, endpoint: endpoint))
        case 401:
            return .fail(.unauthorized(endpoint: endpoint))
        case 403:
            return .fail(forbidden(problem, endpoint: endpoint))
        case 404:
            return .fail(.notFound(endpoint: endpoint, body: notFoundShape(headers: headers, body: body)))
        case 429:
            return tooManyRequests(problem, headers: headers, endpoint: endpoint)
        case 500...599:
            return .retry(status: status, title: problem.title)
        default:
            return .fail(.unexpectedStatus(endpoint: endpoint, status: status, detail: problem.detail ?? problem.title))
        }
    }

    private static func badRequest(_ problem: Problem, endpoint: String) -> XAPIError {
        let first = problem.errors.first
        let message = first?.message ?? problem.detail ?? problem.title ?? "the request was invalid"
        let parameter = first?.parameters.first ?? problem.errors.lazy.compactMap { $0.parameters.first }.first
        return .badRequest(endpoint: endpoint, message: message, parameter: parameter, position: position(in: message))
    }

    /// The `N` of `(at position N)` in a query error.
    static func position(in message: String) -> Int? {
        guard let range = message.range(of: "(at position ") else { return nil }
        let digits = message[range.upperBound...].prefix { $0.isNumber }
        return Int(digits)
    }

    private static func forbidden(_ problem: Problem, endpoint: String) -> XAPIError {
        switch problem.typeName {
        case "client-forbidden":
            return .clientForbidden(endpoint: endpoint, reason: problem.reason)
        case "unsupported-authentication":
            return .unsupportedAuthentication(endpoint: endpoint, detail: problem.detail)
        default:
            if problem.errors.contains(where: { $0.code == 99 }) { return .invalidConsumerCredentials }
            return .forbidden(endpoint: endpoint, detail: problem.detail ?? problem.errors.first?.message)
        }
    }

    private static func notFoundShape(headers: [String: String], body: Data) -> XAPIError.NotFoundBody {
        let text = String(decoding: body.prefix(512), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty { return .empty }
        if headers["content-type"]?.lowercased().contains("html") == true || text.hasPrefix("<") { return .html }
        return .other
    }

    private static func tooManyRequests(_ problem: Problem, headers: [String: String], endpoint: String) -> Verdict {
        let isCap =
            problem.typeName == "usage-capped" || problem.title == "UsageCapExceeded"
            || problem.typeName?.contains("usage-cap") == true
        if isCap {
            return .fail(.usageCapExceeded(endpoint: endpoint, period: problem.period, detail: problem.detail))
        }
        let remaining = headers["x-rate-limit-remaining"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        if let remaining, remaining > 0 { return .waitBriefly }
        let reset = headers["x-rate-limit-reset"].flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        return .waitForWindow(resetAt: reset.map { Date(timeIntervalSince1970: $0) })
    }
}

/// The parts of an RFC 7807 problem body (and of the v1.1 `errors` body) the classifier reads; all optional.
struct Problem {
    struct Item {
        var message: String?
        var parameters: [String] = []
        var code: Int?
    }

    var title: String?
    var detail: String?
    var type: String?
    var reason: String?
    var period: String?
    var errors: [Item] = []

    init(body: Data) {
        guard !body.isEmpty, let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            return
        }
        title = object["title"] as? String
        detail = object["detail"] as? String
        type = object["type"] as? String
        reason = object["reason"] as? String
        period = object["period"] as? String
        for case let item as [String: Any] in object["errors"] as? [Any] ?? [] {
            let parameters = (item["parameters"] as? [String: Any]).map { $0.keys.sorted() } ?? []
            errors.append(
                Item(
                    message: item["message"] as? String ?? item["detail"] as? String,
                    parameters: parameters + [item["parameter"] as? String].compactMap { $0 },
                    code: (item["code"] as? NSNumber)?.intValue))
        }
    }

    /// The last path component of `type`, e.g. `client-forbidden`.
    var typeName: String? {
        guard let type, type != "about:blank" else { return nil }
        return type.split(separator: "/").last.map(String.init)
    }
}
