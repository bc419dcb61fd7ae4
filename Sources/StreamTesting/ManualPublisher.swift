import StreamCore

/// A publisher driven by hand: the test sends values and completions, and reads back the demand requests and cancels
/// that subscribers made.
///
/// Each subscriber gets its own `ManualSubscription`, in `subscriptions`, which records its own requests and cancels;
/// the publisher's `events` interleave all of them. `send(_:)` delivers to every live subscription (not cancelled, not
/// completed) in subscription order and deliberately ignores demand, so a test decides whether to stay within it
/// (check `demand`) or to break the contract on purpose. To misbehave further (a value after cancel or completion, a
/// value before the subscription), use the `ManualSubscription` directly.
///
/// Thread-safe: records are guarded by a lock and subscribers are called outside it.
public final class ManualPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    /// Something a subscriber did to the publisher.
    public enum Event: Hashable, Sendable, CustomStringConvertible {
        /// A subscriber attached (`receive(subscriber:)` ran).
        case subscribe
        /// A subscription requested this demand.
        case request(Subscribers.Demand)
        /// A subscription was cancelled (every call is recorded, repeated ones too).
        case cancel

        /// The event, for failure messages.
        public var description: String {
            switch self {
            case .subscribe: return "subscribe"
            case .request(let demand): return "request(\(demand))"
            case .cancel: return "cancel"
            }
        }
    }

    let lock = TestingLock()
    private var recorded: [Event] = []
    private var attached: [ManualSubscription<Output, Failure>] = []
    private let sendsSubscriptionOnSubscribe: Bool
    private let keepsSubscriberAfterCancel: Bool

    /// Creates a publisher.
    /// - Parameters:
    ///   - sendsSubscriptionOnSubscribe: when false, a subscriber gets its subscription only when the test calls
    ///     `sendSubscription()` on it, so the test can act (send a value, for instance) before that.
    ///   - keepsSubscriberAfterCancel: when true, a cancelled subscription keeps its subscriber so the test can still
    ///     send to it; by default it releases it as a real publisher would, so leak checks stay meaningful.
    public init(sendsSubscriptionOnSubscribe: Bool = true, keepsSubscriberAfterCancel: Bool = false) {
        self.sendsSubscriptionOnSubscribe = sendsSubscriptionOnSubscribe
        self.keepsSubscriberAfterCancel = keepsSubscriberAfterCancel
    }

    /// Everything subscribers did, oldest first.
    public var events: [Event] {
        lock.withLock { recorded }
    }

    /// Every demand requested, by any subscription, in order.
    public var requests: [Subscribers.Demand] {
        events.compactMap { event in
            if case .request(let demand) = event { return demand }
            return nil
        }
    }

    /// How many times any subscription was cancelled.
    public var cancelCount: Int {
        events.filter { $0 == .cancel }.count
    }

    /// Every subscription made so far, in subscription order.
    public var subscriptions: [ManualSubscription<Output, Failure>] {
        lock.withLock { attached }
    }

    /// The most recent subscription, or nil.
    public var subscription: ManualSubscription<Output, Failure>? {
        lock.withLock { attached.last }
    }

    /// How many subscriptions are neither cancelled nor completed.
    public var liveSubscriptionCount: Int {
        subscriptions.filter(\.isLive).count
    }

    /// The outstanding demand of the most recent subscription (`.none` if there is none).
    public var demand: Subscribers.Demand {
        subscription?.demand ?? .none
    }

    /// Attaches the subscriber through a new `ManualSubscription`.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let subscription = ManualSubscription<Output, Failure>(
            publisher: self,
            downstream: AnySubscriber(subscriber),
            keepsSubscriberAfterCancel: keepsSubscriberAfterCancel
        )
        lock.withLock {
            recorded.append(.subscribe)
            attached.append(subscription)
        }
        if sendsSubscriptionOnSubscribe {
            subscription.sendSubscription()
        }
    }

    /// Sends `value` to every live subscription, regardless of demand, and returns the sum of the demand they returned.
    @discardableResult
    public func send(_ value: Output) -> Subscribers.Demand {
        var returned = Subscribers.Demand.none
        for subscription in subscriptions where subscription.isLive {
            returned += subscription.send(value)
        }
        return returned
    }

    /// Sends `completion` to every live subscription; they are not live afterwards.
    public func send(completion: Subscribers.Completion<Failure>) {
        for subscription in subscriptions where subscription.isLive {
            subscription.send(completion: completion)
        }
    }

    func record(_ event: Event) {
        lock.withLock { recorded.append(event) }
    }
}

