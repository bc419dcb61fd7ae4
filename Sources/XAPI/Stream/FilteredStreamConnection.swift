import Foundation
import Synchronization
import TweetKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What one connection to `GET /2/tweets/search/stream` reports, in order: `opened` once the answer is a 200, any
/// number of `message`s, and exactly one `ended` (nil after `cancel()`).
public enum StreamConnectionEvent: Sendable {
    /// The stream answered 200; tweets and heartbeats follow.
    case opened
    /// One line: a tweet, a heartbeat, or an error object.
    case message(StreamMessage)
    /// A line that could not be read; the stream goes on.
    case unreadable(String)
    /// The connection is over: why, or nil when it was cancelled.
    case ended(StreamFailure?)
}

/// Opens filtered-stream connections; the reconnecting stream in the shell asks for a new one after each failure.
///
/// A protocol so the reconnection logic can be driven in virtual time by a scripted connector in tests, while the
/// shell and the end-to-end tests use `XAPIClient`'s real connection over URLSession.
public protocol FilteredStreamConnector: Sendable {
    /// Starts one connection; `handler` receives its events on a background thread until `ended`.
    func connect(_ handler: @escaping @Sendable (StreamConnectionEvent) -> Void) -> any FilteredStreamHandle
}

/// A connection in progress; `cancel()` closes it, after which its handler hears nothing more.
public protocol FilteredStreamHandle: Sendable {
    /// Closes the connection.
    func cancel()
}

extension XAPIClient: FilteredStreamConnector {
    /// The stream's path.
    public static let filteredStreamPath = "/2/tweets/search/stream"

    /// Connects to the filtered stream with every field and expansion a search asks for.
    public func connect(_ handler: @escaping @Sendable (StreamConnectionEvent) -> Void) -> any FilteredStreamHandle {
        let settings = configuration.settings
        guard let token = currentToken() else {
            handler(.ended(.refused(status: 401, message: XAPIError.missingCredentials.description)))
            return StreamTaskHandle(session: nil)
        }
        guard let url = settings.url(path: Self.filteredStreamPath, query: XAPIFields.tweetQueryItems) else {
            handler(.ended(.refused(status: 0, message: "cannot build the stream URL from \(settings.baseURL)")))
            return StreamTaskHandle(session: nil)
        }
        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        request.setValue(settings.userAgent, forHTTPHeaderField: "User-Agent")
        request.setValue("Bearer \(token.revealForAuthorizationHeader())", forHTTPHeaderField: "Authorization")
        let delegate = StreamTaskDelegate(handler: handler, redact: { token.redact($0) }, url: url.absoluteString)
        let configuration = URLSessionConfiguration.ephemeral
        // The heartbeat check (21 s without a byte) is the stream's own; the session's idle timeout only backs it up,
        // and there is no limit on how long a stream may run.
        configuration.timeoutIntervalForRequest = 90
        configuration.timeoutIntervalForResource = 365 * 24 * 3600
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        let task = session.dataTask(with: request)
        task.resume()
        return StreamTaskHandle(session: session, delegate: delegate)
    }
}

/// Closes a stream's session; its delegate stops reporting first, so `cancel()` is final.
private final class StreamTaskHandle: FilteredStreamHandle, @unchecked Sendable {
    private let session: URLSession?
    private let delegate: StreamTaskDelegate?

    init(session: URLSession?, delegate: StreamTaskDelegate? = nil) {
        self.session = session
        self.delegate = delegate
    }

    func cancel() {
        delegate?.silence()
        session?.invalidateAndCancel()
    }
}

/// Receives the response in chunks as they arrive and turns them into lines and events.
private final class StreamTaskDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private struct State {
        var silenced = false
        var status: Int?
        var errorBody = Data()
        var splitter = StreamLineSplitter()
        var delivered = 0
    }

    private let handler: @Sendable (StreamConnectionEvent) -> Void
    private let redact: @Sendable (String) -> String
    /// The stream's request URL, for each tweet's `__twarc` block.
    private let url: String
    private let state = Mutex(State())

    init(
        handler: @escaping @Sendable (StreamConnectionEvent) -> Void, redact: @escaping @Sendable (String) -> String,
        url: String
    ) {
        self.handler = handler
        self.redact = redact
        self.url = url
    }

    /// A tweet with its provenance in twarc2's form, as a search page gets it (`XAPISource`): the stream's URL and
    /// when it arrived, to the second. One block per second keeps the store's `twarc_blocks` to one row per second
    /// of streaming instead of one per tweet.
    private func stamped(_ message: StreamMessage) -> StreamMessage {
        guard case .tweet(var tweet) = message else { return message }
        let second = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        // The line's `matching_rules`, which the decoder kept in the block, stay with the new `__twarc`.
        tweet.page.originals.twarc = LineBlock.replacingTwarc(
            in: tweet.page.originals.twarc, with: TwarcMetadata(url: url, retrievedAt: second).original)
        return .tweet(tweet)
    }

    func silence() { state.withLock { $0.silenced = true } }

    private func emit(_ event: StreamConnectionEvent) {
        guard !state.withLock({ $0.silenced }) else { return }
        handler(event)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        state.withLock { $0.status = status }
        if status == 200 { emit(.opened) }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let lines = state.withLock { state -> [[UInt8]]? in
            guard state.status == 200 else {
                if state.errorBody.count < 64 << 10 { state.errorBody.append(data) }
                return nil
            }
            let lines = state.splitter.feed(data)
            state.delivered += lines.count
            return lines
        }
        for line in lines ?? [] {
            do {
                emit(.message(stamped(try StreamLineDecoder.decode(line))))
            } catch {
                emit(.unreadable(String(describing: error)))
            }
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (status, body, delivered) = state.withLock { ($0.status, $0.errorBody, $0.delivered) }
        let failure: StreamFailure
        if let status, status != 200 {
            failure = StreamFailure.classify(status: status, body: body)
        } else {
            let reason = error.map { redact(NetworkFailure($0).reason) } ?? "the server closed the connection"
            failure = status == 200 && delivered > 0 ? .dropped(reason: reason) : .network(reason: reason)
        }
        emit(.ended(failure))
        silence()
        session.finishTasksAndInvalidate()
    }
}
