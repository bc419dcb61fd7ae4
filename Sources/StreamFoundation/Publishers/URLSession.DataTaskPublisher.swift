import Foundation
import StreamCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSession {
    /// Returns a publisher that loads `url` with a data task once the subscriber requests a value.
    public func dataTaskPublisher(for url: URL) -> DataTaskPublisher {
        DataTaskPublisher(request: URLRequest(url: url), session: self)
    }

    /// Returns a publisher that performs `request` with a data task once the subscriber requests a value.
    public func dataTaskPublisher(for request: URLRequest) -> DataTaskPublisher {
        DataTaskPublisher(request: request, session: self)
    }

    /// A publisher that delivers the data and response of one data task, then finishes; or fails with a `URLError`.
    ///
    /// As in Combine, each subscription runs its own task, started by the first non-zero demand; cancelling the
    /// subscription cancels the task. Any HTTP status is a success here; checking it is the caller's job.
    public struct DataTaskPublisher: StreamCore.Publisher {
        /// The body and the response.
        public typealias Output = (data: Data, response: URLResponse)
        /// Loading errors, as `URLError`.
        public typealias Failure = URLError

        /// The request performed.
        public let request: URLRequest
        /// The session that performs it.
        public let session: URLSession

        /// Creates a publisher for `request` on `session`.
        public init(request: URLRequest, session: URLSession) {
            self.request = request
            self.session = session
        }

        /// Gives the subscriber a subscription whose first demand starts the task.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscriber.receive(
                subscription: DataTaskSubscription(
                    request: request,
                    session: session,
                    downstream: AnySubscriber(subscriber)
                ))
        }
    }
}

private final class DataTaskSubscription: Subscription, CustomStringConvertible, @unchecked Sendable {
    private enum State {
        case waitingForDemand(URLRequest, URLSession)
        case running(URLSessionDataTask)
        case done
    }

    private let lock = NSLock()
    private var state: State
    private var downstream: AnySubscriber<URLSession.DataTaskPublisher.Output, URLError>?

    init(
        request: URLRequest, session: URLSession,
        downstream: AnySubscriber<URLSession.DataTaskPublisher.Output, URLError>
    ) {
        state = .waitingForDemand(request, session)
        self.downstream = downstream
    }

    var description: String { "DataTaskPublisher" }

    func request(_ demand: Subscribers.Demand) {
        precondition(demand != .none, "demand must not be .none")
        let task: URLSessionDataTask? = lock.withLock {
            guard case .waitingForDemand(let request, let session) = state else { return nil }
            let task = session.dataTask(with: request) { [weak self] data, response, error in
                self?.finish(data: data, response: response, error: error)
            }
            state = .running(task)
            return task
        }
        // Resumed outside the lock: a completion on another thread takes the same lock.
        task?.resume()
    }

    func cancel() {
        let (task, released): (URLSessionDataTask?, AnySubscriber<URLSession.DataTaskPublisher.Output, URLError>?) =
            lock.withLock {
                defer {
                    state = .done
                    downstream = nil
                }
                if case .running(let task) = state { return (task, downstream) }
                return (nil, downstream)
            }
        task?.cancel()
        _ = released
    }

    private func finish(data: Data?, response: URLResponse?, error: (any Error)?) {
        let subscriber: AnySubscriber<URLSession.DataTaskPublisher.Output, URLError>? = lock.withLock {
            guard case .running = state else { return nil }
            state = .done
            defer { downstream = nil }
            return downstream
        }
        guard let subscriber else { return }
        if let error {
            subscriber.receive(completion: .failure(Self.urlError(error)))
        } else if let response {
            _ = subscriber.receive((data: data ?? Data(), response: response))
            subscriber.receive(completion: .finished)
        } else {
            subscriber.receive(completion: .failure(URLError(.badServerResponse)))
        }
    }

    private static func urlError(_ error: any Error) -> URLError {
        if let urlError = error as? URLError { return urlError }
        return URLError(.unknown, userInfo: [NSUnderlyingErrorKey: error as NSError])
    }
}