extension ManualPublisher where Output == Void {
    /// Sends a `Void` value.
    @discardableResult
    public func send() -> Subscribers.Demand {
        send(())
    }
}

/// One subscriber's connection to a `ManualPublisher`: it records that subscriber's requests and cancels and lets the
/// test send to that subscriber alone, even against the rules (after cancel or completion, beyond demand).
public final class ManualSubscription<Output, Failure: Error>: Subscription, CustomStringConvertible,
    @unchecked Sendable
{
    private let lock = TestingLock()
    private weak var publisher: ManualPublisher<Output, Failure>?
    private var downstream: AnySubscriber<Output, Failure>?
    private let keepsSubscriberAfterCancel: Bool
    private var requested: [Subscribers.Demand] = []
    private var cancels = 0
    private var completed = false
    private var outstanding = Subscribers.Demand.none

    init(
        publisher: ManualPublisher<Output, Failure>,
        downstream: AnySubscriber<Output, Failure>,
        keepsSubscriberAfterCancel: Bool
    ) {
        self.publisher = publisher
        self.downstream = downstream
        self.keepsSubscriberAfterCancel = keepsSubscriberAfterCancel
    }

    /// The demands this subscription received, in order.
    public var requests: [Subscribers.Demand] {
        lock.withLock { requested }
    }

    /// How many times `cancel()` was called.
    public var cancelCount: Int {
        lock.withLock { cancels }
    }

    /// True once cancelled.
    public var isCancelled: Bool {
        cancelCount > 0
    }

    /// True once a completion was sent through this subscription.
    public var isCompleted: Bool {
        lock.withLock { completed }
    }

    /// Neither cancelled nor completed: the publisher's `send` still reaches it.
    public var isLive: Bool {
        lock.withLock { cancels == 0 && !completed }
    }

    /// Requested demand not yet used up by values sent (adding the demand subscribers returned from `receive(_:)`).
    public var demand: Subscribers.Demand {
        lock.withLock { outstanding }
    }

    /// True while the subscriber is still referenced (released on completion, and on cancel unless told to keep it).
    public var hasSubscriber: Bool {
        lock.withLock { downstream != nil }
    }

    /// Summarizes the records, for failure messages.
    public var description: String {
        "ManualSubscription(requests: \(requests), cancels: \(cancelCount))"
    }

    /// Hands this subscription to the subscriber (done at subscribe time unless the publisher was told not to).
    public func sendSubscription() {
        let subscriber = lock.withLock { downstream }
        subscriber?.receive(subscription: self)
    }

    /// Sends a value to this subscriber whatever its state or demand, and returns the demand it returned.
    @discardableResult
    public func send(_ value: Output) -> Subscribers.Demand {
        guard
            let subscriber = lock.withLock({ () -> AnySubscriber<Output, Failure>? in
                outstanding -= 1
                return downstream
            })
        else { return .none }
        let more = subscriber.receive(value)
        lock.withLock { outstanding += more }
        return more
    }

    /// Sends a completion to this subscriber and releases it.
    public func send(completion: Subscribers.Completion<Failure>) {
        let subscriber: AnySubscriber<Output, Failure>? = lock.withLock {
            completed = true
            defer { downstream = nil }
            return downstream
        }
        subscriber?.receive(completion: completion)
    }

    /// Records the request. Requesting `.none` is recorded too, so a test can catch an operator that does it.
    public func request(_ demand: Subscribers.Demand) {
        lock.withLock {
            requested.append(demand)
            outstanding += demand
        }
        publisher?.record(.request(demand))
    }

    /// Records the cancel and releases the subscriber unless the publisher keeps them.
    public func cancel() {
        let released: AnySubscriber<Output, Failure>? = lock.withLock {
            cancels += 1
            guard !keepsSubscriberAfterCancel else { return nil }
            defer { downstream = nil }
            return downstream
        }
        publisher?.record(.cancel)
        // Released here, outside the lock, since dropping the last reference may run the subscriber's deinit.
        _ = released
    }
}
