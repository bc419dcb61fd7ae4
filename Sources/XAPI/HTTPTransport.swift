import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response as the client needs it: status, headers with lowercased names, body.
struct HTTPResponse: Sendable {
    var status: Int
    var headers: [String: String]
    var body: Data
}

/// URLSession with async/await and prompt cancellation.
///
/// The data task is cancelled from the task's cancellation handler, so a slow response stops at once instead of
/// running to its timeout; the caller then sees `CancellationError`, not a `URLError`.
///
/// The session is made on the first request, not at start-up: creating one initialises cookie storage, libcurl and
/// OpenSSL, which costs tens of milliseconds before the shell's first prompt, and a local-only session never needs it.
final class HTTPTransport: Sendable {
    private let settings: XAPISettings
    private let lazySession = Mutex<URLSession?>(nil)

    init(settings: XAPISettings) {
        self.settings = settings
    }

    private var session: URLSession {
        lazySession.withLock { session in
            if let session { return session }
            let created = Self.makeSession(settings)
            session = created
            return created
        }
    }

    private static func makeSession(_ settings: XAPISettings) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = settings.effectiveRequestTimeout
        configuration.timeoutIntervalForResource = max(
            settings.resourceTimeout.rounded(.up), settings.effectiveRequestTimeout)
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        return URLSession(configuration: configuration)
    }

    deinit { lazySession.withLock { $0?.finishTasksAndInvalidate() } }

    func send(_ request: URLRequest) async throws -> HTTPResponse {
        let box = Mutex<TaskState>(.notStarted)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, any Error>) in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else if let http = response as? HTTPURLResponse {
                        var headers: [String: String] = [:]
                        for (key, value) in http.allHeaderFields {
                            if let key = key as? String, let value = value as? String {
                                headers[key.lowercased()] = value
                            }
                        }
                        continuation.resume(
                            returning: HTTPResponse(status: http.statusCode, headers: headers, body: data ?? Data()))
                    } else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                    }
                }
                let cancelledEarly = box.withLock { state -> Bool in
                    if case .cancelled = state { return true }
                    state = .running(task)
                    return false
                }
                task.resume()
                // Cancelled before the task existed: cancel it now, so the handler above resumes the continuation.
                if cancelledEarly { task.cancel() }
            }
        } onCancel: {
            let task = box.withLock { state -> URLSessionDataTask? in
                defer { state = .cancelled }
                if case .running(let task) = state { return task }
                return nil
            }
            task?.cancel()
        }
    }

    private enum TaskState: @unchecked Sendable {
        case notStarted
        case running(URLSessionDataTask)
        case cancelled
    }
}
