/// A publisher that eventually produces a single value and then finishes or fails.
///
/// As in Combine, the closure runs as soon as the future is created (not on subscription), the promise takes effect
/// only the first time it is called, and every subscriber — even one arriving after fulfilment — receives the result:
/// a value once it has demand, followed by `.finished`, or the failure at once.
public final class Future<Output, Failure: Error>: Publisher, @unchecked Sendable {
    /// The closure a future's producer calls with its result. Calls after the first are ignored.
    public typealias Promise = @Sendable (Result<Output, Failure>) -> Void

    private let lock = Lock()
    private var result: Result<Output, Failure>?
    private var waiting: [FutureConduitBase<Output, Failure>] = []

    /// Creates a future and immediately runs `attemptToFulfill` with its promise.
    public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
        attemptToFulfill { [self] result in
            fulfill(result)
        }
    }

    private func fulfill(_ result: Result<Output, Failure>) {
        lock.lock()
        guard self.result == nil else {
            lock.unlock()
            return
        }
        self.result = result
        let toNotify = waiting
        waiting = []
        lock.unlock()
        for conduit in toNotify {
            conduit.fulfill(result)
        }
    }

    /// Attaches a subscriber; it receives the result (now or when it comes) as its demand allows.
    ///
    /// The subscription is handed over before the conduit can be fulfilled, so even a failure arriving from another
    /// thread at that moment reaches the subscriber after its subscription.
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        let conduit = FutureConduit(future: self, downstream: subscriber)
        subscriber.receive(subscription: conduit)
        lock.lock()
        let known = result
        if known == nil && conduit.isLive {
            waiting.append(conduit)
        }
        lock.unlock()
        if let known {
            conduit.fulfill(known)
        }
    }

    fileprivate func remove(_ conduit: FutureConduitBase<Output, Failure>) {
        lock.lock()
        if let index = waiting.firstIndex(where: { $0 === conduit }) {
            waiting.remove(at: index)
        }
        lock.unlock()
    }
}

/// The type-erased face of a subscriber's subscription to a future.
private class FutureConduitBase<Output, Failure: Error> {
    func fulfill(_ result: Result<Output, Failure>) {}

    /// False once the subscriber cancelled (possibly from inside `receive(subscription:)`).
    var isLive: Bool { false }
}

/// One subscriber's subscription: delivers once both the result and demand are there, then forgets the subscriber
/// and the future (after the delivery, so that the subscriber still sees its parent while it is told, as in Combine).
private final class FutureConduit<Downstream: Subscriber>: FutureConduitBase<Downstream.Input, Downstream.Failure>,
    Subscription, CustomStringConvertible
{
    typealias Output = Downstream.Input
    typealias Failure = Downstream.Failure

    private let lock = Lock()
    private var future: Future<Output, Failure>?
    private var downstream: Downstream?
    private var result: Result<Output, Failure>?
    private var hasDemand = false
    private var delivering = false

    init(future: Future<Output, Failure>, downstream: Downstream) {
        self.future = future
        self.downstream = downstream
    }

    var description: String { "Future" }

    override var isLive: Bool {
        lock.lock()
        defer { lock.unlock() }
        return downstream != nil
    }

    override func fulfill(_ result: Result<Output, Failure>) {
        lock.lock()
        guard downstream != nil else {
            lock.unlock()
            return
        }
        self.result = result
        deliverIfReady()
    }

    func request(_ demand: Subscribers.Demand) {
        precondition(demand != .none, "demand must not be zero")
        lock.lock()
        guard downstream != nil else {
            lock.unlock()
            return
        }
        hasDemand = true
        deliverIfReady()
    }

    /// With the lock held: delivers a value when there is demand, or a failure regardless of demand, then unlocks.
    /// The result is taken first, so a request or cancel made from inside the delivery finds nothing more to do.
    private func deliverIfReady() {
        guard let result, let downstream, !delivering else {
            lock.unlock()
            return
        }
        if case .success = result, !hasDemand {
            lock.unlock()
            return
        }
        delivering = true
        self.result = nil
        lock.unlock()
        switch result {
        case .success(let value):
            _ = downstream.receive(value)
            downstream.receive(completion: .finished)
        case .failure(let error):
            downstream.receive(completion: .failure(error))
        }
        lock.lock()
        let future = end()
        lock.unlock()
        withExtendedLifetime(future) {}
    }

    /// With the lock held: forgets the subscriber, the result and the future; returns the future to release later.
    private func end() -> Future<Output, Failure>? {
        let future = self.future
        self.future = nil
        downstream = nil
        result = nil
        return future
    }

    func cancel() {
        lock.lock()
        let future = self.future
        let dropped = downstream
        _ = end()
        lock.unlock()
        withExtendedLifetime(dropped) {}
        future?.remove(self)
    }
}

extension FutureConduit: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// The future (as "parent" and as "subject"), the subscriber and whether it has asked for the value, as in
    /// Combine; the future and the subscriber show as `nil` once the result has been delivered or the subscription
    /// cancelled.
    var customMirror: Mirror {
        lock.lock()
        let parent = future
        let subscriber = downstream
        let asked = hasDemand
        lock.unlock()
        return Mirror(
            self,
            children: [
                "parent": parent as Any, "downstream": subscriber as Any, "hasAnyDemand": asked,
                "subject": parent as Any,
            ]
        )
    }

    /// "Future".
    var playgroundDescription: Any { description }
}
