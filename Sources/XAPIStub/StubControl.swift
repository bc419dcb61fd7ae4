import Foundation

/// Control endpoints under `/__stub/`, so a test driving the standalone `xapi-stub` binary (the shell's end-to-end
/// suite) can script faults and read what was received without linking the stub. They are not recorded as requests.
///
/// - `POST /__stub/faults` with a form body `spec=<fault>[&path=<prefix>]` (specs as in `StubFault(spec:)`): 204,
///   or 400 naming the unknown spec.
/// - `GET /__stub/requests`: a JSON array of `{method, path, query, body, bearer_ok}`; the Authorization header is
///   reduced to whether it carried the expected bearer token, so the log never holds a token.
/// - `POST /__stub/reset`: forgets recorded requests and queued faults.
extension StubServer {
    /// The path prefix of the control endpoints.
    public static let controlPrefix = "/__stub/"

    func control(_ request: RecordedRequest) -> StubResponse {
        switch (request.method, request.path) {
        case ("POST", "/__stub/faults"):
            let form = request.form
            guard let spec = form["spec"], let fault = StubFault(spec: spec) else {
                return .json(400, ["error": "unknown fault spec \"\(form["spec"] ?? "")\"; see StubFault(spec:)"])
            }
            enqueue(fault, path: form["path"].flatMap { $0.isEmpty ? nil : $0 })
            return StubResponse(status: 204)
        case ("GET", "/__stub/requests"):
            let expected = "Bearer \(configuration.bearerToken)"
            return .json(
                200,
                requests.map { recorded -> [String: Any] in
                    [
                        "method": recorded.method, "path": recorded.path, "query": recorded.query,
                        "body": recorded.path == "/oauth2/invalidate_token" ? "(hidden)" : recorded.bodyText,
                        "bearer_ok": recorded.headers["authorization"] == expected,
                    ]
                })
        case ("POST", "/__stub/stream"):
            return streamControl(request.form)
        case ("POST", "/__stub/reset"):
            clearRecording()
            clearFaults()
            return StubResponse(status: 204)
        default:
            return StubResponse(status: 404)
        }
    }
}
