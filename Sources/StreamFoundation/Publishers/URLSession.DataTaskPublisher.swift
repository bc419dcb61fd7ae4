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
            subscriber.receive(subscription: DataTaskSubscription(parent: self, downstream: subscriber))
        }
    }
}

/// What a data task's completion handler calls.
private protocol DataTaskFinishing: AnyObject, Sendable {
    /// Delivers the task's outcome, once.
    func finish(data: Data?, response: URLResponse?, error: (any Error)?)
}

/// One subscriber's data task: made on the first demand and resumed on every demand (as Combine does; resuming a
/// running task does nothing), cancelled with the subscription.
private final class DataTaskSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, DataTaskFinishing, @unchecked Sendable
where Downstream.Input == URLSession.DataTaskPublisher.Output, Downstream.Failure == URLError {
    private let lock = NSLock()
    /// The publisher, until the task completes or the subscription is cancelled.
    private var parent: URLSession.DataTaskPublisher?
    private var task: URLSessionDataTask?
    private var downstream: Downstream?
    private var demand = Subscribers.Demand.none

    init(parent: URLSession.DataTaskPublisher, downstream: Downstream) {
        self.parent = parent
        self.downstream = downstream
    }

    var description: String { "DataTaskPublisher" }

    /// The task (none before the first demand), the subscriber, the publisher and the demand, as in Combine.
    var customMirror: Mirror {
        lock.lock()
        defer { lock.unlock() }
        return Mirror(
            self,
            children: ["task": task as Any, "downstream": downstream as Any, "parent": parent as Any, "demand": demand]
        )
    }

    /// "DataTaskPublisher".
    var playgroundDescription: Any { description }

    func request(_ demand: Subscribers.Demand) {
        precondition(demand != .none, "demand must not be .none")
        // The completion handler reaches this subscription through a non-generic existential: a `@Sendable` closure
        // may not capture the subscriber's metatype.
        let finisher: any DataTaskFinishing = self
        let toResume: URLSessionDataTask? = lock.withLock {
            guard let parent else { return nil }
            self.demand += demand
            if let task { return task }
            let made = parent.session.dataTask(with: parent.request) { [weak finisher] data, response, error in
                finisher?.finish(data: data, response: response, error: error)
            }
            task = made
            return made
        }
        // Resumed outside the lock: a completion on another thread takes the same lock.
        toResume?.resume()
    }

    func cancel() {
        let ended = lock.withLock { () -> (URLSessionDataTask?, Downstream?, URLSession.DataTaskPublisher?) in
            defer { (task, downstream, parent) = (nil, nil, nil) }
            return (task, downstream, parent)
        }
        ended.0?.cancel()
    }

    func finish(data: Data?, response: URLResponse?, error: (any Error)?) {
        let ended = lock.withLock { () -> (Downstream?, URLSession.DataTaskPublisher?) in
            guard task != nil else { return (nil, nil) }
            defer { (task, downstream, parent) = (nil, nil, nil) }
            return (downstream, parent)
        }
        guard let subscriber = ended.0 else { return }
        if let error {
            // Combine passes a URLError on and reports any other error as an unknown URLError.
            subscriber.receive(completion: .failure(error as? URLError ?? URLError(.unknown)))
        } else if let response {
            _ = subscriber.receive((data: data ?? Data(), response: response))
            subscriber.receive(completion: .finished)
        } else {
            subscriber.receive(completion: .failure(URLError(.unknown)))
        }
    }
}
