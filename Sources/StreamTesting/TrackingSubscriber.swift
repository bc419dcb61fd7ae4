import StreamCore

/// A subscriber that records everything it receives, in order, and asks for exactly the demand a test configures.
///
/// It requests `initialDemand` when it gets its subscription (nothing if `nil` or `.none`), and after each value returns
/// what `demandAfterValue` says (`.none` by default). Tests can also call `request(_:)` or use `subscription` directly,
/// and `cancel()`. Everything is recorded, including protocol violations such as a value after completion, so a test can
/// assert that they did not happen. A second subscription is recorded and cancelled, as Combine's subscribers do.
///
/// Thread-safe: records are guarded by a lock and the closures run outside it.
public final class TrackingSubscriber<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
    @unchecked Sendable
{
    /// One thing the subscriber received.
    public enum Event: CustomStringConvertible {
        /// A subscription arrived.
        case subscription
        /// A value arrived.
        case value(Input)
        /// The stream completed.
        case completion(Subscribers.Completion<Failure>)

        /// The event, for failure messages.
        public var description: String {
            switch self {
            case .subscription: return "subscription"
            case .value(let value): return "value(\(value))"
            case .completion(.finished): return "finished"
            case .completion(.failure(let error)): return "failure(\(error))"
            }
        }
    }

    private let lock = TestingLock()
    private var recorded: [Event] = []
    private var subscriptions: [any Subscription] = []
    private var cancelled = false
    private let initialDemand: Subscribers.Demand?
    private let demandAfterValue: (Input) -> Subscribers.Demand
    private let onEvent: ((Event) -> Void)?

    /// Creates a subscriber.
    /// - Parameters:
    ///   - initialDemand: requested on subscription; `nil` or `.none` requests nothing (requesting `.none` traps in Combine).
    ///   - demandAfterValue: the demand returned from each `receive(_:)`; `.none` when omitted.
    ///   - onEvent: called after each event is recorded, outside the lock (for example to send reentrantly or to signal).
    public init(
        initialDemand: Subscribers.Demand? = .unlimited,
        demandAfterValue: ((Input) -> Subscribers.Demand)? = nil,
        onEvent: ((Event) -> Void)? = nil
    ) {
        self.initialDemand = initialDemand
        self.demandAfterValue = demandAfterValue ?? { _ in .none }
        self.onEvent = onEvent
    }

    /// The first subscription received, for manual `request` and `cancel` calls; nil before subscription.
    public var subscription: (any Subscription)? {
        lock.withLock { subscriptions.first }
    }

    /// How many subscriptions arrived (more than one is a protocol violation by the publisher).
    public var subscriptionCount: Int {
        lock.withLock { subscriptions.count }
    }

    /// Everything received, oldest first.
    public var events: [Event] {
        lock.withLock { recorded }
    }

    /// The values received, in order.
    public var values: [Input] {
        lock.withLock {
            recorded.compactMap { event in
                if case .value(let value) = event { return value }
                return nil
            }
        }
    }

    /// The first completion received, or nil while the stream is open.
    public var completion: Subscribers.Completion<Failure>? {
        lock.withLock {
            for case .completion(let completion) in recorded { return completion }
            return nil
        }
    }

    /// True once a `.finished` completion arrived.
    public var isFinished: Bool {
        if case .finished? = completion { return true }
        return false
    }

    /// The error of a `.failure` completion, or nil.
    public var failure: Failure? {
        if case .failure(let error)? = completion { return error }
        return nil
    }

    /// True once `cancel()` has been called.
    public var isCancelled: Bool {
        lock.withLock { cancelled }
    }

    /// A readable summary of the events, for failure messages.
    public var description: String {
        "TrackingSubscriber\(events)"
    }

    /// Records the subscription and requests the initial demand; a second subscription is recorded and cancelled.
    public func receive(subscription: any Subscription) {
        let isFirst: Bool = lock.withLock {
            subscriptions.append(subscription)
            recorded.append(.subscription)
            return subscriptions.count == 1
        }
        onEvent?(.subscription)
        guard isFirst else {
            subscription.cancel()
            return
        }
        if let demand = initialDemand, demand != .none {
            subscription.request(demand)
        }
    }

    /// Records the value and returns the configured demand.
    public func receive(_ input: Input) -> Subscribers.Demand {
        lock.withLock { recorded.append(.value(input)) }
        onEvent?(.value(input))
        return demandAfterValue(input)
    }

    /// Records the completion.
    public func receive(completion: Subscribers.Completion<Failure>) {
        lock.withLock { recorded.append(.completion(completion)) }
        onEvent?(.completion(completion))
    }

    /// Requests more values through the first subscription; does nothing before subscription or for `.none`.
    public func request(_ demand: Subscribers.Demand) {
        guard demand != .none, let subscription else { return }
        subscription.request(demand)
    }

    /// Cancels the first subscription. The subscription stays readable so a test can check later calls do nothing.
    public func cancel() {
        let subscription: (any Subscription)? = lock.withLock {
            cancelled = true
            return subscriptions.first
        }
        subscription?.cancel()
    }
}

extension TrackingSubscriber.Event: Equatable where Input: Equatable, Failure: Equatable {}
