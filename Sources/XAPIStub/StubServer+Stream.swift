import Foundation
import TweetKit

#if canImport(Glibc)
    import Glibc
#endif

extension StubServer {
    /// Serves `GET /2/tweets/search/stream` on its own (the response is open-ended, not one body); false for any
    /// other request. A queued fault for the stream's path is played first, as for any endpoint.
    func serveStream(_ fd: Int32, _ request: RecordedRequest) -> Bool {
        guard request.method == "GET", request.path == "/2/tweets/search/stream" else { return false }
        let authorization = request.headers["authorization"] ?? ""
        guard authorization.hasPrefix("Bearer "), accepts(token: String(authorization.dropFirst(7))) else {
            let body = StubJSON.encode([
                "title": "Unauthorized", "type": "about:blank", "status": 401, "detail": "Unauthorized",
            ])
            let head =
                "HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n"
                + "Connection: close\r\n\r\n"
            _ = StubSocket.writeAll(fd, Data(head.utf8) + body)
            return true
        }
        if pendingFaults > 0 {
            // Faults (a 503, a closed connection) answer in place of the stream, through the normal path.
            return false
        }
        // The rules added through the rules endpoint are the ones the stream's tweets match, as on X.
        if let rule = streamRules.rules.first {
            var settings = stream.settings
            settings.rule = (rule.id, rule.value, rule.tag ?? rule.value)
            stream.configure(settings)
        }
        stream.serve(fd) { [weak self] in self?.isStopped ?? true }
        shutdown(fd, Int32(SHUT_RDWR))
        return true
    }

    /// The routes over the corpus plus every tweet the stream posted, so a recent search finds them.
    func routesIncludingStream() -> StubRoutes {
        let posted = stream.posted
        guard !posted.isEmpty else { return routes }
        var corpus = routes.corpus
        corpus.tweets += posted
        if corpus.user(StubStream.author.id) == nil { corpus.users.append(StubStream.author) }
        return StubRoutes(corpus: corpus)
    }

    /// `POST /__stub/stream` with `rate=`, `heartbeat=`, `limit=` (settings) and `command=` (a `StubStream.Command`
    /// spec), any of them.
    func streamControl(_ form: [String: String]) -> StubResponse {
        var settings = stream.settings
        if let text = form["rate"] {
            guard let rate = Double(text), rate >= 0 else { return .json(400, ["error": "rate \(text): not a number"]) }
            settings.tweetsPerSecond = rate
        }
        if let text = form["heartbeat"] {
            guard let seconds = Double(text), seconds > 0 else {
                return .json(400, ["error": "heartbeat \(text): not a positive number"])
            }
            settings.heartbeatInterval = seconds
        }
        if let text = form["limit"] {
            guard let limit = Int(text), limit >= 0 else { return .json(400, ["error": "limit \(text): not a count"]) }
            settings.maximumTweets = limit
        }
        stream.configure(settings)
        if let spec = form["command"] {
            guard let command = StubStream.Command(spec: spec) else {
                return .json(400, ["error": "unknown stream command \"\(spec)\""])
            }
            stream.enqueue(command)
        }
        return StubResponse(status: 204)
    }
}
