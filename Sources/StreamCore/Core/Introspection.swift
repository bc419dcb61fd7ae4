import Synchronization

/// Combine's hook for debugging tools: an enabled introspection object hears of every `subscribe(_:)` call and of
/// every event of the subscriptions those calls make (subscription, values, completion, requests, cancels).
///
/// Only `Publisher.subscribe(_:)` is observed, not a direct `receive(subscriber:)` call, as in Combine. Every hook
/// does nothing by default. While no introspection is enabled, `subscribe(_:)` costs one atomic load more, and the
/// delivery path nothing.
public protocol _Introspection: AnyObject {
    /// A publisher is about to receive a subscriber through `subscribe(_:)`.
    func willReceive<Upstream: Publisher, Downstream: Subscriber>(publisher: Upstream, subscriber: Downstream)
    where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input

    /// A publisher has received a subscriber through `subscribe(_:)`.
    func didReceive<Upstream: Publisher, Downstream: Subscriber>(publisher: Upstream, subscriber: Downstream)
    where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input

    /// A subscriber is about to receive its subscription.
    func willReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: any Subscription)

    /// A subscriber has received its subscription.
    func didReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: any Subscription)

    /// A subscriber is about to receive a value.
    func willReceive<Downstream: Subscriber>(subscriber: Downstream, input: Downstream.Input)

    /// A subscriber has received a value and returned `resultingDemand`.
    func didReceive<Downstream: Subscriber>(
        subscriber: Downstream, input: Downstream.Input, resultingDemand: Subscribers.Demand)

    /// A subscriber is about to receive its completion.
    func willReceive<Downstream: Subscriber>(
        subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>)

    /// A subscriber has received its completion.
    func didReceive<Downstream: Subscriber>(
        subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>)

    /// A subscription is about to be asked for `demand`.
    func willRequest(subscription: any Subscription, _ demand: Subscribers.Demand)

    /// A subscription has been asked for `demand`.
    func didRequest(subscription: any Subscription, _ demand: Subscribers.Demand)

    /// A subscription is about to be cancelled.
    func willCancel(subscription: any Subscription)

    /// A subscription has been cancelled.
    func didCancel(subscription: any Subscription)
}

extension _Introspection {
    /// Does nothing.
    public func willReceive<Upstream: Publisher, Downstream: Subscriber>(publisher: Upstream, subscriber: Downstream)
    where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input {}

    /// Does nothing.
    public func didReceive<Upstream: Publisher, Downstream: Subscriber>(publisher: Upstream, subscriber: Downstream)
    where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input {}

    /// Does nothing.
    public func willReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: any Subscription) {}

    /// Does nothing.
    public func didReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: any Subscription) {}

    /// Does nothing.
    public func willReceive<Downstream: Subscriber>(subscriber: Downstream, input: Downstream.Input) {}

    /// Does nothing.
    public func didReceive<Downstream: Subscriber>(
        subscriber: Downstream, input: Downstream.Input, resultingDemand: Subscribers.Demand
    ) {}

    /// Does nothing.
    public func willReceive<Downstream: Subscriber>(
        subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>
    ) {}

    /// Does nothing.
    public func didReceive<Downstream: Subscriber>(
        subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>
    ) {}

    /// Does nothing.
    public func willRequest(subscription: any Subscription, _ demand: Subscribers.Demand) {}

    /// Does nothing.
    public func didRequest(subscription: any Subscription, _ demand: Subscribers.Demand) {}

    /// Does nothing.
    public func willCancel(subscription: any Subscription) {}

    /// Does nothing.
    public func didCancel(subscription: any Subscription) {}

    /// Starts hearing of subscriptions made from now on, and of the events of those already observed.
    public func enable() {
        IntrospectionRegistry.shared.enable(self)
    }

    /// Stops hearing of anything.
    public func disable() {
        IntrospectionRegistry.shared.disable(self)
    }

    /// Whether this object is enabled.
    public var isEnabled: Bool {
        IntrospectionRegistry.shared.isEnabled(self)
    }
}

/// The enabled introspection objects, in the order they were enabled. `activeCount` lets `subscribe(_:)` skip
/// everything with one atomic load while none is enabled.
@usableFromInline
internal final class IntrospectionRegistry: @unchecked Sendable {
    @usableFromInline
    internal static let shared = IntrospectionRegistry()

    @usableFromInline
    internal let activeCount = Atomic<Int>(0)
    private let lock = Lock()
    private var enabled: [any _Introspection] = []

    /// Whether any introspection is enabled (the fast path's only cost).
    @inlinable
    internal var isActive: Bool {
        activeCount.load(ordering: .relaxed) != 0
    }

