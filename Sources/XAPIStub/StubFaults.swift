import Foundation

/// The exact responses of the scripted faults, in the contract's shapes.
enum StubFaults {
    static func response(
        for fault: StubFault, normal: () -> StubResponse, rateHeaders: [(String, String)]
    ) -> StubResponse {
        switch fault {
        case .unauthorized:
            return .json(
                401, ["title": "Unauthorized", "type": "about:blank", "status": 401, "detail": "Unauthorized"])
        case .clientForbidden:
            var response = StubResponse.json(
                403,
                [
                    "client_id": "29630000", "title": "Client Forbidden", "reason": "client-not-enrolled",
                    "required_enrollment": "Appropriate Level of API Access",
                    "registration_url": "https://developer.x.com/en/docs/projects/overview",
                    "detail":
                        "When authenticating requests to the Twitter API v2 endpoints, you must use keys and tokens "
                        + "from a Twitter developer App that is attached to a Project.",
                    "type": "https://api.twitter.com/2/problems/client-forbidden",
                ])
            response.headers += rateHeaders
            return response
        case .unsupportedAuthentication:
            var response = StubResponse.problem(
                403, title: "Unsupported Authentication",
                detail: "Authenticating with OAuth 2.0 Application-Only is forbidden for this endpoint.  Supported "
                    + "authentication types are [OAuth 1.0a User Context, OAuth 2.0 User Context].",
                type: "https://api.twitter.com/2/problems/unsupported-authentication")
            response.headers += rateHeaders
            return response
        case .badRequest(let position):
            return .invalidRequest(
                parameter: "query", value: "",
                message: "There were errors processing your request: Ambiguous use of and as a keyword. Use a space to "
                    + "logically join two clauses, or \"and\" to find occurrences of and in text (at position \(position))"
            )
        case .windowRateLimit(let resetAt):
            var response = StubResponse.problem(429, title: "Too Many Requests", detail: "Too Many Requests")
            response.headers += windowHeaders(resetAt)
            return response
        case .legacyWindowRateLimit(let resetAt):
            var response = StubResponse.json(429, ["errors": [["code": 88, "message": "Rate limit exceeded"]]])
            response.headers += windowHeaders(resetAt)
            return response
        case .windowRateLimitOnAnswer(let seconds, let legacy):
            let resetAt = Date().addingTimeInterval(seconds)
            let fault: StubFault =
                legacy ? .legacyWindowRateLimit(resetAt: resetAt) : .windowRateLimit(resetAt: resetAt)
            return response(for: fault, normal: normal, rateHeaders: rateHeaders)
        case .perSecondRateLimit:
            var response = StubResponse.problem(429, title: "Too Many Requests", detail: "Too Many Requests")
            response.headers += [
                ("x-rate-limit-limit", "300"), ("x-rate-limit-remaining", "299"),
                ("x-rate-limit-reset", "\(Int(Date().timeIntervalSince1970) + 900)"),
            ]
            return response
        case .usageCap:
            var response = StubResponse.json(
                429,
                [
                    "account_id": 1_449_000, "product_name": "standard-basic", "title": "UsageCapExceeded",
                    "period": "Monthly", "scope": "Product", "detail": "Usage cap exceeded: Monthly product cap",
                    "type": "https://api.twitter.com/2/problems/usage-capped",
                ])
            response.headers += [
                ("x-rate-limit-limit", "450"), ("x-rate-limit-remaining", "440"),
                ("x-rate-limit-reset", "\(Int(Date().timeIntervalSince1970) + 900)"),
            ]
            return response
        case .serverError(let status):
            let title = status == 503 ? "Service Unavailable" : status == 502 ? "Bad Gateway" : "Internal Server Error"
            return .problem(status, title: title, detail: title)
        case .slow(let seconds):
            var response = normal()
            response.delay = seconds
            return response
        case .truncatedBody:
            var response = normal()
            response.truncate = true
            return response
        case .html404:
            let page =
                "<!DOCTYPE html><html><head><title>Page not found</title></head><body>"
                + "<h1>Sorry, that page does not exist.</h1></body></html>"
            return StubResponse(
                status: 404, headers: [("Content-Type", "text/html; charset=utf-8")], body: Data(page.utf8))
        case .empty404:
            return StubResponse(status: 404)
        case .closeConnection:
            return StubResponse(status: 0, closeWithoutResponse: true)
        case .tokenTypeNotBearer:
            return .json(200, ["token_type": "mac", "access_token": "not-a-bearer-token"])
        }
    }

    private static func windowHeaders(_ resetAt: Date) -> [(String, String)] {
        [
            ("x-rate-limit-limit", "450"), ("x-rate-limit-remaining", "0"),
            ("x-rate-limit-reset", "\(Int(resetAt.timeIntervalSince1970.rounded(.up)))"),
        ]
    }
}