    internal func enable(_ introspection: any _Introspection) {
        lock.lock()
        if !enabled.contains(where: { $0 === introspection }) {
            enabled.append(introspection)
        }
        activeCount.store(enabled.count, ordering: .relaxed)
        lock.unlock()
    }

    internal func disable(_ introspection: any _Introspection) {
        lock.lock()
        enabled.removeAll { $0 === introspection }
        activeCount.store(enabled.count, ordering: .relaxed)
        lock.unlock()
    }

    internal func isEnabled(_ introspection: any _Introspection) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return enabled.contains { $0 === introspection }
    }

    /// A snapshot of the enabled objects, so hooks run outside the lock.
    internal var current: [any _Introspection] {
        guard isActive else { return [] }
        lock.lock()
        defer { lock.unlock() }
        return enabled
    }
}

extension Publisher {
    /// `subscribe(_:)` while an introspection is enabled: tells the enabled objects, and attaches a forwarding
    /// subscriber that reports the subscription's events.
    ///
    /// As in Combine, a subscriber that already is such a forwarder (an operator passed its subscriber on to
    /// `subscribe(_:)` unchanged) is not wrapped again, so each event is reported once; the hooks then see it
    /// erased to an `AnySubscriber` (with the original subscriber's description and identifier).
    @usableFromInline
    internal func subscribeIntrospected<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        guard subscriber is any IntrospectionForwarder else {
            report(subscriber) { receive(subscriber: IntrospectedSubscriber(subscriber)) }
            return
        }
        report(AnySubscriber(subscriber)) { receive(subscriber: subscriber) }
    }

    /// Tells the enabled objects that `subscriber` is about to be and has been received, around `body`.
    private func report<S: Subscriber>(_ subscriber: S, around body: () -> Void)
    where S.Input == Output, S.Failure == Failure {
        for introspection in IntrospectionRegistry.shared.current {
            introspection.willReceive(publisher: self, subscriber: subscriber)
        }
        body()
        for introspection in IntrospectionRegistry.shared.current {
            introspection.didReceive(publisher: self, subscriber: subscriber)
        }
    }
}

/// Forwards to the subscriber `subscribe(_:)` was given, telling the enabled introspection objects of each event; it
/// keeps the subscriber's identity and description.
internal struct IntrospectedSubscriber<Downstream: Subscriber>: Subscriber, CustomStringConvertible,
    IntrospectionForwarder
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    let downstream: Downstream

    init(_ downstream: Downstream) {
        self.downstream = downstream
    }

    var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

    var description: String { String(describing: downstream) }

    func receive(subscription: any Subscription) {
        let wrapped = IntrospectedSubscription(subscription)
        for introspection in IntrospectionRegistry.shared.current {
            introspection.willReceive(subscriber: downstream, subscription: subscription)
        }
        downstream.receive(subscription: wrapped)
        for introspection in IntrospectionRegistry.shared.current {
            introspection.didReceive(subscriber: downstream, subscription: subscription)
        }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        for introspection in IntrospectionRegistry.shared.current {
            introspection.willReceive(subscriber: downstream, input: input)
        }
        let demand = downstream.receive(input)
        for introspection in IntrospectionRegistry.shared.current {
            introspection.didReceive(subscriber: downstream, input: input, resultingDemand: demand)
        }
        return demand
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        for introspection in IntrospectionRegistry.shared.current {
            introspection.willReceive(subscriber: downstream, completion: completion)
        }
        downstream.receive(completion: completion)
        for introspection in IntrospectionRegistry.shared.current {
            introspection.didReceive(subscriber: downstream, completion: completion)
        }
    }
}

/// Marks the subscriber `subscribe(_:)` attaches while an introspection is enabled, whatever its generic types.
internal protocol IntrospectionForwarder {}

/// Forwards to an observed subscription, telling the enabled introspection objects of each request and cancel; it
/// keeps the subscription's identity and description.
internal final class IntrospectedSubscription: Subscription, CustomStringConvertible {
    let upstream: any Subscription

    init(_ upstream: any Subscription) {
        self.upstream = upstream
    }

    var combineIdentifier: CombineIdentifier { upstream.combineIdentifier }

    var description: String { String(describing: upstream) }

    func request(_ demand: Subscribers.Demand) {
        for introspection in IntrospectionRegistry.shared.current {
            introspection.willRequest(subscription: upstream, demand)
        }
        upstream.request(demand)
        for introspection in IntrospectionRegistry.shared.current {
            introspection.didRequest(subscription: upstream, demand)
        }
    }

    func cancel() {
        for introspection in IntrospectionRegistry.shared.current {
            introspection.willCancel(subscription: upstream)
        }
        upstream.cancel()
        for introspection in IntrospectionRegistry.shared.current {
            introspection.didCancel(subscription: upstream)
        }
    }
}
